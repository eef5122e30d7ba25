import { describe, expect, it } from 'vitest';
import type { BridgeContext } from '../../src/bridge/bridge-context.js';
import { BridgeControlService } from '../../src/bridge/bridge-control.js';
import { ConversationEvents } from '../../src/bridge/conversation-events.js';
import { deadEffects, listDead } from '../../src/bridge/effects/effect-dead.js';
import { KeyedMutex } from '../../src/bridge/keyed-mutex.js';
import { runCliCommand } from '../../src/commands/run-cli-command.js';
import { runCommand } from '../../src/commands/run-command.js';
import { contactPseudonym } from '../../src/settings/pseudonymise.js';
import { createMemoryStore } from '../../src/storage/index.js';
import type { Store } from '../../src/storage/index.js';
import { fakeDeps, manager, stranger } from './fake-deps.js';

const T0 = Date.parse('2026-11-23T10:00:00Z');
const ANN = 'whatsapp:32470000001';
const pseudonym = contactPseudonym('a deployment key');
const ANN_PSEUDONYM = pseudonym('whatsapp/32470000001');

/** The manager command path over the bridge's own control service and a real store. */
function setup() {
  const store = createMemoryStore({ clock: () => T0 });
  const logged: unknown[] = [];
  const log = { info: (f: unknown) => void logged.push(f), warn: () => {}, error: () => {}, debug: () => {}, child: () => log };
  const ctx = { store, log, now: () => T0 } as unknown as BridgeContext;
  const control = new BridgeControlService(ctx, new ConversationEvents(ctx, new KeyedMutex()), async () => ['2001'], pseudonym);
  const deps = { ...fakeDeps({ now: new Date(T0) }), bridge: control, audit: store };
  return { store, deps, logged };
}

async function rememberAnn(store: Store): Promise<void> {
  await store.saveConversation({
    key: ANN,
    channel: 'whatsapp',
    serviceId: '32470000001',
    owner: 'agents',
    contactName: 'Ann',
    transcript: [{ at: T0, from: 'customer', text: 'my order 1234' }],
    updatedAt: T0,
  });
  await store.openEscalation({
    contactKey: ANN,
    channel: 'whatsapp',
    serviceId: '32470000001',
    reason: 'asked for a human',
    priority: 'high',
    mentionId: '9001',
    topicId: '2001',
    summary: 'order 1234',
  });
  await store.audit({ at: T0, actor: 'customer', action: 'survey answer', subject: ANN, result: '{"kind":"csat","score":5}' });
}

async function auditText(store: Store): Promise<string> {
  return JSON.stringify(await store.listAudit({ limit: 1000 }));
}

describe('forget, the manager command', () => {
  it('removes the contact and leaves one audit entry: who, when, and the contact only as its keyed hash', async () => {
    const { store, deps, logged } = setup();
    await rememberAnn(store);
    await runCommand('handover whatsapp/32470000001', { actor: manager, deps });
    // A given-up reply, listed for `status` in the store's meta.
    await listDead({ store }, { key: '2001/9001:1:reply', kind: 'reply', contactKey: ANN, reason: 'refused', atMs: T0 });
    await listDead({ store }, { key: '2001/9002:1:reply', kind: 'reply', contactKey: 'whatsapp:2', reason: 'refused', atMs: T0 });

    const answer = await runCommand('forget whatsapp/32470000001', { actor: manager, deps });
    expect(answer.ok).toBe(true);
    expect(answer.text).toContain(`Forgot ${ANN_PSEUDONYM}: removed conversation (with its dialog state): 1`);
    expect(answer.text).toContain('escalations: 1, survey answers: 1, audit entries: 1, entries in the list of given-up actions: 1.');
    expect(await deadEffects(store)).toMatchObject({ count: 2, latest: [{ contactKey: 'whatsapp:2' }] });
    expect(answer.text).not.toContain('32470000001');
    expect(await store.getConversation(ANN)).toBeUndefined();
    expect(await store.listEscalations({ contactKey: ANN })).toEqual([]);
    await store.flush();
    expect(await store.listAudit()).toEqual([{ at: T0, actor: 'slack:UMANAGER', action: 'forget', subject: ANN_PSEUDONYM, result: 'ok' }]);
    expect(JSON.stringify(logged)).not.toContain('32470000001');
    expect(ANN_PSEUDONYM).toMatch(/^whatsapp\/c-[0-9a-f]{10}$/);
  });

  it('only counts with --dry-run, and says so', async () => {
    const { store, deps } = setup();
    await rememberAnn(store);
    const before = await store.getConversation(ANN);
    const answer = await runCommand('forget whatsapp/32470000001 --dry-run', { actor: manager, deps });
    expect(answer.text).toMatch(/^Would remove about whatsapp\/c-[0-9a-f]{10} \(dry run, nothing changed\): conversation/);
    expect(await store.getConversation(ANN)).toEqual(before);
    expect(await store.listEscalations({ contactKey: ANN })).toHaveLength(1);
    expect((await store.listAudit()).at(-1)).toMatchObject({ action: 'forget', subject: `${ANN_PSEUDONYM} (dry run)` });
    expect((await store.listAudit()).filter((e) => e.action === 'survey answer')).toHaveLength(1);
  });

  it('says plainly when the bridge keeps nothing about a contact, and changes nothing', async () => {
    const { store, deps } = setup();
    await rememberAnn(store);
    const answer = await runCommand('forget whatsapp/32479999999', { actor: manager, deps });
    expect(answer).toMatchObject({ ok: true });
    expect(answer.text).toMatch(/^The bridge keeps nothing about whatsapp\/c-[0-9a-f]{10}: nothing was changed\.$/);
    expect(await store.getConversation(ANN)).toBeDefined();
    expect(await auditText(store)).not.toContain('32479999999');
  });

  it('never writes the contact in clear in the audit log, refused or malformed', async () => {
    const { store, deps } = setup();
    const refused = await runCommand('forget whatsapp/32471111111', { actor: stranger, deps });
    expect(refused.ok).toBe(false);
    const malformed = await runCliCommand('forget whatsapp/32471111111 whatsapp/32472222222', deps);
    expect(malformed.exitCode).toBe(2);
    expect(malformed.output).not.toContain('32472222222');
    const noChannel = await runCommand('forget 32471111111', { actor: manager, deps });
    expect(noChannel.usage).toContain('forget <service>/<service_id> [--dry-run]');
    await runCliCommand('forget 32471111111', deps);
    await store.flush();
    expect((await store.listAudit()).length).toBeGreaterThanOrEqual(2);
    const text = await auditText(store);
    expect(text).not.toContain('32471111111');
    expect(text).not.toContain('32472222222');
  });
});
