// A small NLU server speaking Rasa's HTTP API (POST /model/parse), on 127.0.0.1 and a free port, for tests.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type NluBehaviour = 'answer' | 'error' | 'nonsense' | 'hang';

export interface FakeNlu {
  readonly url: string;
  /** Texts asked, in order. */
  readonly asked: string[];
  behaviour: NluBehaviour;
  /** Intent and entities by a word the text contains; otherwise `nlu_fallback` at 0.3. */
  readonly rules: Array<{ word: string; intent: string; confidence: number; entities?: Array<{ entity: string; value: string }> }>;
  stop(): Promise<void>;
}

export async function startFakeNlu(rules: FakeNlu['rules'] = []): Promise<FakeNlu> {
  const hanging: ServerResponse[] = [];
  const state = { behaviour: 'answer' as NluBehaviour };
  const asked: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/model/parse') {
        res.writeHead(404).end();
        return;
      }
      const text = String((JSON.parse(body || '{}') as { text?: unknown }).text ?? '');
      asked.push(text);
      if (state.behaviour === 'hang') {
        hanging.push(res);
        return;
      }
      if (state.behaviour === 'error') {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
        return;
      }
      if (state.behaviour === 'nonsense') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"intent":"yes"}');
        return;
      }
      const rule = rules.find((r) => text.toLowerCase().includes(r.word));
      const answer = {
        text,
        intent: { name: rule?.intent ?? 'nlu_fallback', confidence: rule?.confidence ?? 0.3 },
        entities: (rule?.entities ?? []).map((e) => ({ ...e, start: 0, end: 0, extractor: 'fake' })),
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    asked,
    rules,
    get behaviour() {
      return state.behaviour;
    },
    set behaviour(b) {
      state.behaviour = b;
    },
    async stop() {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
