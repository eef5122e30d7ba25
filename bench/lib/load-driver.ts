import type { SimClient } from './sim-client.js';

/** One customer message the bench sent, and when the simulator confirmed it (ms). */
export interface SentMessage {
  readonly mentionId: string;
  readonly contact: string;
  readonly text: string;
  readonly sentAt: number;
}

export interface Contact {
  readonly channel: string;
  readonly id: string;
  readonly name: string;
}

/** `count` customers on WhatsApp with ids from `firstId` upwards (distinct ranges keep scenarios apart). */
export function makeContacts(count: number, firstId: number, prefix = 'Customer'): Contact[] {
  return Array.from({ length: count }, (_, i) => ({ channel: 'whatsapp', id: String(firstId + i), name: `${prefix} ${i + 1}` }));
}

/**
 * What customer number `round` says. None of these escalate with the default flows: a first message gets the
 * greeting, then the bot answers opening hours and thanks.
 */
export function plainText(round: number): string {
  if (round === 0) return 'hello';
  return round % 2 === 1 ? 'thanks' : 'what are your opening hours';
}

async function send(sim: SimClient, c: Contact, text: string): Promise<SentMessage> {
  const m = await sim.inbound(c.channel, { id: c.id, name: c.name }, text);
  return { mentionId: String(m.id), contact: c.id, text, sentAt: Date.now() };
}

/**
 * Every contact sends `rounds` messages as fast as the simulator takes them (at most `parallel` requests in
 * flight); each contact's messages stay in order. For throughput: the bridge gets more than it can do at once.
 */
export async function sendBurst(
  sim: SimClient,
  contacts: readonly Contact[],
  rounds: number,
  text: (round: number) => string,
  parallel = 16,
  firstRound = 0,
): Promise<SentMessage[]> {
  const sent: SentMessage[] = [];
  let next = 0;
  const worker = async () => {
    while (next < contacts.length) {
      const c = contacts[next++]!;
      for (let r = firstRound; r < firstRound + rounds; r++) sent.push(await send(sim, c, text(r)));
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, contacts.length) }, worker));
  return sent;
}

/**
 * Sends at a steady `perSecond`, round-robin over the contacts (each contact writes every
 * `contacts / perSecond` seconds). `sleep` is injected so callers decide how time passes.
 */
export async function sendPaced(
  sim: SimClient,
  contacts: readonly Contact[],
  rounds: number,
  text: (round: number) => string,
  perSecond: number,
  sleep: (ms: number) => Promise<void>,
  firstRound = 0,
): Promise<SentMessage[]> {
  const total = contacts.length * rounds;
  const start = Date.now();
  const pending: Array<Promise<SentMessage>> = [];
  // One chain per contact: a slow answer from the simulator never lets a contact's later message overtake.
  const chains = new Map<string, Promise<unknown>>();
  for (let k = 0; k < total; k++) {
    const due = start + (k * 1000) / perSecond;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    const c = contacts[k % contacts.length]!;
    const round = firstRound + Math.floor(k / contacts.length);
    const p = (chains.get(c.id) ?? Promise.resolve()).then(() => send(sim, c, text(round)));
    chains.set(
      c.id,
      p.catch(() => undefined),
    );
    pending.push(p);
  }
  return Promise.all(pending);
}
