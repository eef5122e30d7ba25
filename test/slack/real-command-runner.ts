// The real command executor of src/commands behind the Slack transport, with ports that answer only what
// these tests need: every Engage call fails like an unreachable service, the bridge has no escalations.
import { createCommandRunner, type AuditEntry, type CommandDeps } from '../../src/commands/index.js';
import { ConnectionError } from '../../src/engage/errors/index.js';
import type { CommandRunner } from '../../src/slack/ports.js';

/** Any property is this same function; calling it rejects, so every API call fails cleanly. */
function unreachable(): unknown {
  const fail = (): Promise<never> => Promise.reject(new ConnectionError({ method: 'GET', path: '/1001/test' }, 'refused'));
  const proxy: unknown = new Proxy(fail, { get: (_target, key) => (key === 'then' ? undefined : proxy) });
  return proxy;
}

export function realRunner(managerIds: string[]): { runner: CommandRunner; audits: AuditEntry[] } {
  const audits: AuditEntry[] = [];
  const bridge = new Proxy(
    { openEscalations: async () => [] },
    { get: (target, key) => (key in target ? target[key as keyof typeof target] : unreachable()) },
  );
  const deps: CommandDeps = {
    engage: unreachable() as CommandDeps['engage'],
    bridge: bridge as unknown as CommandDeps['bridge'],
    audit: { audit: async (entry) => void audits.push(entry) },
    managerIds,
    now: () => new Date(1_700_000_000_000),
  };
  // compile-time check: the executor's runner fits the Slack port as it is
  const runner: CommandRunner = createCommandRunner(deps);
  return { runner, audits };
}
