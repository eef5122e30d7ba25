// The executable's body, loaded by src/cli.ts once the Node version is known to be enough: a thin shell around
// runCli, so that everything it does is testable without a process.
import { runCli } from './run-cli.js';
import { processIo } from './cli-io.js';
import { limitYoungGeneration } from './young-generation.js';

const io = processIo();
// Before the service's modules load: their loading already grows the young generation.
if (process.argv[2] === 'start') limitYoungGeneration(process.execArgv, io.env.NODE_OPTIONS);
const code = await runCli(process.argv.slice(2), io);
process.exitCode = code;
// A handle left open (stdin, a keep-alive socket) must not keep a finished command alive; the grace
// period lets piped output drain first.
setTimeout(() => process.exit(code), 1000).unref();
