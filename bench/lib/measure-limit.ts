import { createEngageClient, RateLimitRegistry } from '../../src/engage/index.js';
import { bridgeClientConcurrency, bucketOf, BRIDGE_CLIENT_CONCURRENCY } from '../../src/cli/bridge-options.js';
import type { SentMessage } from './load-driver.js';
import { ACCOUNT_ID, SIM_TOKEN } from './processes.js';

export interface LimitResult {
  readonly calls: number;
  readonly failed: number;
  readonly elapsedMs: number;
  readonly perSecond: number;
  /** CPU (user + system) of the bench process, which runs the client alone, per reply: ms. */
  readonly clientCpuMsPerReply: number;
}

/**
 * The limit the bridge is compared with: the same client (`createEngageClient`, same budget) replying to
 * `targets` with `publisher/add`, `concurrency` at a time, against the same simulator, with no bridge.
 */
export async function measureLimit(
  simUrl: string,
  targets: readonly SentMessage[],
  o: { concurrency: number; rateLimitPerHour?: number },
): Promise<LimitResult> {
  const client = createEngageClient({
    baseUrl: simUrl,
    accountId: ACCOUNT_ID,
    accessToken: SIM_TOKEN,
    // The same client settings as the bridge's (src/main.ts), so the ratio compares like with like.
    rateLimit: { registry: new RateLimitRegistry(bucketOf(o.rateLimitPerHour ?? 0)), concurrency: BRIDGE_CLIENT_CONCURRENCY },
  });
  let next = 0;
  return timedWorkers(client, targets.length, o.concurrency, async () => {
    let failed = 0;
    while (next < targets.length) {
      if (!(await reply(client, targets[next++]!))) failed++;
    }
    return failed;
  });
}

/**
 * The calls the bridge makes for a new contact, by the client alone: its facts (tags, for the flows) beside its owner
 * check, then the claim (the check and the claim are what the API requires of a bot that never talks over an agent),
 * then its replies in order, `concurrency` contacts at a time with the bridge's own client classes
 * (`bridgeClientConcurrency`). No polling, no store, no decision: the same calls a new contact costs the bridge
 * (`details.burst.calls_per_answer`), so replies per second here is what the bridge could reach if its own work cost
 * nothing. `targets` are fresh contacts' messages, already sent. `apiCalls` counts the requests that went out.
 */
export async function measureFlowLimit(
  simUrl: string,
  targets: readonly SentMessage[],
  o: { concurrency: number; rateLimitPerHour?: number },
): Promise<LimitResult & { readonly apiCalls: number }> {
  let apiCalls = 0;
  const client = createEngageClient({
    baseUrl: simUrl,
    accountId: ACCOUNT_ID,
    accessToken: SIM_TOKEN,
    onRequest: () => {
      apiCalls++;
    },
    rateLimit: {
      registry: new RateLimitRegistry(bucketOf(o.rateLimitPerHour ?? 0)),
      concurrency: bridgeClientConcurrency(o.concurrency),
    },
  });
  const byContact = new Map<string, SentMessage[]>();
  for (const t of targets) byContact.set(t.contact, [...(byContact.get(t.contact) ?? []), t]);
  const queue = [...byContact];
  const result = await timedWorkers(client, targets.length, o.concurrency, async () => {
    let failed = 0;
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const [contact, messages] = next;
      const ref = { service: 'whatsapp', serviceId: contact };
      try {
        // As the bridge: a contact whose facts cannot be read is answered without them (contact-tags.ts).
        await Promise.all([client.contacts.get(ref, { topicIds: ['2001'] }).catch(() => undefined), client.handover.get(ref)]);
        await client.handover.toApplication(ref);
      } catch {
        failed += messages.length;
        continue;
      }
      for (const t of messages) if (!(await reply(client, t))) failed++;
    }
    return failed;
  });
  return { ...result, apiCalls };
}

type Client = ReturnType<typeof createEngageClient>;

/** One reply as the bench's clients send it; false when it failed. */
export async function reply(client: Client, target: SentMessage): Promise<boolean> {
  try {
    await client.publisher.add({
      type: 'reply',
      // The account's own WhatsApp profile (the seed's): replies go out from what GET publisher/add lists.
      services: [{ type: 'whatsapp', service_id: '3225550100' }],
      message: 'Thanks, noted.',
      status: '',
      topicId: '2001',
      mentionId: target.mentionId,
    });
    return true;
  } catch {
    return false;
  }
}

/** Runs `concurrency` workers (each returns its failed replies), closes the client, and times the whole. */
async function timedWorkers(client: Client, replies: number, concurrency: number, worker: () => Promise<number>): Promise<LimitResult> {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  let failed = 0;
  try {
    for (const f of await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker))) failed += f;
  } finally {
    await client.close();
  }
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    calls: replies,
    failed,
    elapsedMs: Math.round(elapsedMs),
    perSecond: round1((replies - failed) / (elapsedMs / 1000)),
    clientCpuMsPerReply: Math.round(((cpu.user + cpu.system) / 1000 / Math.max(1, replies)) * 100) / 100,
  };
}

const round1 = (v: number) => Math.round(v * 10) / 10;
