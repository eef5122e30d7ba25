import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServerError } from '../../../src/engage/index.js';
import { ok, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { testClient } from '../helpers/test-client.js';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

const ref = { topicId: 2, id: 1 };

describe('only truly idempotent mention updates are retried automatically', () => {
  it('never retries an update that adds a note: the service appends it, a repeat could add it twice', async () => {
    const { client } = testClient(server);
    server.script({ status: 503, body: { error: 'server_error' } }, ok({ id: 1, topic_id: 2 }));
    await expect(client.mentions.update(ref, { actions: [{ type: 'note', extra: 'why' }] })).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(1);
  });

  it('still retries an update that only sets keys, such as tags or status', async () => {
    const { client } = testClient(server);
    server.script({ status: 503, body: { error: 'server_error' } }, ok({ id: 1, topic_id: 2 }));
    await client.mentions.update(ref, { status: 'done' });
    expect(server.requests).toHaveLength(2);
  });
});
