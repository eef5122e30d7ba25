import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { defaultSeed } from '../../src/simulator/index.js';
import { DEFAULT_FLOWS, fakeIo, startSimulator, tempDir, type TestSimulator } from './cli-helpers.js';

/** An account with two topics, so a service that lists topics one per page needs two pages. */
const twoTopics = {
  ...defaultSeed,
  topics: [...defaultSeed.topics, { id: 2002, name: 'Sales' }],
  roles: defaultSeed.roles.map((r) => ({ ...r, topics: [...r.topics, 2002] })),
};

let sim: TestSimulator;
let dir: { path: string; remove(): Promise<void> };

beforeAll(async () => {
  sim = await startSimulator({ seed: twoTopics });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await sim.control('/_sim/reset', {});
  dir = await tempDir();
});
afterEach(async () => {
  await dir.remove();
});

async function topicPagingLine(): Promise<string> {
  const io = fakeIo(
    {
      ENGAGE_BASE_URL: sim.url,
      ENGAGE_ACCESS_TOKEN: 'sim-token',
      ENGAGE_ACCOUNT_ID: '1001',
      BRIDGE_FLOW_FILE: DEFAULT_FLOWS,
      BRIDGE_DATA_DIR: join(dir.path, 'data'),
    },
    dir.path,
  );
  await runCli(['doctor', '--live'], io);
  const out = io.out();
  const found = out.split('\n').find((l) => l.slice(2).startsWith('live: topics fit on one page'));
  if (found === undefined) throw new Error(`no topic-paging line in:\n${out}`);
  return found;
}

describe('doctor --live: the topic-paging line, against the simulator', () => {
  it('passes when the service lists every topic on the first page', async () => {
    expect(await topicPagingLine()).toMatch(/^✔ .*2 topic\(s\) on the first page/);
  });

  it('fails, saying how many topics the first page holds, when the service pages topics one by one', async () => {
    await sim.control('/_sim/realism', { topics_page_size: 1 });
    expect(await topicPagingLine()).toMatch(/^✘ .*the first page lists 1 of 2 topics: the bridge reads every page/);
  });
});
