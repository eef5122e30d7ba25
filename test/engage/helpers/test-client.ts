import { createEngageClient, RateLimitRegistry, type EngageClientOptions, type EngageLogger } from '../../../src/engage/index.js';
import { fakeTime, type FakeTime } from './fake-time.js';
import type { ScriptedServer } from './scripted-server.js';

export const TOKEN = 'tok-SECRET-123';

export interface LogLine {
  level: string;
  obj: object;
  msg: string | undefined;
}

/** A logger that keeps every line, to assert warnings and that no token leaks. */
export function memoryLogger(): EngageLogger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, obj, msg });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** A client against the scripted server with a fake clock, no jitter and its own rate-limit registry. */
export function testClient(server: ScriptedServer, overrides: Partial<EngageClientOptions> = {}) {
  const time: FakeTime = fakeTime();
  const logger = memoryLogger();
  const client = createEngageClient({
    baseUrl: server.baseUrl,
    accountId: '1001',
    accessToken: TOKEN,
    clock: time.clock,
    sleep: time.sleep,
    random: () => 0.5,
    logger,
    rateLimit: { registry: new RateLimitRegistry() },
    ...overrides,
  });
  return { client, time, logger };
}
