import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, SocketModeReceiver, type Receiver } from '@slack/bolt';
import { toBoltLogger } from './bolt-logger.js';
import { createEscalationNotifier } from './escalation-notifier.js';
import { registerNoticeButtons } from './notice-buttons.js';
import { createNoticeQueue, realSleep, type Sleep } from './notice-queue.js';
import type { AuditSink, BridgeActions, Clock, CommandRunner, SlackLogger, SlackNotifier } from './ports.js';
import { registerSlashCommand } from './slash-command.js';
import { verifySlackRequests } from './verify-slack-requests.js';
import { capConnections, DEFAULT_SERVER_LIMITS, serverOptions, type ServerLimits } from '../http/index.js';
import type { Server } from 'node:http';

export interface SlackAppOptions {
  botToken: string;
  /** required in HTTP mode */
  signingSecret?: string;
  /** when set: Socket Mode instead of the HTTP receiver */
  appToken?: string;
  /** with both ids, no `auth.test` call is made */
  botId?: string;
  botUserId?: string;
  /** HTTP receiver port; 0 = any free port */
  port: number;
  /** interface to listen on; all interfaces when absent (Slack must reach it) */
  host?: string;
  /** Timeouts and connection cap of the HTTP receiver's port (default DEFAULT_SERVER_LIMITS). */
  limits?: ServerLimits;
  /** Largest request body taken (default 256 KiB): refused with 413 while it is read, before the signature check. */
  maxBodyBytes?: number;
  /** Counts a refused request by reason (the metric); warnings about them are sampled. */
  countRefused?: (reason: string) => void;
  /** Web API base address, e.g. `https://slack.com/api/` */
  apiUrl?: string;
  escalationChannel?: string;
  /** Origins besides `*.engagor.com` whose permalinks get an *Open in Engage* button (the API base address). */
  permalinkOrigins?: readonly string[];
  managerIds: readonly string[];
  command: string;
  commands: CommandRunner;
  bridge: BridgeActions;
  audit: AuditSink;
  logger: SlackLogger;
  clock?: Clock;
  /** Wall clock for Slack's request timestamps (default Date.now); separate from `clock`, which stamps audits. */
  wallClockMs?: () => number;
  /** waits out Retry-After in the notice queue */
  sleep?: Sleep;
  /** retries of the Web API client for network and 5xx failures (rate limits are the queue's business) */
  webApiRetries?: number;
  noticeQueueSize?: number;
  /** how long `help` may take before it is answered after the ack instead; default 2,000 ms */
  helpAckBudgetMs?: number;
}

export interface SlackApp {
  mode: 'http' | 'socket';
  /** HTTP mode reports the bound port; Socket Mode listens on none */
  start(): Promise<{ port: number | null }>;
  /** Stops taking work; notices still queued are dropped with a log line (call flushNotices first to send them). */
  stop(): Promise<void>;
  /** Resolves once every queued notice was sent or given up (Retry-After waits included). */
  flushNotices(): Promise<void>;
  notifier: SlackNotifier;
}

/** Slack's payloads (a slash command, a button click with its message) are a few KiB; 256 KiB leaves room. */
export const DEFAULT_SLACK_BODY_LIMIT = 256 * 1024;

const systemClock: Clock = { now: () => Date.now() };

