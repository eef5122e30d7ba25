import { afterEach, describe, expect, it } from 'vitest';
import type { Decision } from '../../../src/bot/index.js';
import { commitDecision } from '../../../src/bridge/run-brain.js';
import { planEffects } from '../../../src/bridge/effect-payload.js';
import { TARGET, escalatePayload } from '../effect-test-context.js';
import { KEY, TOPIC, coreWorld, customerWrites, drain, type CoreWorld } from './core-harness.js';

let world: CoreWorld | undefined;
afterEach(async () => {
  await world?.bridge.stop();
  world = undefined;
});

const target = { mentionId: '9500', topicId: TOPIC };
const state = (step: string) => ({ mode: 'bot', step }) as unknown as Decision['state'];
const replyDecision = (text: string, step = 'after'): Decision =>
  ({ state: state(step), actions: [{ type: 'reply', text }] }) as unknown as Decision;

async function botConversation(w: CoreWorld): Promise<void> {
  await w.store.saveConversation({
    key: KEY,
    channel: 'whatsapp',
    serviceId: KEY.split(':')[1] as string,
    owner: 'bot',
    ownerConfirmedAt: w.clock.now(),
    dialog: state('before'),
    transcript: [{ at: 1_000, from: 'customer', text: 'hi', mentionId: target.mentionId }],
    updatedAt: w.clock.now(),
  });
  w.engage.owners.set(KEY, 'application');
}

describe('a decision is committed whole before any of it is performed, and applied once when its first effect runs', () => {
  it('commit stores the patch and every effect; the new state and the bot’s lines wait for the decision effect', async () => {
    world = await coreWorld();
    const w = world;
    await botConversation(w);
    await commitDecision(w.bridge.context, KEY, '9500', replyDecision('Hello'), target, (c) => ({ ...c, contactName: 'Ann' }));
    const conv = await w.store.getConversation(KEY);
    expect(conv?.contactName).toBe('Ann');
    expect(conv?.dialog).toEqual(state('before'));
    expect((await w.store.pendingEffects(KEY)).map((e) => e.key)).toEqual(['9500:decision', '9500:1:reply']);
    await drain(w.bridge, KEY);
    const after = await w.store.getConversation(KEY);
    expect(after?.dialog).toEqual(state('after'));
    expect(after?.transcript.map((l) => `${l.from}:${l.text}`)).toEqual(['customer:hi', 'bot:Hello']);
    expect(w.engage.replies()).toEqual(['Hello']);
  });

  it('applying the same decision again (after a restart) adds the bot’s lines only once', async () => {
    world = await coreWorld();
    const w = world;
    await botConversation(w);
    const planned = planEffects(
      '9500',
      [{ type: 'reply', text: 'Hello' }] as never,
      target,
      {},
      {
        state: state('after'),
        botLines: [{ at: 5, text: 'Hello' }],
      },
    );
    const decision = planned[0]!;
    await w.store.enqueueEffect({ key: decision.key, kind: 'decision', contactKey: KEY, payload: decision.payload });
    await drain(w.bridge, KEY);
    // The same decision effect, stored again under a new key as a replay would: the state is there already.
    await w.store.enqueueEffect({ key: 'again:decision', kind: 'decision', contactKey: KEY, payload: decision.payload });
    await drain(w.bridge, KEY);
    const conv = await w.store.getConversation(KEY);
    expect(conv?.transcript.filter((l) => l.from === 'bot')).toHaveLength(1);
    expect(w.engage.replies()).toEqual(['Hello']);
  });
});

