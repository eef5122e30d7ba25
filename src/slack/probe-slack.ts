import { LogLevel, webApi, type Logger } from '@slack/bolt';
import { redactSlackTokens } from './bolt-logger.js';

export interface SlackProbeOptions {
  readonly token: string;
  /** Web API base address (`SLACK_API_URL`); default Slack's. */
  readonly apiUrl?: string;
  /** A channel id to look up (`SLACK_ESCALATION_CHANNEL`). */
  readonly channel?: string;
  readonly timeoutMs?: number;
}

/** `error` is Slack's error code (`invalid_auth`, `channel_not_found`, ...) or a transport failure. */
export type SlackProbeFailure = { readonly ok: false; readonly error: string };

export type SlackAuthResult =
  | { readonly ok: true; readonly team?: string; readonly user?: string; readonly botId?: string }
  | SlackProbeFailure;

export type SlackChannelResult =
  | { readonly ok: true; readonly name?: string; readonly isMember?: boolean; readonly isArchived?: boolean }
  | SlackProbeFailure;

export interface SlackProbeResult {
  readonly auth: SlackAuthResult;
  /** Absent when no channel was asked for, or when the token itself failed. */
  readonly channel?: SlackChannelResult;
}

// A one-shot check must answer now: no retries, no waiting out a rate limit, and nothing on the console.
const silentLogger = (): Logger => {
  let level = LogLevel.ERROR;
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
};

/** Slack's error code for a failed call, without the token or the request. */
function errorCode(err: unknown): string {
  const e = err as {
    code?: string;
    data?: { error?: string };
    statusCode?: number;
    original?: { message?: string; cause?: { code?: string; message?: string } };
  };
  switch (e.code) {
    case 'slack_webapi_platform_error':
      return e.data?.error ?? 'unknown_error';
    case 'slack_webapi_rate_limited_error':
      return 'ratelimited';
    case 'slack_webapi_http_error':
      return `http_${e.statusCode ?? 'error'}`;
    case 'slack_webapi_request_error':
      // fetch says only "fetch failed"; the cause's code (ECONNREFUSED, ENOTFOUND) is what tells what to fix.
      return `request_failed: ${redactSlackTokens(e.original?.cause?.code ?? e.original?.cause?.message ?? e.original?.message ?? 'no answer')}`;
    default:
      return `request_failed: ${redactSlackTokens((err as Error).message ?? String(err))}`;
  }
}

/** Calls `auth.test`, then `conversations.info` for the channel when one is given. */
export async function probeSlack(options: SlackProbeOptions): Promise<SlackProbeResult> {
  const client = new webApi.WebClient(options.token, {
    ...(options.apiUrl === undefined ? {} : { slackApiUrl: options.apiUrl }),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: options.timeoutMs ?? 10_000,
    logger: silentLogger(),
  });
  let auth: SlackAuthResult;
  try {
    const answer = await client.auth.test();
    auth = {
      ok: true,
      ...(answer.team === undefined ? {} : { team: answer.team }),
      ...(answer.user === undefined ? {} : { user: answer.user }),
      ...(answer.bot_id === undefined ? {} : { botId: answer.bot_id }),
    };
  } catch (err) {
    return { auth: { ok: false, error: errorCode(err) } };
  }
  if (options.channel === undefined) return { auth };
  try {
    const answer = await client.conversations.info({ channel: options.channel });
    const c = answer.channel;
    return {
      auth,
      channel: {
        ok: true,
        ...(c?.name === undefined ? {} : { name: c.name }),
        ...(c?.is_member === undefined ? {} : { isMember: c.is_member }),
        ...(c?.is_archived === undefined ? {} : { isArchived: c.is_archived }),
      },
    };
  } catch (err) {
    return { auth, channel: { ok: false, error: errorCode(err) } };
  }
}
