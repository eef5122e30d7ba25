import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Vitest global setup: every test run gets its own temporary directory (TMPDIR, which os.tmpdir() reads
// and the test workers inherit), and the run fails when a test left anything in it: tests remove what
// they make.
export default function setup(): () => void {
  // Each project of the run calls this; the first one makes the directory, the others share it.
  if (process.env.ENGAGE_BRIDGE_TEST_TMPDIR !== undefined) return () => undefined;
  const root = mkdtempSync(join(tmpdir(), 'engage-bridge-tests-'));
  process.env.ENGAGE_BRIDGE_TEST_TMPDIR = root;
  // Traversable like /tmp itself: the PostgreSQL tests run initdb as another user, which reads a file in here.
  chmodSync(root, 0o755);
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    delete process.env.ENGAGE_BRIDGE_TEST_TMPDIR;
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    // tsx keeps its compile cache there for the child processes some tests start, and on Node 22+ it turns on
    // Node's own (`node-compile-cache`): a tool's, not a test's.
    const left = readdirSync(root).filter((name) => !name.startsWith('tsx-') && name !== 'node-compile-cache');
    rmSync(root, { recursive: true, force: true });
    if (left.length > 0) {
      // A throw here is only printed; the exit code is what makes the run fail.
      console.error(`\nTests left ${left.length} item(s) in the temporary directory: ${left.join(', ')}\n`);
      process.exitCode = 1;
    }
  };
}
