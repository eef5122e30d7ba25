// The real command executor of src/commands behind the Slack transport, with ports that answer only what
// these tests need: every Engage call fails like an unreachable service, the bridge has no escalations.
import { createCommandRunner, type AuditEntry, type CommandDeps } from '../../src/commands/index.js';
import { ConnectionError } from '../../src/engage/errors/index.js';
import type { CommandRunner } from '../../src/slack/ports.js';

/**
 * Any property is this same function; what it returns fails like an unreachable service both when
 * awaited and when iterated (paging methods return async iterables).
 */
function unreachable(): unknown {
  const fail = (): unknown => {
    const error = new ConnectionError({ method: 'GET', path: '/1001/test' }, 'refused');
    const rejected = Promise.reject(error);
    rejected.catch(() => undefined); // handled by whoever awaits it; not an unhandled rejection if iterated instead
    return Object.assign(rejected, {
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }),
    });
  };
  const proxy: unknown = new Proxy(fail, { get: (_target, key) => (key === 'then' ? undefined : proxy) });
  return proxy;
}

type OpenEscalation = Awaited<ReturnType<CommandDeps['bridge']['openEscalations']>>[number];

export function realRunner(
  managerIds: string[],
  options: { escalations?: OpenEscalation[] } = {},
): { runner: CommandRunner; audits: AuditEntry[] } {
  const audits: AuditEntry[] = [];
  const bridge = new Proxy(
    { openEscalations: async () => options.escalations ?? [] },
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
