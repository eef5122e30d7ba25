import { afterEach, describe, expect, it } from 'vitest';
import { FakeSlack, MANAGER, postSigned, slashCommand, startHarness, type Harness } from './slack-test-kit.js';

let fake: FakeSlack | undefined;
let h: Harness | undefined;
afterEach(async () => {
  await h?.app.stop();
  await fake?.stop();
  h = undefined;
  fake = undefined;
});

describe('Slack request checks', () => {
  it('refuses a signed request sent a second time (a replay within the 5-minute window)', async () => {
    fake = new FakeSlack();
    await fake.start();
    const refused: string[] = [];
    h = await startHarness(fake, { countRefused: (r) => refused.push(r) });
    const form = slashCommand(fake, MANAGER, 'help');
    const timestamp = Math.floor(Date.now() / 1000);
    expect((await postSigned(h.port, form, { timestamp })).status).toBe(200);
    expect((await postSigned(h.port, form, { timestamp })).status).toBe(401);
    expect(refused).toEqual(['replay']);
  });

  it('refuses a body over the limit with 413 while reading it, before any signature check', async () => {
    fake = new FakeSlack();
    await fake.start();
    const refused: string[] = [];
    h = await startHarness(fake, { maxBodyBytes: 4096, countRefused: (r) => refused.push(r) });
    const answer = await postSigned(
      h.port,
      { ...slashCommand(fake, MANAGER, 'help'), padding: 'x'.repeat(8192) },
      { signature: 'v0=wrong' },
    );
    expect(answer.status).toBe(413);
    expect(refused).toEqual(['too-large']);
  });
});
