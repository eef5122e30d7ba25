import { z } from 'zod';
import { isLoopbackHost } from '../engage/transport/base-url.js';
import { DEFAULT_CHANNEL_SERVICES_TEXT, parseChannelServices } from '../engage/channel-services.js';

/**
 * The one table of settings: name, schema (with its default), description and whether it is a secret.
 * The loader, the redacted log view, `--help` and the README's table all come from here.
 */
export interface SettingSpec {
  readonly name: string;
  readonly schema: z.ZodType;
  readonly description: string;
  readonly defaultText: string;
  readonly secret?: boolean;
}

import { CHANNELS } from '../shared/channels.js';
export { CHANNELS, type Channel } from '../shared/channels.js';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const commaList = z.string().transform((s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x.length > 0),
);
const idList = commaList.pipe(z.array(z.string().regex(/^[A-Za-z0-9_-]+$/, 'ids are letters, digits, _ or -')));
const optionalText = z.string().trim().min(1).optional();
/** Words of example files and tutorials: a secret containing one was copied, not generated. */
const PLACEHOLDER =
  /change[-_ ]?me|placeholder|replace[-_ ]?(me|this|with)|your[-_ ]?(webhook[-_ ]?)?secret|example|x{8}|0{8}|12345678|abcdefgh/i;
/** An address that carries a token or customers' words: HTTPS unless loopback (the Engage client's rule). */
const secureUrl = z
  .url({ protocol: /^https?$/ })
  .refine((v) => v.startsWith('https:') || isLoopbackHost(new URL(v).hostname), 'must use https:// for a host that is not loopback');
const msSetting = (min: number, max: number, fallback: number) => int(min, max).default(fallback);

function setting<N extends string, S extends z.ZodType>(
  name: N,
  schema: S,
  defaultText: string,
  description: string,
  secret = false,
): { readonly name: N; readonly schema: S; readonly defaultText: string; readonly description: string; readonly secret: boolean } {
  return { name, schema, defaultText, description, secret };
}

