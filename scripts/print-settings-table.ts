// Prints the README's configuration table from the one settings table (npx tsx scripts/print-settings-table.ts).
import { SETTINGS } from '../src/settings/settings-table.js';

const rows = SETTINGS.map((s) => `| \`${s.name}\` | ${s.defaultText || ' '} | ${s.description}${s.secret ? ' (secret)' : ''} |`);
process.stdout.write(`${['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n')}\n`);