describe('after a crash the follow-up effects of a decision are restored and nothing is done twice', () => {
  it('a decision whose follow-ups were lost (a crash between writes) restores and performs them in a new process', async () => {
    world = await coreWorld();
    const w = world;
    await botConversation(w);
    const planned = planEffects(
      '9500',
      [
        { type: 'reply', text: 'Hello' },
        { type: 'reply', text: 'Anything else?' },
      ] as never,
      target,
      {},
      {
        state: state('after'),
        botLines: [],
      },
    );
    // Only the first effect reached the disk.
    await w.store.enqueueEffect({ key: planned[0]!.key, kind: 'decision', contactKey: KEY, payload: planned[0]!.payload });
    const bridge = await w.restart();
    await bridge.prepare();
    await bridge.idle();
    expect(w.engage.replies()).toEqual(['Hello', 'Anything else?']);
    expect(await w.store.pendingEffects()).toEqual([]);
  });

  it('a reply published just before a crash, but not recorded, is found by the new process and not sent again', async () => {
    world = await coreWorld();
    const w = world;
    const id = await customerWrites(w.store, KEY, 'hello', 1_000);
    // The first process: decides and publishes, but the reply's completion never reaches the disk.
    const complete = w.store.completeEffect.bind(w.store);
    w.store.completeEffect = async (key, result) => {
      if (key.endsWith(':reply')) throw new Error('killed');
      return complete(key, result);
    };
    await drain(w.bridge, KEY);
    await w.bridge.stop();
    expect(w.engage.replies()).toHaveLength(1);
    w.store.completeEffect = complete;
    w.clock.advance(60_000);
    const bridge = await w.restart();
    await bridge.prepare();
    await bridge.idle();
    expect(w.engage.replies()).toHaveLength(1);
    expect((await w.store.getEffect(`${TOPIC}/${id}:1:reply`))?.result).toMatchObject({ publisherMentionId: 'pm-1', recovered: true });
    expect(await w.store.pendingInbound()).toEqual([]);
  });

  it('a handover re-committed after a restart (same source, same effect keys) still re-checks its note before adding it', async () => {
    world = await coreWorld();
    const w = world;
    await botConversation(w);
    const note = 'Customer asked for a person.';
    const decision = { state: state('escalated'), actions: [(escalatePayload(note) as { action: unknown }).action] } as unknown as Decision;
    // The first process committed the decision (an opening-time release, say) and performed the handover and the
    // note, but died before the effect's completion was on disk.
    await commitDecision(w.bridge.context, KEY, 'open:esc-1', decision, TARGET, (c) => c);
    w.engage.owners.set(KEY, 'agents');
    w.engage.notes.push(note);
    // The new process commits the same decision again before the contact's worker has looked at its effects.
    const bridge = await w.restart();
    await commitDecision(bridge.context, KEY, 'open:esc-1', decision, TARGET, (c) => c);
    await drain(bridge, KEY);
    expect(w.engage.notes).toEqual([note]);
    expect(w.engage.count('mentions.get')).toBe(1);
    expect(w.engage.calls.filter((c) => c.what === 'mentions.update' && 'actions' in (c.args[1] as object))).toHaveLength(0);
  });
});

describe('a takeover decided again after a crash does nothing twice', () => {
  it('a person’s message handled before a crash but not marked processed is taken in again without a second handover', async () => {
    world = await coreWorld();
    const w = world;
    await customerWrites(w.store, KEY, 'hello', 1_000);
    await drain(w.bridge, KEY);
    await w.store.recordInbound({
      id: 'agent-1',
      topicId: TOPIC,
      key: KEY,
      addedAt: 1_010,
      payload: { kind: 'account', text: 'Hi, Bo here from support', authorName: 'Bo' },
    });
    // The first process decides the takeover and performs its effects, then dies before the message is marked.
    const mark = w.store.markInboundProcessed.bind(w.store);
    w.store.markInboundProcessed = async () => {
      throw new Error('killed');
    };
    await drain(w.bridge, KEY);
    await w.bridge.stop();
    w.store.markInboundProcessed = mark;
    const decided = (await w.store.pendingEffects(KEY)).length;
    expect(w.engage.count('handover.toAgents')).toBe(1);
    w.clock.advance(60_000);
    const bridge = await w.restart();
    await drain(bridge, KEY);
    expect(decided).toBe(0);
    expect(w.engage.count('handover.toAgents')).toBe(1);
    expect(w.engage.replies()).toHaveLength(1);
    expect(await w.store.pendingInbound(KEY)).toEqual([]);
    expect(await w.store.pendingEffects(KEY)).toEqual([]);
    expect((await w.store.getConversation(KEY))?.owner).toBe('agents');
  });
});
