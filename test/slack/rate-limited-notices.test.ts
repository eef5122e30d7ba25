import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeSlack, MANAGER, eventually, postSigned, slashCommand, startHarness, type Harness } from './slack-test-kit.js';

const notice = {
  escalationId: 'esc-9',
  contactKey: 'web/visitor-9',
  customerName: 'Bo',
  channel: 'web',
  reason: 'fallbacks',
  summary: 'The bot did not understand twice.',
  transcript: [],
  since: 1_700_000_000_000,
};

describe('escalation notices under Slack rate limiting', () => {
  let fake: FakeSlack;
  let h: Harness;
  let releaseSleep: (() => void) | undefined;
  const sleeps: number[] = [];

  beforeEach(async () => {
    fake = new FakeSlack();
    await fake.start();
    sleeps.length = 0;
    releaseSleep = undefined;
    h = await startHarness(fake, {
      sleep: (ms) =>
        new Promise<void>((resolve) => {
          sleeps.push(ms);
          releaseSleep = resolve;
        }),
    });
  });
  afterEach(async () => {
    releaseSleep?.();
    await h.app.stop();
    await fake.stop();
  });

  it('waits out a 429 Retry-After before posting again, while slash commands keep being acked', async () => {
    fake.script('/api/chat.postMessage', { status: 429, headers: { 'retry-after': '17' }, body: { ok: false, error: 'ratelimited' } });
    h.app.notifier.escalated(notice);
    h.app.notifier.escalated({ ...notice, escalationId: 'esc-10' });
    await eventually(() => sleeps.length === 1, 'the queue to wait');
    expect(sleeps).toEqual([17_000]);
    expect(fake.callsTo('/api/chat.postMessage')).toHaveLength(1);

    const res = await postSigned(h.port, slashCommand(fake, MANAGER, 'status'));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).response_type).toBe('ephemeral');
    expect(fake.callsTo('/api/chat.postMessage')).toHaveLength(1);

    releaseSleep?.();
    await eventually(() => fake.callsTo('/api/chat.postMessage').length === 3, 'both notices after the wait');
    const posted = fake
      .callsTo('/api/chat.postMessage')
      .map((call) => (JSON.stringify(call.body.blocks).includes('esc-10') ? 'esc-10' : 'esc-9'));
    expect(posted).toEqual(['esc-9', 'esc-9', 'esc-10']);
  });

  it('does not let the notifier throw or wait when no escalation channel is configured', async () => {
    await h.app.stop();
    h = await startHarness(fake, { escalationChannel: undefined });
    expect(() => h.app.notifier.escalated(notice)).not.toThrow();
    expect(h.logger.lines.some((line) => line.msg.includes('No SLACK_ESCALATION_CHANNEL'))).toBe(true);
    expect(fake.callsTo('/api/chat.postMessage')).toHaveLength(0);
  });
});