export const SETTINGS = [
  setting(
    'ENGAGE_BASE_URL',
    z.url({ protocol: /^https?$/ }).default('https://api.engagor.com'),
    '`https://api.engagor.com` (demo: the embedded simulator)',
    'API base address',
  ),
  setting('ENGAGE_ACCOUNT_ID', optionalText, '(demo: the seeded account)', 'the account to serve'),
  setting('ENGAGE_ACCESS_TOKEN', optionalText, 'none → demo mode', 'OAuth access token', true),
  setting(
    'ENGAGE_API_VERSION',
    z
      .string()
      .regex(/^\d{8}$/, 'a date like 20210601')
      .default('20210601'),
    '`20210601`',
    '`version` parameter',
  ),
  setting('ENGAGE_TOPIC_IDS', idList.optional(), 'all topics of the account', 'comma list of topics to watch'),
  setting(
    'ENGAGE_CHANNELS',
    commaList.pipe(z.array(z.enum(CHANNELS)).min(1)).default([...CHANNELS]),
    '`web,whatsapp,viber,twilio`',
    'channels the bot serves',
  ),
  setting(
    'ENGAGE_CHANNEL_SERVICES',
    z
      .string()
      .default(DEFAULT_CHANNEL_SERVICES_TEXT)
      .transform((text, ctx) => {
        const parsed = parseChannelServices(text);
        if (parsed.ok) return parsed.value;
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }),
    `\`${DEFAULT_CHANNEL_SERVICES_TEXT}\``,
    "each channel's `{service}` in handover paths and its mention `source.service`: `channel=service` (both), or `channel=handover/source`; channels not named keep the default",
  ),
  setting(
    'ENGAGE_REQUEST_TIMEOUT_MS',
    int(100, 300_000).default(15_000),
    '`15000`',
    'timeout of one API request, whole (waiting for the answer and reading it)',
  ),
  setting(
    'ENGAGE_RATE_LIMIT_PER_HOUR',
    int(0, 10_000_000).default(0),
    "`0` (only the service's headers)",
    'client-side API call budget per hour; calls beyond it wait (queued, never dropped) and polling slows to use at most half of it',
  ),
  setting(
    'BRIDGE_DATA_DIR',
    z.string().min(1).default('./data'),
    '`./data`',
    'where the embedded store keeps its file, `bridge.db` (SQLite)',
  ),
  setting(
    'BRIDGE_DATABASE_URL',
    z
      .string()
      .trim()
      .regex(/^postgres(ql)?:\/\//, 'a postgres:// URL')
      .optional(),
    'none (the embedded SQLite store)',
    "puts the store on PostgreSQL (`postgres://user:pass@host/db?sslmode=verify-full`: TLS that checks the server's certificate and name; add `sslrootcert=/path/ca.pem` for a private CA); several instances may share it, one active. A warning at start when it says `sslmode=no-verify`, or a database off this machine is reached without `verify-ca`/`verify-full`",
    true,
  ),
  setting(
    'BRIDGE_COMMIT_WINDOW_MS',
    int(0, 1000).optional(),
    'SQLite `20`, PostgreSQL `55`',
    "how long the store's transaction stays open after its first write before it commits: the writes of every conversation in that window share one commit (one sync of the disk, and the pages they share written once), and a reply waits up to that long for its decision to be durable. `0`: commit on the next turn of the event loop (more syncs, more bytes written per answer)",
  ),
  setting(
    'BRIDGE_LEASE_TTL_MS',
    int(1000, 600_000).default(10_000),
    '`10000`',
    "with PostgreSQL: how long the active instance's lease lasts unrenewed (renewed every third of it); a standby takes over within about four thirds of it plus loading the state (≈ 14 s by default)",
  ),
  setting('BRIDGE_POLL_INTERVAL_MS', int(100, 3_600_000).default(2000), '`2000`', 'mention polling period'),
  setting(
    'BRIDGE_LOOKBACK_SECONDS',
    int(0, 86_400).default(120),
    '`120`',
    'how far each poll reaches back before its cursor, so late-indexed mentions and timestamp ties are not missed',
  ),
  setting(
    'BRIDGE_BACKFILL_MINUTES',
    int(0, 10_080).default(0),
    '`0`',
    'on the very first start, also answer what the inbox shows from this many minutes before its newest mention (the rest of what it shows is history, never answered)',
  ),
  setting('BRIDGE_HTTP_HOST', z.string().min(1).default('0.0.0.0'), '`0.0.0.0`', "address the bridge's HTTP server binds"),
  setting('BRIDGE_HTTP_PORT', int(0, 65_535).default(3000), '`3000`', 'health, metrics and webhook server (`0` = any free port)'),
  setting(
    'BRIDGE_WEBHOOK_SECRET',
    z
      .string()
      .trim()
      .min(32, 'must be at least 32 characters (e.g. `openssl rand -hex 32`)')
      .refine(
        (v) => new Set(v).size >= 8 && !/^(.{1,16})\1+$/s.test(v),
        'is too regular (a repeated character or pattern): use e.g. `openssl rand -hex 32`',
      )
      .refine((v) => !PLACEHOLDER.test(v), 'looks like a placeholder from an example: use e.g. `openssl rand -hex 32`')
      .optional(),
    'none (webhook disabled)',
    'secret required on the webhook, at least 32 characters; send it in an `X-Webhook-Secret` header (or in the path)',
    true,
  ),
  setting(
    'BRIDGE_HTTP_HEADERS_TIMEOUT_MS',
    msSetting(100, 300_000, 10_000),
    '`10000`',
    'on both HTTP ports (bridge and Slack): a client that has not sent its headers by then is disconnected',
  ),
  setting(
    'BRIDGE_HTTP_REQUEST_TIMEOUT_MS',
    msSetting(100, 600_000, 30_000),
    '`30000`',
    'on both HTTP ports: a client that has not sent its whole request by then is disconnected',
  ),
  setting(
    'BRIDGE_HTTP_MAX_CONNECTIONS',
    int(1, 100_000).default(512),
    '`512`',
    'open connections each HTTP port accepts; past it new ones are closed',
  ),
  setting(
    'BRIDGE_METRICS_HOST',
    z.enum(['loopback', 'any']).default('loopback'),
    '`loopback` (`any` in the Docker image)',
    '`loopback`: `/metrics` answers only callers on 127.0.0.1/::1 (others get 404); `any`: every caller that reaches `BRIDGE_HTTP_PORT`',
  ),
  setting(
    'LOG_CUSTOMER_IDS',
    z.enum(['pseudonymised', 'clear']).default('pseudonymised'),
    '`pseudonymised`',
    'contact ids and phone numbers in log lines: a keyed hash stable within a deployment (`c-…`), or `clear` while debugging',
  ),
  setting(
    'BRIDGE_FLOW_FILE',
    optionalText,
    '`./config/flows.yaml` if it exists, else the flows shipped with the package',
    "the bot's conversation flows (`.yaml` or `.json`)",
  ),
  setting('BRIDGE_BUSINESS_HOURS_SCHEDULE', optionalText, 'first schedule of the account', 'schedule id or name used for escalations'),
  setting(
    'BRIDGE_OWNER_CONFIRM_AGE_MS',
    int(0, 86_400_000).default(30_000),
    '`30000`',
    'a cached owner older than this is re-confirmed with GET handover before the bot speaks',
  ),
  setting(
    'BRIDGE_ON_STOP',
    z.enum(['keep', 'agents']).default('keep'),
    '`keep`',
    '`agents`: on a graceful stop, contacts the bot holds whose customer wrote in the last hour are handed to people with a note saying why (`engage-bridge release` does the same by hand)',
  ),
  setting(
    'BRIDGE_MODE',
    z.enum(['live', 'shadow']).default('live'),
    '`live`',
    '`shadow`: the bridge reads and decides as usual but sends, claims and updates nothing; `status` and the `shadow` command show what it would have done (also `start --shadow`)',
  ),
  setting(
    'BRIDGE_AGENTS_RECONFIRM_AGE_MS',
    int(0, 86_400_000).default(0),
    '`0`',
    'a customer message on a contact believed held by people re-confirms the owner with GET handover when that belief is older than this, so a hand-back in the service tool is answered at once (one GET per round of such messages at `0`); a larger value saves those GETs, but a message written within that time after a hand-back is left to people until the reconcile pass notices the hand-back (a minute or more)',
  ),
  setting(
    'BRIDGE_IDLE_RETURN_MINUTES',
    int(0, 43_200).default(60),
    '`60`',
    'return a contact to the bot after this long since a person last acted on it (on the bridge clock; a contact nobody has answered since it went to people stays with them) (`0` = never)',
  ),
  setting(
    'BRIDGE_MAX_REPLY_AGE_MINUTES',
    int(0, 43_200).default(60),
    '`60`',
    "a customer message older than this (on the service's clock, after downtime) is not answered as if live: one apology turn for the backlog, or people, as the flows' `conversation.late_reply` says (`0` = no limit)",
  ),
  setting(
    'BRIDGE_STUCK_ESCALATION_MINUTES',
    int(0, 43_200).default(15),
    '`15`',
    'announce an escalation nobody has picked up after this long (`0` = never)',
  ),
  setting(
    'BRIDGE_MAX_CONCURRENT_CONTACTS',
    int(1, 1000).default(32),
    '`32`',
    'how many contacts are processed at the same time (each contact stays in order)',
  ),
  setting('BRIDGE_TRANSCRIPT_LINES', int(5, 1000).default(50), '`50`', 'transcript lines kept per conversation'),
  setting(
    'BRIDGE_SHUTDOWN_DEADLINE_MS',
    int(1000, 600_000).default(8000),
    '`8000`',
    'on SIGTERM/SIGINT the bridge is gone within this long: API requests still in flight near the end are cut off and tried again at the next start (Docker waits 10 s, Kubernetes 30 s)',
  ),
  setting('BRIDGE_SEEN_RETENTION_DAYS', int(1, 3650).default(14), '`14`', 'how long handled mention ids are remembered'),
  setting(
    'BRIDGE_AUDIT_RETENTION_DAYS',
    int(1, 3650).default(90),
    '`90`',
    'how long audit entries are kept (survey answers: `BRIDGE_SURVEY_RETENTION_DAYS`)',
  ),
  setting('BRIDGE_ARCHIVE_AFTER_DAYS', int(1, 3650).default(30), '`30`', 'conversations inactive this long move out of the hot store'),
  setting(
    'BRIDGE_TRANSCRIPT_RETENTION_DAYS',
    int(1, 3650).default(90),
    '`90`',
    'transcript lines older than this are deleted from the conversations (daily, and at start); the conversation stays',
  ),
  setting(
    'BRIDGE_ARCHIVE_RETENTION_DAYS',
    int(1, 3650).default(60),
    '`60`',
    'an archived conversation (transcript and dialog state included) is deleted this long after it was archived',
  ),
  setting(
    'BRIDGE_SURVEY_RETENTION_DAYS',
    int(1, 3650).default(90),
    '`90`',
    "how long customers' survey (CSAT/NPS) answers are kept, whatever `BRIDGE_AUDIT_RETENTION_DAYS` says",
  ),
  setting(
    'BRIDGE_STORE_ENGINE',
    z
      .enum(['sqlite'], {
        error: (issue) =>
          issue.input === 'file'
            ? 'the journal store (`file`) was removed: the embedded store is SQLite (`bridge.db`), and a data directory the journal store wrote is imported into it at the first start; remove BRIDGE_STORE_ENGINE'
            : 'the only embedded store is `sqlite`',
      })
      .default('sqlite'),
    '`sqlite`',
    'the embedded store (without `BRIDGE_DATABASE_URL`): one SQLite file `bridge.db` in `BRIDGE_DATA_DIR` (built-in `node:sqlite`, WAL, `synchronous=FULL`); a directory the journal store of 0.1 wrote is imported once, its files kept in `journal-store-backup/`. `file` (the journal store) was removed and is refused with that explanation',
  ),
  setting(
    'BRIDGE_NLU_URL',
    secureUrl.optional(),
    'none (the embedded NLU only)',
    'NLU server with the Rasa HTTP API (`POST /model/parse`), asked before the embedded NLU; the flows map its intents',
    // It may carry credentials (user:password@ or Rasa's ?token=).
    true,
  ),
  setting('BRIDGE_NLU_TIMEOUT_MS', int(20, 10_000).default(300), '`300`', 'time budget of one NLU request; slower answers are ignored'),
  setting('BRIDGE_NLU_BREAKER_FAILURES', int(1, 100).default(3), '`3`', 'NLU failures in a row that stop asking it for a while'),
  setting('BRIDGE_NLU_BREAKER_OPEN_MS', int(1_000, 3_600_000).default(30_000), '`30000`', 'how long the NLU is not asked after that'),
  setting('SLACK_BOT_TOKEN', optionalText, 'none → Slack disabled', 'Slack bot token', true),
  setting('SLACK_SIGNING_SECRET', optionalText, '', 'verifies Slack requests (HTTP mode)', true),
  setting('SLACK_APP_TOKEN', optionalText, 'none', 'when set, Socket Mode instead of HTTP', true),
  setting('SLACK_BOT_ID', optionalText, 'none', 'with `SLACK_BOT_USER_ID`: no `auth.test` call at start-up'),
  setting('SLACK_BOT_USER_ID', optionalText, 'none', 'with `SLACK_BOT_ID`: no `auth.test` call at start-up'),
  setting(
    'SLACK_HTTP_HOST',
    z.string().min(1).default('0.0.0.0'),
    '`0.0.0.0`',
    'address the Slack HTTP receiver binds (`127.0.0.1` behind a proxy on the same host)',
  ),
  setting('SLACK_PORT', int(0, 65_535).default(3001), '`3001`', 'Slack HTTP receiver port (`0` = any free port)'),
  setting(
    'SLACK_MAX_BODY_BYTES',
    int(1024, 4_194_304).default(262_144),
    '`262144`',
    'largest Slack request body taken; a bigger one is refused (413) while it is read, before its signature is checked',
  ),
  setting('SLACK_API_URL', secureUrl.optional(), "Slack's", 'Web API base address (tests and proxies)'),
  setting('SLACK_ESCALATION_CHANNEL', optionalText, 'none', 'channel id for escalation notices'),
  setting('SLACK_MANAGER_IDS', idList.default([]), 'none (nobody)', 'comma list of Slack user ids allowed to run manager commands'),
  setting(
    'SLACK_COMMAND',
    z
      .string()
      .regex(/^\/[a-z0-9_-]+$/, 'a slash command like /engage')
      .default('/engage'),
    '`/engage`',
    "the slash command's name",
  ),
  setting('LOG_LEVEL', z.enum(['debug', 'info', 'warn', 'error']).default('info'), '`info`', '`debug`, `info`, `warn`, `error`'),
] as const satisfies readonly SettingSpec[];

type Table = typeof SETTINGS;
/** The raw settings keyed by their variable names, as validated. */
export type RawSettings = { [K in Table[number] as K['name']]: z.output<K['schema']> };

export const SETTINGS_SCHEMA = z.object(
  Object.fromEntries(SETTINGS.map((s) => [s.name, s.schema])) as { [K in Table[number] as K['name']]: K['schema'] },
);

export const SECRET_SETTINGS: readonly string[] = SETTINGS.filter((s) => s.secret).map((s) => s.name);
