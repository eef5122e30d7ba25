import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSlackApi {
  /** Base address for SLACK_API_URL (ends in /api/). */
  url: string;
  /** Every call: Web API method and its form fields. */
  calls: { method: string; token: string | undefined; fields: Record<string, string> }[];
  close(): Promise<void>;
}

const GOOD_TOKEN = 'xoxb-good-token';
export const SLACK_GOOD_TOKEN = GOOD_TOKEN;
export const SLACK_CHANNEL = 'C0ESCALATE';

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

/** A local stand-in for Slack's Web API: auth.test and conversations.info, answered the way Slack answers. */
export async function startFakeSlackApi(): Promise<FakeSlackApi> {
  const calls: FakeSlackApi['calls'] = [];
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const method = (req.url ?? '').replace(/^\/api\//, '').split('?')[0] ?? '';
      const token = req.headers.authorization?.replace(/^Bearer /, '');
      const fields = Object.fromEntries(new URLSearchParams(body));
      calls.push({ method, token, fields });
      let answer: Record<string, unknown>;
      if (token !== GOOD_TOKEN) answer = { ok: false, error: 'invalid_auth' };
      else if (method === 'auth.test')
        answer = { ok: true, team: 'Acme', user: 'engage-bot', bot_id: 'B1', user_id: 'U1', url: 'https://acme.slack.com/' };
      else if (method === 'conversations.info' && fields.channel === SLACK_CHANNEL) {
        answer = { ok: true, channel: { id: SLACK_CHANNEL, name: 'escalations', is_member: true, is_archived: false } };
      } else if (method === 'conversations.info') answer = { ok: false, error: 'channel_not_found' };
      else answer = { ok: false, error: 'unknown_method' };
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/`,
    calls,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
