import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { realRunner } from './real-command-runner.js';
import { FakeSlack, MANAGER, STRANGER, eventually, postSigned, slashCommand, startHarness, type Harness } from './slack-test-kit.js';

describe('the /engage slash command with the real command executor', () => {
  let fake: FakeSlack;
  let h: Harness;
  let real: ReturnType<typeof realRunner>;

  beforeEach(async () => {
    fake = new FakeSlack();
    await fake.start();
    real = realRunner([MANAGER]);
    h = await startHarness(fake, { commands: real.runner });
  });
  afterEach(async () => {
    await h.app.stop();
    await fake.stop();
  });

  it('answers help from the registry in the ack, for anyone', async () => {
    const res = await postSigned(h.port, slashCommand(fake, STRANGER, 'help'));
    const answer = JSON.parse(res.text) as { response_type: string; text: string };
    expect(answer.response_type).toBe('ephemeral');
    for (const verb of ['tag', 'contact', 'hours', 'handover', 'escalations', 'status']) expect(answer.text).toContain(verb);
  });

  it('answers a malformed command with the usage of what was meant, in the ack, without running it', async () => {
    const res = await postSigned(h.port, slashCommand(fake, MANAGER, 'tag not-a-mention +vip'));
    const answer = JSON.parse(res.text) as { response_type: string; text: string };
    expect(answer.response_type).toBe('ephemeral');
    expect(answer.text).toContain('tag');
    expect(real.audits).toEqual([]);
    expect(h.audit).toEqual([expect.objectContaining({ action: 'malformed', result: 'failed' })]);
  });

  it('runs a manager command after the ack and the executor audits it once', async () => {
    await postSigned(h.port, slashCommand(fake, MANAGER, 'escalations', 'e1'));
    await eventually(() => fake.callsTo('/respond/e1').length === 1, 'the answer');
    expect(fake.callsTo('/respond/e1')[0]?.body).toMatchObject({ response_type: 'ephemeral', text: 'No open escalations.' });
    expect(real.audits).toEqual([expect.objectContaining({ actor: `slack:${MANAGER}`, action: 'escalations', result: 'ok' })]);
    expect(h.audit).toEqual([]);
  });

  it('passes on an unreachable Engage API as a sentence the manager can act on', async () => {
    await postSigned(h.port, slashCommand(fake, MANAGER, 'tag 2001/9001 +vip', 'e2'));
    await eventually(() => fake.callsTo('/respond/e2').length === 1, 'the answer');
    const text = String(fake.callsTo('/respond/e2')[0]?.body.text);
    expect(text).toContain('Could not reach the Engage service');
    expect(text).not.toMatch(/\n\s+at /);
  });

  it('refuses a non-manager in the ack with one audit entry', async () => {
    const res = await postSigned(h.port, slashCommand(fake, STRANGER, 'escalations'));
    expect(JSON.parse(res.text).text).toContain('only bridge managers');
    expect(real.audits).toEqual([]);
    expect(h.audit).toEqual([expect.objectContaining({ actor: `slack:${STRANGER}`, action: 'escalations', result: 'refused' })]);
  });
});
