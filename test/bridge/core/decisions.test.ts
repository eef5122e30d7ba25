import { afterEach, describe, expect, it } from 'vitest';
import type { Decision } from '../../../src/bot/index.js';
import { commitDecision } from '../../../src/bridge/run-brain.js';
import { planEffects } from '../../../src/bridge/effects/effect-payload.js';
import { TARGET, escalatePayload } from '../effects/effect-test-context.js';
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

/** A pending decision effect as the version before `recordDecision` stored it: the state and lines ride on it. */
function legacyDecision(source: string, texts: string[], botLines: Array<{ at: number; text: string }>) {
  const followUps = planEffects(source, texts.map((text) => ({ type: 'reply', text })) as never, target, {});
  return {
    key: `${source}:decision`,
    kind: 'decision',
    contactKey: KEY,
    payload: { kind: 'decision', state: state('after'), botLines, followUps },
  };
}

describe('a decision is committed whole, state and lines with its effects, before any of it is performed', () => {
  it('commit stores the patch, the new state, the bot’s lines and every effect at once; the decided mark is done', async () => {
    world = await coreWorld();
    const w = world;
    await botConversation(w);
    await commitDecision(w.bridge.context, KEY, '9500', replyDecision('Hello'), target, (c) => ({ ...c, contactName: 'Ann' }));
    const conv = await w.store.getConversation(KEY);
    expect(conv?.contactName).toBe('Ann');
    expect(conv?.dialog).toEqual(state('after'));
    expect(conv?.transcript.map((l) => `${l.from}:${l.text}`)).toEqual(['customer:hi', 'bot:Hello']);
    // The last reply is dated with its line, in this write: sending it writes no conversation again.
    expect(conv?.lastBotReplyAt).toBe(conv?.transcript[1]?.at);
    expect((await w.store.pendingEffects(KEY)).map((e) => e.key)).toEqual(['9500:1:reply']);
    // Nothing to perform for the mark: it is stored done, in the same write.
    expect(await w.store.getEffect('9500:decision')).toMatchObject({ status: 'done', payload: null });
    await drain(w.bridge, KEY);
    const after = await w.store.getConversation(KEY);
    expect(after?.dialog).toEqual(state('after'));
    expect(after?.transcript.map((l) => `${l.from}:${l.text}`)).toEqual(['customer:hi', 'bot:Hello']);
    expect(w.engage.replies()).toEqual(['Hello']);
  });

  it('a decision committed again (same source) changes nothing: no second state, no second line', async () => {
    world = await coreWorld();
    const w = world;
    await botConversation(w);
    await commitDecision(w.bridge.context, KEY, '9500', replyDecision('Hello'), target, (c) => c);
    await commitDecision(w.bridge.context, KEY, '9500', replyDecision('Other', 'other'), target, (c) => ({ ...c, contactName: 'Bob' }));
    const conv = await w.store.getConversation(KEY);
    expect(conv?.dialog).toEqual(state('after'));
    expect(conv?.contactName).toBeUndefined();
    expect(conv?.transcript.map((l) => `${l.from}:${l.text}`)).toEqual(['customer:hi', 'bot:Hello']);
    await drain(w.bridge, KEY);
    expect(w.engage.replies()).toEqual(['Hello']);
  });
});

describe('pending decision effects stored by the version before the upgrade are still applied, once', () => {
  it('a pending decision effect with its state and lines is applied when performed, and its lines only once', async () => {
    world = await coreWorld();
    const w = world;
    await botConversation(w);
    const legacy = legacyDecision('9500', ['Hello'], [{ at: 5, text: 'Hello' }]);
    await w.store.enqueueEffect(legacy);
    await w.store.enqueueEffect({ key: '9500:1:reply', kind: 'reply', contactKey: KEY, payload: legacy.payload.followUps[0]!.payload });
    await drain(w.bridge, KEY);
    expect((await w.store.getConversation(KEY))?.dialog).toEqual(state('after'));
    // The same decision effect, stored again under a new key as a replay would: the state is there already.
    await w.store.enqueueEffect({ ...legacy, key: 'again:decision' });
    await drain(w.bridge, KEY);
    const conv = await w.store.getConversation(KEY);
    expect(conv?.transcript.filter((l) => l.from === 'bot').map((l) => l.text)).toEqual(['Hello']);
    expect(w.engage.replies()).toEqual(['Hello']);
    expect(await w.store.pendingEffects()).toEqual([]);
  });
});

describe('after a crash the follow-up effects of a decision are restored and nothing is done twice', () => {
  it('an old decision whose follow-ups were lost (a crash between writes) restores and performs them in a new process', async () => {
    world = await coreWorld();
    const w = world;
    await botConversation(w);
    // Only the first effect reached the disk.
    await w.store.enqueueEffect(legacyDecision('9500', ['Hello', 'Anything else?'], []));
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
