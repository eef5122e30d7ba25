// ICU knows more region codes than ISO 3166-1 assigns (EU, UN, deprecated and exceptionally reserved codes).
const NOT_ISO = new Set('AC AN BU CP CQ CS DD DG DY EA EU EZ FX HV IC NH QO RH SU TA TP UK UN VD XA XB XK YD YU ZR ZZ'.split(' '));

// Common English spellings that differ from the CLDR display names.
const ALIASES: Record<string, string> = {
  'united states of america': 'US',
  usa: 'US',
  'united kingdom of great britain and northern ireland': 'GB',
  'great britain': 'GB',
  'czech republic': 'CZ',
  turkey: 'TR',
  'ivory coast': 'CI',
  'russian federation': 'RU',
  burma: 'MM',
  macedonia: 'MK',
  swaziland: 'SZ',
  'hong kong': 'HK',
  macao: 'MO',
  macau: 'MO',
  'republic of korea': 'KR',
  'korea, republic of': 'KR',
  'viet nam': 'VN',
  'holy see': 'VA',
  palestine: 'PS',
  'cabo verde': 'CV',
  'democratic republic of the congo': 'CD',
  'republic of the congo': 'CG',
};

const normalise = (name: string): string =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/\bst\.\s*/g, 'saint ')
    .replace(/[’']/g, '')
    .replace(/\s+/g, ' ')
    .trim();

interface CountryTable {
  nameByCode: Map<string, string>;
  codeByName: Map<string, string>;
}

let table: CountryTable | undefined;

// Built lazily (no work at import) from the ICU English region names that ship with Node.
function countries(): CountryTable {
  if (table) return table;
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  const nameByCode = new Map<string, string>();
  const codeByName = new Map<string, string>();
  for (let a = 65; a < 91; a++) {
    for (let b = 65; b < 91; b++) {
      const code = String.fromCharCode(a, b);
      if (NOT_ISO.has(code)) continue;
      const name = names.of(code);
      if (!name || name === code) continue;
      // CLDR's short forms ("Bosnia & Herzegovina", "St. Lucia") read as the usual English list names.
      const listName = name
        .replace(/ & /g, ' and ')
        .replace(/\bSt\. /g, 'Saint ')
        .replace(/\s*\(.*\)$/, '')
        .replace(/ SAR China$/, '');
      nameByCode.set(code, listName);
      codeByName.set(normalise(name), code);
      codeByName.set(normalise(listName), code);
    }
  }
  for (const [alias, code] of Object.entries(ALIASES)) codeByName.set(alias, code);
  table = { nameByCode, codeByName };
  return table;
}

/** English name of an ISO 3166-1 alpha-2 code, or undefined when the code is not assigned. */
export function countryName(code: string): string | undefined {
  return countries().nameByCode.get(code.toUpperCase());
}

/** ISO code of an English country name (case, accents, '&'/'and' and 'St.'/'Saint' insensitive). */
export function countryCode(name: string): string | undefined {
  return countries().codeByName.get(normalise(name));
}
