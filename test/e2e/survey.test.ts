import { describe, it, expect, afterEach } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCliCommand } from '../../src/commands/index.js';
import { startHarness, botMessagesTo, waitFor, REPO, type Harness } from './harness.js';

let h: Harness | undefined;
let tempDir: string | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  tempDir = undefined;
});

/** The shipped flows with the survey asked `minutes` after the people are done. */
function flowsWithDelay(minutes: number): string {
  tempDir = mkdtempSync(join(tmpdir(), 'eb-survey-'));
  const file = join(tempDir, 'flows.yaml');
  const text = readFileSync(join(REPO, 'config/flows.yaml'), 'utf8').replace(/delay_minutes: 0\b/, `delay_minutes: ${minutes}`);
  writeFileSync(file, text);
  return file;
}

/** Lets the bridge finish what it has in hand (a busy machine may be slow), then checks. */
async function settled<T>(h: Harness, check: () => T): Promise<T> {
  await h.running.bridge.idle();
  return check();
}

async function resolvedStretch(h: Harness, id: string): Promise<void> {
  await h.say(id, 'hello');
  await h.settle();
  await h.say(id, 'agent');
  await h.settle();
  await h.control('/_sim/agent/reply', { channel: 'whatsapp', service_id: id, text: 'Sorted!' });
  await h.settle();
  await h.control('/_sim/agent/resolve', { channel: 'whatsapp', service_id: id });
  await h.running.bridge.reconciler.run();
}

describe("the customer's verdict", () => {
  it('sends the CSAT canned response once after a resolved stretch, and the answer shows in csat', async () => {
    h = await startHarness();
    const id = '32470000201';
    await h.say(id, 'hello');
    await h.settle();
    await h.say(id, 'agent');
    await h.settle();
    await h.control('/_sim/agent/reply', { channel: 'whatsapp', service_id: id, text: 'Sorted!' });
    await h.settle();
    await h.control('/_sim/agent/resolve', { channel: 'whatsapp', service_id: id });
    await h.running.bridge.reconciler.run();
    await waitFor('the survey', () => settled(h!, () => botMessagesTo(h!, id).some((m) => m.canned_response_id === '503')), 20_000);
    // A second look at the resolved conversation asks nothing more.
    await h.running.bridge.reconciler.run();
    await h.settle();
    expect(botMessagesTo(h, id).filter((m) => m.canned_response_id === '503')).toHaveLength(1);
    const mentionId = await h.say(id, '5');
    await h.settle();
    expect(botMessagesTo(h, id).at(-1)?.message).toBe('Thank you for your feedback!');
    await waitFor('the tags', () => settled(h!, () => h!.sim.state.mentions.get(mentionId)?.tags.includes('csat-5')), 20_000);
    const contact = [...h.sim.state.contacts.values()].find((c) => JSON.stringify(c).includes(id));
    expect(contact?.tags).toContain('csat-5');
    const out = await runCliCommand('csat 7', h.running.commandDeps);
    expect(out.exitCode).toBe(0);
    expect(out.output).toContain('CSAT (1–5): 1 response, average 5.00; scores 5×1');
    expect(out.output).toContain('whatsapp: 1, average 5.00');
    expect(out.output).toContain('explicit_request: 1, average 5.00');
    expect(await h.running.metrics.text()).toMatch(/engage_bridge_survey_answers_total\{kind="csat",score="5",channel="whatsapp"\} 1/);
  });

  it('asks a delayed survey later without holding up the answers the customer gets meanwhile', async () => {
    h = await startHarness({ env: { BRIDGE_FLOW_FILE: flowsWithDelay(10) } });
    const id = '32470000202';
    await resolvedStretch(h, id);
    await waitFor('the back-with-the-assistant turn', () =>
      botMessagesTo(h!, id).some((m) => m.message.includes('back with the assistant')),
    );
    await h.say(id, 'what time do you open?');
    await h.settle();
    await waitFor(
      'the answer about hours',
      () => settled(h!, () => botMessagesTo(h!, id).some((m) => m.message.includes('open until'))),
      20_000,
    );
    expect(botMessagesTo(h, id).filter((m) => m.canned_response_id === '503')).toHaveLength(0);
    h.advance(11 * 60_000);
    h.running.bridge.context.wake(`whatsapp:${id}`);
    await waitFor('the survey', () => settled(h!, () => botMessagesTo(h!, id).some((m) => m.canned_response_id === '503')), 20_000);
  });
});
