// `npx tsx bench/nlu.ts [FLOWS] [TESTS]`: the understanding's figures (bench/lib/nlu-measure.ts) as one JSON object.
// `npm run bench` runs it in a process of its own and puts its figures in the report's `nlu`.
import { fileURLToPath } from 'node:url';
import { measureNlu } from './lib/nlu-measure.js';

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [flows, tests] = process.argv.slice(2);
  measureNlu(flows, tests).then(
    (figures) => process.stdout.write(`${JSON.stringify(figures)}\n`),
    (err: unknown) => {
      process.stderr.write(`nlu bench failed: ${(err as Error)?.message ?? String(err)}\n`);
      process.exit(1);
    },
  );
}
