import type { DriverEvent } from './chaos-events.js';
import type { Contact } from './load-driver.js';
import type { LogTail } from './log-tail.js';
import { pick } from './prng.js';
import type { RequestEntry, SimClient } from './sim-client.js';

/** What customers say: mostly things the bot answers, some that hand them to people, some it cannot parse. */
const TEXTS = [
  'hello',
  'thanks',
  'what are your opening hours',
  'where is my order',
  'my order is AB-12345',
  'thanks a lot',
  'when are you open',
  'hello again',
  'qwerty zxcv',
  'I want to talk to an agent',
  'never mind',
  'refund please',
];
const ESCALATING = new Set(['I want to talk to an agent', 'refund please']);

export interface DriverDeps {
  readonly sim: SimClient;
  readonly requests: LogTail<RequestEntry>;
  readonly random: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly thinkMs: readonly [number, number];
  /** Called after every customer message (the kill schedule follows progress). */
  readonly onMessage: () => Promise<void>;
}

/**
 * One customer's conversation under chaos: messages with think time, and around them the service's side acting —
 * an agent taking the contact (sometimes with a reply), an agent replying without a handover, the contact given
 * back. Everything it does is recorded with its place in the request log.
 */
export async function driveContact(d: DriverDeps, contact: Contact, messages: number, events: DriverEvent[]): Promise<void> {
  let held = false;
  let heldFor = 0;
  // Set when the customer asked for a person: an agent picks the conversation up (take and reply) soon after.
  let asked = false;
  const act = async (kind: 'take' | 'return' | 'agent-reply', run: () => Promise<unknown>) => {
    const before = d.requests.last;
    await run();
    await d.requests.catchUp();
    events.push({ kind, contact: contact.id, before, after: d.requests.last });
  };
  const take = async (withReply: boolean) => {
    await act('take', () => d.sim.handover(contact.channel, contact.id, 'agents'));
    if (withReply) await act('agent-reply', () => d.sim.agentReply(contact.channel, contact.id, 'Hi, Alice from support here.'));
    held = true;
    heldFor = 1 + Math.floor(d.random() * 3);
  };
  for (let i = 0; i < messages; i++) {
    const r = d.random();
    if (asked) {
      asked = false;
      await take(true);
    } else if (i > 0 && !held && r < 0.06) {
      await take(d.random() < 0.5);
    } else if (i > 0 && !held && r < 0.1) {
      await act('agent-reply', () => d.sim.agentReply(contact.channel, contact.id, 'Jumping in: let me help you with that.'));
      held = true;
      heldFor = 1 + Math.floor(d.random() * 3);
    } else if (i > 0 && (held ? heldFor <= 0 : r > 0.8)) {
      // Also given back now and then when the driver did not see it go: the bridge may have escalated on its own.
      await act('return', () => d.sim.handover(contact.channel, contact.id, 'application'));
      held = false;
    }
    const text = pick(d.random, TEXTS);
    const before = d.requests.last;
    const m = await d.sim.inbound(contact.channel, { id: contact.id, name: contact.name }, text);
    events.push({ kind: 'message', contact: contact.id, mentionId: String(m.id), text, before, sentAt: Date.now() });
    if (ESCALATING.has(text) && !held) asked = true;
    heldFor--;
    await d.onMessage();
    await d.sleep(d.thinkMs[0] + d.random() * (d.thinkMs[1] - d.thinkMs[0]));
  }
}
