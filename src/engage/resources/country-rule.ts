import type { CallSite } from './client-rules.js';
import { refuse } from './client-rules.js';

let regionNames: Intl.DisplayNames | undefined;

/**
 * Codes that Intl names as regions but that are not assigned ISO 3166-1 alpha-2 country codes:
 * exceptionally or transitionally reserved (UK, EU, AC, YU, ...), user-assigned (XK, QO, XA, XB)
 * and CLDR's unknown region (ZZ). The service looks codes up in the ISO list, so these would be refused
 * or, worse, stored as nothing.
 */
const NOT_ISO_3166_1 = new Set('AC AN BU CP CQ CS DD DG DY EA EU EZ FX HV IC NH QO RH SU TA TP UK UN VD XA XB XK YD YU ZR ZZ'.split(' '));

/** The English name of an ISO 3166-1 alpha-2 code, or undefined when the code is unknown. */
export function countryNameForCode(code: string): string | undefined {
  if (!/^[A-Za-z]{2}$/.test(code)) return undefined;
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const upper = code.toUpperCase();
  const name = NOT_ISO_3166_1.has(upper) ? undefined : regionNames.of(upper);
  return name === undefined || name === upper ? undefined : name;
}

export interface CountryUpdate {
  name?: string | null | undefined;
  code?: string | null | undefined;
}

/**
 * The brief's country rule, applied before sending: a code wins over a name, so when a code is
 * given it must be a real ISO code and the name is not sent (it would be ignored); a name alone
 * goes to the service, which looks it up in its English list.
 */
export function applyCountryRule(site: CallSite, country: CountryUpdate): CountryUpdate {
  const code = country.code?.trim();
  if (code !== undefined && code !== '') {
    if (countryNameForCode(code) === undefined) {
      throw refuse(site, `address.country.code "${code}" is not an ISO 3166-1 alpha-2 country code`);
    }
    return { code: code.toUpperCase() };
  }
  const name = country.name?.trim();
  if (name === undefined || name === '') {
    throw refuse(site, 'address.country needs a code (e.g. "BE") or an English country name');
  }
  return { name };
}
