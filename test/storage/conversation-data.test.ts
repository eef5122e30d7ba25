import { describe, expect, it } from 'vitest';
import { CONVERSATION_FIELDS, LINE_FIELDS, conversationDataOf } from '../../src/storage/conversation-data.js';
import { jsonDataOf } from '../../src/storage/json-data.js';
import { conversationSchema, transcriptLineSchema } from '../../src/storage/records.js';

const LINE = { at: 1, from: 'customer', text: 'hi', mentionId: '7', topicId: '2001' };
const FULL: Record<string, unknown> = {
  key: 'whatsapp:1',
  channel: 'whatsapp',
  serviceId: '1',
  topicId: '2001',
  contactName: 'Ann',
  owner: 'bot',
  ownerConfirmedAt: 1,
  ownerChangedAt: 2,
  dialog: { step: 'menu', at: new Date(0), list: [1, undefined] },
  transcript: [LINE, { at: 2, from: 'bot', text: 'hello' }],
  stretchStartedAt: 3,
  lastInboundAt: 4,
  lastBotReplyAt: 5,
  lastHumanActivityAt: 6,
  humanSeenAt: 7,
  lastMentionId: '7',
  lastMentionTopicId: '2001',
  updatedAt: 8,
};

/** Values of every kind the fields might be given. */
const POOL: unknown[] = [
  undefined,
  null,
  '',
  'x',
  'bot',
  'agents',
  'paused',
  'unknown',
  'customer',
  'system',
  0,
  -0,
  1.5,
  -7,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  true,
  {},
  [],
  [LINE],
  new Date(0),
  Object('s'),
  Object(1),
  1n,
  Symbol('s'),
  () => 1,
];

function lineVariants(): unknown[][] {
  const variants: unknown[][] = [[], [null], [[]], ['x'], [{ ...LINE, extra: 1 }]];
  for (const name of LINE_FIELDS) {
    for (const value of POOL) variants.push([{ ...LINE, [name]: value }]);
    const without: Record<string, unknown> = { ...LINE };
    delete without[name];
    variants.push([without]);
  }
  const sparse: unknown[] = [];
  sparse[1] = LINE;
  variants.push(sparse);
  return variants;
}

function variants(): unknown[] {
  const found: unknown[] = [FULL, null, [], 'x', 1, { ...FULL, extra: { deep: 1 } }, Object.assign(Object.create(null), FULL)];
  found.push({ ...FULL, ...JSON.parse('{"__proto__":{"polluted":true}}') });
  for (const [name] of CONVERSATION_FIELDS) {
    for (const value of POOL) found.push({ ...FULL, [name]: value });
    const without = { ...FULL };
    delete without[name];
    found.push(without);
  }
  for (const transcript of lineVariants()) found.push({ ...FULL, transcript });
  // A few at once, picked by a fixed sequence so a failure repeats.
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  for (let i = 0; i < 2000; i += 1) {
    const record: Record<string, unknown> = { ...FULL };
    for (let j = 0; j < 3; j += 1) record[CONVERSATION_FIELDS[next(CONVERSATION_FIELDS.length)]![0]] = POOL[next(POOL.length)];
    found.push(record);
  }
  return found;
}

function dialogIsJson(value: unknown): boolean {
  try {
    jsonDataOf((value as { dialog?: unknown })?.dialog);
    return true;
  } catch {
    return false;
  }
}

describe('the hand-written conversation check', () => {
  it('has the schema’s fields, in its order', () => {
    expect(CONVERSATION_FIELDS.map(([name]) => name)).toEqual(Object.keys(conversationSchema.shape));
    expect([...LINE_FIELDS]).toEqual(Object.keys(transcriptLineSchema.shape));
  });

  it('accepts exactly what the schema accepts, and gives what zod’s output gives as JSON data', () => {
    let accepted = 0;
    for (const value of variants()) {
      const fast = conversationDataOf(value);
      const zod = conversationSchema.safeParse(value);
      const json = zod.success && dialogIsJson(value) ? jsonDataOf(zod.data) : undefined;
      if (fast !== undefined) {
        expect(zod.success, JSON.stringify(fast)).toBe(true);
        expect(fast).toStrictEqual(json);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(json));
        accepted += 1;
      } else if (zod.success) {
        // Only a dialog that is not JSON data goes the slow way: the store then refuses it.
        expect(dialogIsJson(value)).toBe(false);
      }
    }
    expect(accepted).toBeGreaterThan(200);
  });

  it('shares nothing with the record it was given', () => {
    const given: Record<string, unknown> = structuredClone({ ...FULL, dialog: { list: [1] } });
    const data = conversationDataOf(given)!;
    (data.dialog as { list: number[] }).list.push(2);
    data.transcript[0]!.text = 'changed';
    expect(given.dialog).toEqual({ list: [1] });
    expect((given.transcript as Array<{ text: string }>)[0]!.text).toBe('hi');
  });
});
