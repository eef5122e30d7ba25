// Makes the built CLI executable with a node shebang, so `engage-bridge` works from dist/.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
const file = new URL('../dist/cli.js', import.meta.url);
const text = readFileSync(file, 'utf8');
if (!text.startsWith('#!')) writeFileSync(file, `#!/usr/bin/env node\n${text}`);
chmodSync(file, 0o755);
