import { SETTINGS } from './settings-table.js';

/** Markdown code spans and bold in the table's texts read badly in a shell file. */
function plain(text: string): string {
  return text.replaceAll('`', '').replaceAll('**', '');
}

/**
 * A `.env` file with every setting of the table commented out, its default and its meaning above it:
 * what `engage-bridge init` writes and what `config/example.env` holds (a test keeps them equal).
 */
export function envTemplate(): string {
  const lines = [
    '# engage-bridge settings. Uncomment a line to set it; the environment wins over this file.',
    '# With no ENGAGE_ACCESS_TOKEN the bridge runs the demo on the embedded simulator.',
    '# Secrets (marked below) belong here or in the environment only: never in a flows file or a log.',
    '',
  ];
  for (const s of SETTINGS) {
    const about = plain(s.description);
    lines.push(`# ${about.charAt(0).toUpperCase()}${about.slice(1)}${s.secret ? ' (secret)' : ''}. Default: ${plain(s.defaultText)}.`);
    lines.push(`# ${s.name}=`);
    lines.push('');
  }
  return lines.join('\n');
}
