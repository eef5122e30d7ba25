import { describe, expect, it, vi } from 'vitest';

// Each of these module graphs costs start-up time and resident memory for the life of the process (Bolt and its
// web framework alone are tens of MB). A bridge that does not use them must not load them: the mocks below throw
// as soon as anything imports the module.
vi.mock('../../src/slack/index.js', () => {
  throw new Error('the Slack module was loaded');
});
vi.mock('../../src/simulator/index.js', () => {
  throw new Error('the simulator module was loaded');
});
vi.mock('../../src/storage/postgres/open-postgres-store.js', () => {
  throw new Error('the PostgreSQL store module was loaded');
});
vi.mock('../../src/cli/doctor-command.js', () => {
  throw new Error('the doctor command was loaded');
});
vi.mock('../../src/cli/chat-command.js', () => {
  throw new Error('the chat command was loaded');
});

describe('starting the bridge loads only what its settings use', () => {
  it('the CLI, the composition root and the Slack starter import neither Slack, the simulator, PostgreSQL nor other commands', async () => {
    await expect(import('../../src/cli/run-cli.js')).resolves.toBeDefined();
    await expect(import('../../src/main.js')).resolves.toBeDefined();
    await expect(import('../../src/cli/start-command.js')).resolves.toBeDefined();
  });

  it('without a Slack bot token the Slack starter returns without loading Slack', async () => {
    const { startSlack } = await import('../../src/cli/start-slack.js');
    const config = { slack: { botToken: undefined } } as unknown as Parameters<typeof startSlack>[0];
    const cleanups: Array<() => Promise<void>> = [];
    await expect(startSlack(config, {} as Parameters<typeof startSlack>[1], cleanups, () => 0)).resolves.toBeUndefined();
    expect(cleanups).toHaveLength(0);
  });
});