/** Builds the Bolt app without touching the network; `start()` binds the port or opens the socket. */
export function createSlackApp(options: SlackAppOptions): SlackApp {
  const problems = validate(options);
  if (problems.length > 0) throw new Error(`Invalid Slack settings: ${problems.join('; ')}`);

  const clock = options.clock ?? systemClock;
  const boltLogger = toBoltLogger(options.logger);
  const mode = options.appToken !== undefined && options.appToken !== '' ? 'socket' : 'http';
  let receiver: Receiver;
  if (mode === 'socket') {
    receiver = new SocketModeReceiver({ appToken: options.appToken as string, logger: boltLogger });
  } else {
    const http = new HTTPReceiver({
      signingSecret: options.signingSecret as string,
      endpoints: '/slack/events',
      logger: boltLogger,
      processBeforeResponse: false,
      // Our own check (both directions of the timestamp) runs in front instead: see verify-slack-requests.
      signatureVerification: false,
      bodyLimit: options.maxBodyBytes ?? DEFAULT_SLACK_BODY_LIMIT,
    });
    verifySlackRequests(http, {
      signingSecret: options.signingSecret as string,
      nowMs: options.wallClockMs ?? Date.now,
      logger: options.logger,
      bodyLimit: options.maxBodyBytes ?? DEFAULT_SLACK_BODY_LIMIT,
      ...(options.countRefused ? { countRefused: options.countRefused } : {}),
    });
    receiver = http;
  }
  const knowsIdentity = options.botId !== undefined && options.botUserId !== undefined;

  const app = new App({
    receiver,
    token: options.botToken,
    // one id alone is not enough to skip auth.test, so it is not passed
    ...(knowsIdentity ? { botId: options.botId as string, botUserId: options.botUserId as string } : {}),
    // auth.test waits for start(), and is skipped when the ids are known
    deferInitialization: true,
    tokenVerificationEnabled: !knowsIdentity,
    logger: boltLogger,
    convoStore: false,
    clientOptions: {
      ...(options.apiUrl === undefined ? {} : { slackApiUrl: options.apiUrl }),
      retryConfig: { retries: options.webApiRetries ?? 2 },
      // the notice queue waits out Retry-After itself; the SDK must not pause everything on its own
      rejectRateLimitedCalls: true,
    },
  });
  app.error(async (error) => {
    options.logger.error({ code: (error as { code?: unknown }).code, err: error.message }, 'Unhandled error in the Slack app');
  });

  const queue = createNoticeQueue({
    logger: options.logger,
    sleep: options.sleep ?? realSleep,
    ...(options.noticeQueueSize === undefined ? {} : { maxSize: options.noticeQueueSize }),
  });
  const notifier = createEscalationNotifier({
    client: app.client,
    queue,
    logger: options.logger,
    channel: options.escalationChannel,
    rendering: { permalinkOrigins: options.permalinkOrigins ?? [] },
  });
  const shared = { managerIds: [...options.managerIds], audit: options.audit, logger: options.logger, clock };
  registerSlashCommand(app, {
    ...shared,
    command: options.command,
    commands: options.commands,
    ...(options.helpAckBudgetMs === undefined ? {} : { ackBudgetMs: options.helpAckBudgetMs }),
  });
  registerNoticeButtons(app, { ...shared, bridge: options.bridge, notifier });

  let state: 'idle' | 'starting' | 'started' | 'stopped' = 'idle';
  async function listen(): Promise<{ port: number | null }> {
    await app.init();
    if (mode === 'socket') {
      await app.start();
      options.logger.info({ mode }, 'Slack app connected over Socket Mode');
      return { port: null };
    }
    const limits = options.limits ?? DEFAULT_SERVER_LIMITS;
    const server: Server = await app.start(
      { port: options.port, ...(options.host === undefined ? {} : { host: options.host }) },
      serverOptions(limits),
    );
    capConnections(server, limits);
    const port = (server.address() as AddressInfo).port;
    options.logger.info({ mode, port }, 'Slack app listening for slash commands and button clicks');
    return { port };
  }
  return {
    mode,
    notifier,
    flushNotices: () => queue.idle(),
    async start() {
      if (state !== 'idle') throw new Error(`The Slack app cannot start: it is ${state}`);
      state = 'starting';
      try {
        const bound = await listen();
        state = 'started';
        return bound;
      } catch (error) {
        state = 'idle';
        throw error;
      }
    },
    async stop() {
      queue.stop();
      const wasStarted = state === 'started';
      state = 'stopped';
      if (wasStarted) await app.stop();
    },
  };
}

function validate(options: SlackAppOptions): string[] {
  const problems: string[] = [];
  if (options.botToken.trim() === '') problems.push('the bot token (SLACK_BOT_TOKEN) is empty');
  const socket = options.appToken !== undefined && options.appToken !== '';
  if (!socket && (options.signingSecret === undefined || options.signingSecret === '')) {
    problems.push('SLACK_SIGNING_SECRET is required unless SLACK_APP_TOKEN selects Socket Mode');
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535)
    problems.push(`SLACK_PORT must be 0..65535, got ${options.port}`);
  if (!/^\/[a-z0-9_-]{1,31}$/.test(options.command)) problems.push(`the slash command must look like "/engage", got "${options.command}"`);
  return problems;
}
