import { waitFor } from '../support/wait-for.js';
// Test helpers for the Slack transport: a local stand-in for Slack's Web API and response_url endpoints,
// signed request builders, and recording fakes of the ports.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSlackApp, type SlackApp, type SlackAppOptions } from '../../src/slack/create-slack-app.js';
import type { AuditEntry, BridgeActions, CommandRunner, SlackActor, SlackLogger } from '../../src/slack/ports.js';
import { computeSlackSignature } from '../../src/slack/slack-signature.js';

export const SIGNING_SECRET = 'test-signing-secret';
export const MANAGER = 'UMANAGER1';
export const STRANGER = 'USTRANGER';

export interface RecordedCall {
  path: string;
  /** form fields or JSON body, with Block Kit fields parsed */
  body: Record<string, unknown>;
  authorization: string | undefined;
}

interface Scripted {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** Slack's Web API (`/api/<method>`) and response_url (`/respond/...`) on loopback. */
export class FakeSlack {
  readonly calls: RecordedCall[] = [];
  private readonly scripts = new Map<string, Scripted[]>();
  private server: Server | undefined;
  private tsCounter = 1000;
  port = 0;

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      void readBody(req).then((raw) => {
        const path = (req.url ?? '').split('?')[0] ?? '';
        this.calls.push({ path, body: parseBody(raw, req.headers['content-type']), authorization: req.headers.authorization });
        const scripted = this.scripts.get(path)?.shift();
        const answer: Scripted = scripted ?? this.defaultAnswer(path);
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(JSON.stringify(answer.body));
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
  }

  get apiUrl(): string {
    return `http://127.0.0.1:${this.port}/api/`;
  }

  responseUrl(id: string): string {
    return `http://127.0.0.1:${this.port}/respond/${id}`;
  }

  /** The next answers for `path`, in order; afterwards the default success answer. */
  script(path: string, ...answers: Scripted[]): void {
    this.scripts.set(path, [...(this.scripts.get(path) ?? []), ...answers]);
  }

  callsTo(path: string): RecordedCall[] {
    return this.calls.filter((call) => call.path === path);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private defaultAnswer(path: string): Scripted {
    if (path.startsWith('/respond/')) return { status: 200, body: { ok: true } };
    this.tsCounter += 1;
    return { status: 200, body: { ok: true, channel: 'CESC', ts: `1700000000.${this.tsCounter}` } };
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function parseBody(raw: string, contentType: string | undefined): Record<string, unknown> {
  if (contentType?.includes('json')) return JSON.parse(raw || '{}') as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    out[key] = key === 'blocks' || key === 'attachments' ? JSON.parse(value) : value;
  }
  return out;
}

/** POSTs a form body to the Bolt endpoint, signed like Slack would (or with the given overrides). */
export async function postSigned(
  port: number,
  form: Record<string, string>,
  options: { secret?: string; timestamp?: number; signature?: string } = {},
): Promise<{ status: number; text: string }> {
  const body = new URLSearchParams(form).toString();
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const signature = options.signature ?? computeSlackSignature(options.secret ?? SIGNING_SECRET, timestamp, body);
  const response = await fetch(`http://127.0.0.1:${port}/slack/events`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': signature,
    },
    body,
  });
  return { status: response.status, text: await response.text() };
}

export function slashCommand(fake: FakeSlack, userId: string, text: string, id = 'cmd'): Record<string, string> {
  return {
    token: 'legacy-verification-token',
    team_id: 'T1',
    team_domain: 'acme',
    channel_id: 'C1',
    channel_name: 'managers',
    user_id: userId,
    user_name: 'someone',
    command: '/engage',
    text,
    api_app_id: 'A1',
    response_url: fake.responseUrl(id),
    trigger_id: nextTriggerId(),
  };
}

let triggers = 0;
/** Slack gives every request its own trigger id, so no two signed requests are alike (the receiver refuses replays). */
function nextTriggerId(): string {
  triggers += 1;
  return `1.2.${triggers}`;
}

export function blockAction(
  fake: FakeSlack,
  userId: string,
  actionId: string,
  value: string | undefined,
  message: { ts: string; blocks: unknown[] },
  id = 'click',
): Record<string, string> {
  const payload = {
    type: 'block_actions',
    team: { id: 'T1', domain: 'acme' },
    user: { id: userId, username: 'someone', team_id: 'T1' },
    api_app_id: 'A1',
    token: 'legacy-verification-token',
    container: { type: 'message', message_ts: message.ts, channel_id: 'CESC', is_ephemeral: false },
    trigger_id: nextTriggerId(),
    channel: { id: 'CESC', name: 'escalations' },
    message: { type: 'message', ts: message.ts, text: 'Escalation', blocks: message.blocks },
    response_url: fake.responseUrl(id),
    actions: [
      {
        type: 'button',
        action_id: actionId,
        block_id: 'engage_escalation_actions',
        action_ts: '1700000001.0',
        text: { type: 'plain_text', text: 'x' },
        ...(value === undefined ? {} : { value }),
      },
    ],
  };
  return { payload: JSON.stringify(payload) };
}

export interface LogLine {
  level: string;
  data: Record<string, unknown>;
  msg: string;
}

export function recordingLogger(): SlackLogger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: string) => (data: Record<string, unknown>, msg: string) => void lines.push({ level, data, msg });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** A small stand-in for the command executor: `help`, `status`, `fail`, `boom`, `forget`; anything else is a usage error. */
export function fakeCommands(): CommandRunner & { runs: Array<{ text: string; actor: SlackActor }> } {
  const runs: Array<{ text: string; actor: SlackActor }> = [];
  const known = new Set(['help', 'status', 'fail', 'boom', 'forget']);
  return {
    runs,
    parse(text) {
      const verb = text.trim().split(/\s+/)[0] ?? '';
      if (verb === '') return { ok: true, name: 'help' };
      return known.has(verb)
        ? { ok: true, name: verb }
        : { ok: false, usage: `Unknown command "${verb.slice(0, 40)}". Usage: /engage help` };
    },
    async run(text, actor) {
      runs.push({ text, actor });
      const verb = text.trim().split(/\s+/)[0] || 'help';
      if (verb === 'help') return { ok: true, text: 'Commands: help, status' };
      if (verb === 'fail') return { ok: false, text: 'Engage refused the access token: create a new one.' };
      if (verb === 'boom') throw Object.assign(new Error('socket hang up at xoxb-secret'), { code: 'ECONNRESET' });
      return { ok: true, text: 'All good: 3 conversations with the bot.' };
    },
  };
}

export function fakeBridge(): BridgeActions & { calls: string[]; failNext?: Error } {
  const bridge: BridgeActions & { calls: string[]; failNext?: Error } = {
    calls: [],
    async returnToBot(contactKey, actor) {
      if (bridge.failNext) throw bridge.failNext;
      bridge.calls.push(`returnToBot ${contactKey} by ${actor.id}`);
    },
    async markResolved(escalationId, actor) {
      if (bridge.failNext) throw bridge.failNext;
      bridge.calls.push(`markResolved ${escalationId} by ${actor.id}`);
    },
  };
  return bridge;
}

export interface Harness {
  app: SlackApp;
  port: number;
  audit: AuditEntry[];
  logger: ReturnType<typeof recordingLogger>;
  commands: ReturnType<typeof fakeCommands>;
  bridge: ReturnType<typeof fakeBridge>;
  sleeps: number[];
}

/** A started Slack app on loopback wired to recording fakes; `stop()` it in afterEach. */
export async function startHarness(fake: FakeSlack, overrides: Partial<SlackAppOptions> = {}): Promise<Harness> {
  const audit: AuditEntry[] = [];
  const logger = recordingLogger();
  const commands = fakeCommands();
  const bridge = fakeBridge();
  const sleeps: number[] = [];
  const app = createSlackApp({
    botToken: 'xoxb-test-token',
    signingSecret: SIGNING_SECRET,
    botId: 'B1',
    botUserId: 'UBOT',
    port: 0,
    host: '127.0.0.1',
    apiUrl: fake.apiUrl,
    escalationChannel: 'CESC',
    managerIds: [MANAGER],
    command: '/engage',
    commands,
    bridge,
    audit: { audit: (entry) => void audit.push(entry) },
    logger,
    clock: { now: () => 1_700_000_000_000 },
    sleep: async (ms) => void sleeps.push(ms),
    webApiRetries: 0,
    ...overrides,
  });
  const { port } = await app.start();
  return { app, port: port ?? 0, audit, logger, commands, bridge, sleeps };
}

/** `waitFor` with the check first, as the Slack tests read. */
export async function eventually(check: () => boolean, what: string, deadlineMs = 5000): Promise<void> {
  await waitFor(what, check, deadlineMs);
}
