import { afterEach, describe, expect, it } from 'vitest';
import { nluCheck } from '../../src/cli/doctor-nlu-check.js';
import { startFakeNlu, type FakeNlu } from '../nlu/fake-nlu-server.js';

let server: FakeNlu | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const settings = (url: string | undefined) => ({ url, timeoutMs: 5_000, breakerFailures: 3, breakerOpenMs: 30_000 });

describe('doctor checks the NLU server', () => {
  it('is silent without BRIDGE_NLU_URL', async () => {
    expect(await nluCheck(settings(undefined))).toBeUndefined();
  });

  it('passes a server that parses like Rasa, and names what it read', async () => {
    server = await startFakeNlu([{ word: 'hello', intent: 'greet', confidence: 0.97 }]);
    const check = await nluCheck(settings(server.url));
    expect(check?.ok).toBe(true);
    expect(check?.detail).toContain('read "hello" as greet (0.97)');
  });

  it('fails a server that answers nonsense or errors, and one that is not there', async () => {
    server = await startFakeNlu();
    server.behaviour = 'nonsense';
    expect((await nluCheck(settings(server.url)))?.detail).toContain('did not answer with a Rasa parse result');
    server.behaviour = 'error';
    expect((await nluCheck(settings(server.url)))?.detail).toContain('HTTP 500');
    const url = server.url;
    await server.stop();
    server = undefined;
    const down = await nluCheck(settings(`http://user:secret@${url.slice('http://'.length)}`));
    expect(down?.ok).toBe(false);
    expect(down?.detail).not.toContain('secret');
  });
});
