import { readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { describeJsonError, describeYamlError, lineOfKey } from './settings/describe-parse-error.js';
import { parse as parseYaml } from 'yaml';
import type { ChannelServices } from './engage/channel-services.js';
import type { ServerLimits } from './http/server-limits.js';
import { SETTINGS, SETTINGS_SCHEMA, SECRET_SETTINGS, type RawSettings, type Channel } from './settings/settings-table.js';

export { SETTINGS, type Channel } from './settings/settings-table.js';

/** Settings, grouped and named with their units. The only place that reads `process.env` is `readConfigSources`. */
export interface Config {
  readonly demo: boolean;
  readonly engage: {
    readonly baseUrl: string;
    readonly accountId: string | undefined;
    readonly accessToken: string | undefined;
    readonly apiVersion: string;
    readonly topicIds: readonly string[] | undefined;
    readonly channels: readonly Channel[];
    /** Each channel's handover `{service}` and mention `source.service` (ENGAGE_CHANNEL_SERVICES). */
    readonly channelServices: ChannelServices;
    readonly requestTimeoutMs: number;
    readonly rateLimitPerHour: number;
  };
  readonly bridge: {
    readonly dataDir: string;
    readonly databaseUrl: string | undefined;
    /** BRIDGE_COMMIT_WINDOW_MS as set; unset, each store's own default (SQLite 20 ms, PostgreSQL 55 ms). */
    readonly commitWindowMs: number | undefined;
    readonly leaseTtlMs: number;
    readonly pollIntervalMs: number;
    readonly lookbackSeconds: number;
    readonly backfillMinutes: number;
    readonly httpHost: string;
    readonly httpPort: number;
    /** Timeouts and connection cap of both HTTP ports (bridge and Slack). */
    readonly httpLimits: ServerLimits;
    /** `loopback`: `/metrics` answers loopback callers only. */
    readonly metricsHost: 'loopback' | 'any';
    readonly webhookSecret: string | undefined;
    /** BRIDGE_FLOW_FILE as set; `locateFlowFile` picks the default. */
    readonly flowFile: string | undefined;
    readonly businessHoursSchedule: string | undefined;
    readonly ownerConfirmAgeMs: number;
    readonly agentsReconfirmAgeMs: number;
    readonly onStop: 'keep' | 'agents';
    /** BRIDGE_MODE: `shadow` reads and decides but writes nothing to the service (a tally instead). */
    readonly mode: 'live' | 'shadow';
    readonly idleReturnMinutes: number;
    readonly maxReplyAgeMinutes: number;
    readonly stuckEscalationMinutes: number;
    readonly maxConcurrentContacts: number;
    readonly transcriptLines: number;
    readonly seenRetentionDays: number;
    readonly auditRetentionDays: number;
    readonly archiveAfterDays: number;
    /** Retention of transcript lines, archived conversations and survey answers (`Store.applyRetention`). */
    readonly transcriptRetentionDays: number;
    readonly archiveRetentionDays: number;
    readonly surveyRetentionDays: number;
    readonly shutdownDeadlineMs: number;
  };
  readonly nlu: {
    readonly url: string | undefined;
    readonly timeoutMs: number;
    readonly breakerFailures: number;
    readonly breakerOpenMs: number;
  };
  readonly slack: {
    readonly botToken: string | undefined;
    readonly signingSecret: string | undefined;
    readonly appToken: string | undefined;
    readonly botId: string | undefined;
    readonly botUserId: string | undefined;
    readonly host: string;
    readonly port: number;
    readonly maxBodyBytes: number;
    readonly apiUrl: string | undefined;
    readonly escalationChannel: string | undefined;
    readonly managerIds: readonly string[];
    readonly command: string;
  };
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** Contact ids and phone numbers in log lines: pseudonymised (default) or in clear (debugging). */
  readonly logCustomerIds: 'pseudonymised' | 'clear';
  /** The secret values in force, so that the logger can scrub them from any line. */
  readonly secrets: readonly string[];
}

export class ConfigError extends Error {
  readonly code = 'config';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export interface ConfigSources {
  /** The process environment (wins over every file). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Text of a `.env` file, if one is present. */
  readonly dotenv?: { readonly text: string; readonly file: string };
  /** Parsed settings file (`config/settings.yaml|json` or `--config FILE`); `text` lets errors name a line. */
  readonly file?: { readonly values: unknown; readonly file: string; readonly text?: string };
}

const KNOWN = new Set<string>(SETTINGS.map((s) => s.name));

/** Validates every setting at once; throws ConfigError listing each invalid key with what is wrong. */
export function parseConfig(sources: ConfigSources): Config {
  const problems: string[] = [];
  const merged: Record<string, string> = {};
  // Where each value came from, so that a problem names the file and line instead of showing the value.
  const origin: Record<string, string> = {};
  const where = (file: string, text: string | undefined, key: string) => {
    const line = text === undefined ? undefined : lineOfKey(text, key);
    return line === undefined ? file : `${file} line ${line}`;
  };
  if (sources.file) {
    const values = sources.file.values;
    if (values === null || values === undefined) {
      // an empty file sets nothing
    } else if (typeof values !== 'object' || Array.isArray(values)) {
      problems.push(`${sources.file.file}: expected a mapping of setting names to values`);
    } else {
      const { file, text } = sources.file;
      for (const [key, value] of Object.entries(values)) {
        // A key is echoed only when it looks like a setting name: a token pasted in the wrong place is not.
        const named = /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(key) ? key : 'a key that is not a setting name';
        if (!KNOWN.has(key)) problems.push(`${where(file, text, key)}: ${named}: unknown setting`);
        else if (value === null || value === undefined) continue;
        else if (Array.isArray(value)) merged[key] = value.map(String).join(',');
        else if (typeof value === 'object') problems.push(`${where(file, text, key)}: ${key}: expected a text, number or list`);
        else merged[key] = String(value);
        if (KNOWN.has(key)) origin[key] = where(file, text, key);
      }
    }
  }
  if (sources.dotenv) {
    let parsed: Record<string, string> = {};
    try {
      parsed = parseEnv(sources.dotenv.text) as Record<string, string>;
    } catch {
      // node's message quotes the line it could not read, which may hold a token
      problems.push(`${sources.dotenv.file}: cannot be read as a .env file`);
    }
    for (const [key, value] of Object.entries(parsed)) {
      if (!KNOWN.has(key)) continue;
      merged[key] = value;
      origin[key] = where(sources.dotenv.file, sources.dotenv.text, key);
    }
  }
  for (const name of KNOWN) {
    const value = sources.env[name];
    if (value === undefined) continue;
    merged[name] = value;
    origin[name] = 'the environment';
  }
  // An empty value means "not set", as shells and .env files commonly write it.
  for (const [key, value] of Object.entries(merged)) if (value.trim() === '') delete merged[key];

  const result = SETTINGS_SCHEMA.safeParse(merged);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const key = String(issue.path[0] ?? '(settings)');
      problems.push(`${key}: ${issue.message}${origin[key] ? ` (set in ${origin[key]})` : ''}`);
    }
  }
  if (problems.length > 0 || !result.success) throw new ConfigError(problems);
  return toConfig(result.data as RawSettings);
}

function toConfig(s: RawSettings): Config {
  const secrets = SECRET_SETTINGS.map((name) => (s as Record<string, unknown>)[name]).filter(
    (v): v is string => typeof v === 'string' && v.length > 0,
  );
  return {
    demo: s.ENGAGE_ACCESS_TOKEN === undefined,
    engage: {
      baseUrl: s.ENGAGE_BASE_URL.replace(/\/+$/, ''),
      accountId: s.ENGAGE_ACCOUNT_ID,
      accessToken: s.ENGAGE_ACCESS_TOKEN,
      apiVersion: s.ENGAGE_API_VERSION,
      topicIds: s.ENGAGE_TOPIC_IDS,
      channels: s.ENGAGE_CHANNELS,
      channelServices: s.ENGAGE_CHANNEL_SERVICES,
      requestTimeoutMs: s.ENGAGE_REQUEST_TIMEOUT_MS,
      rateLimitPerHour: s.ENGAGE_RATE_LIMIT_PER_HOUR,
    },
    bridge: {
      dataDir: s.BRIDGE_DATA_DIR,
      databaseUrl: s.BRIDGE_DATABASE_URL,
      commitWindowMs: s.BRIDGE_COMMIT_WINDOW_MS,
      leaseTtlMs: s.BRIDGE_LEASE_TTL_MS,
      pollIntervalMs: s.BRIDGE_POLL_INTERVAL_MS,
      lookbackSeconds: s.BRIDGE_LOOKBACK_SECONDS,
      backfillMinutes: s.BRIDGE_BACKFILL_MINUTES,
      httpHost: s.BRIDGE_HTTP_HOST,
      httpPort: s.BRIDGE_HTTP_PORT,
      httpLimits: {
        headersTimeoutMs: s.BRIDGE_HTTP_HEADERS_TIMEOUT_MS,
        requestTimeoutMs: s.BRIDGE_HTTP_REQUEST_TIMEOUT_MS,
        maxConnections: s.BRIDGE_HTTP_MAX_CONNECTIONS,
      },
      metricsHost: s.BRIDGE_METRICS_HOST,
      webhookSecret: s.BRIDGE_WEBHOOK_SECRET,
      flowFile: s.BRIDGE_FLOW_FILE,
      businessHoursSchedule: s.BRIDGE_BUSINESS_HOURS_SCHEDULE,
      ownerConfirmAgeMs: s.BRIDGE_OWNER_CONFIRM_AGE_MS,
      agentsReconfirmAgeMs: s.BRIDGE_AGENTS_RECONFIRM_AGE_MS,
      onStop: s.BRIDGE_ON_STOP,
      mode: s.BRIDGE_MODE,
      idleReturnMinutes: s.BRIDGE_IDLE_RETURN_MINUTES,
      maxReplyAgeMinutes: s.BRIDGE_MAX_REPLY_AGE_MINUTES,
      stuckEscalationMinutes: s.BRIDGE_STUCK_ESCALATION_MINUTES,
      maxConcurrentContacts: s.BRIDGE_MAX_CONCURRENT_CONTACTS,
      transcriptLines: s.BRIDGE_TRANSCRIPT_LINES,
      seenRetentionDays: s.BRIDGE_SEEN_RETENTION_DAYS,
      auditRetentionDays: s.BRIDGE_AUDIT_RETENTION_DAYS,
      archiveAfterDays: s.BRIDGE_ARCHIVE_AFTER_DAYS,
      transcriptRetentionDays: s.BRIDGE_TRANSCRIPT_RETENTION_DAYS,
      archiveRetentionDays: s.BRIDGE_ARCHIVE_RETENTION_DAYS,
      surveyRetentionDays: s.BRIDGE_SURVEY_RETENTION_DAYS,
      shutdownDeadlineMs: s.BRIDGE_SHUTDOWN_DEADLINE_MS,
    },
    nlu: {
      url: s.BRIDGE_NLU_URL,
      timeoutMs: s.BRIDGE_NLU_TIMEOUT_MS,
      breakerFailures: s.BRIDGE_NLU_BREAKER_FAILURES,
      breakerOpenMs: s.BRIDGE_NLU_BREAKER_OPEN_MS,
    },
    slack: {
      botToken: s.SLACK_BOT_TOKEN,
      signingSecret: s.SLACK_SIGNING_SECRET,
      appToken: s.SLACK_APP_TOKEN,
      botId: s.SLACK_BOT_ID,
      botUserId: s.SLACK_BOT_USER_ID,
      host: s.SLACK_HTTP_HOST,
      port: s.SLACK_PORT,
      maxBodyBytes: s.SLACK_MAX_BODY_BYTES,
      apiUrl: s.SLACK_API_URL,
      escalationChannel: s.SLACK_ESCALATION_CHANNEL,
      managerIds: s.SLACK_MANAGER_IDS,
      command: s.SLACK_COMMAND,
    },
    logLevel: s.LOG_LEVEL,
    logCustomerIds: s.LOG_CUSTOMER_IDS,
    secrets,
  };
}

/** A copy of the configuration that is safe to log: every secret replaced by whether it is set. */
export function redactedConfig(config: Config): Record<string, unknown> {
  const mark = (v: string | undefined) => (v === undefined ? undefined : '[set]');
  const { secrets: _secrets, ...rest } = config;
  return {
    ...rest,
    engage: { ...config.engage, accessToken: mark(config.engage.accessToken) },
    bridge: { ...config.bridge, webhookSecret: mark(config.bridge.webhookSecret) },
    slack: {
      ...config.slack,
      botToken: mark(config.slack.botToken),
      signingSecret: mark(config.slack.signingSecret),
      appToken: mark(config.slack.appToken),
    },
  };
}

const FILE_CANDIDATES = ['config/settings.yaml', 'config/settings.yml', 'config/settings.json'];

/** Reads the sources from the process: environment, `.env` in the working directory, the settings file. */
export function readConfigSources(options: { cwd?: string; configFile?: string; env?: NodeJS.ProcessEnv } = {}): ConfigSources {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const dotenvPath = resolve(cwd, '.env');
  const dotenv = existsSync(dotenvPath) ? { text: readFileSync(dotenvPath, 'utf8'), file: dotenvPath } : undefined;
  const filePath = options.configFile
    ? resolve(cwd, options.configFile)
    : FILE_CANDIDATES.map((f) => resolve(cwd, f)).find((f) => existsSync(f));
  let file: ConfigSources['file'];
  if (filePath) {
    let text: string;
    try {
      text = readFileSync(filePath, 'utf8');
    } catch (err) {
      throw new ConfigError([`${filePath}: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`]);
    }
    const json = filePath.endsWith('.json');
    try {
      file = { values: json ? JSON.parse(text) : parseYaml(text), file: filePath, text };
    } catch (err) {
      const problem = json ? describeJsonError(err, text) : describeYamlError(err);
      throw new ConfigError([`${filePath}${problem.startsWith('line') ? ' ' : ': '}${problem}`]);
    }
  }
  return { env, ...(dotenv ? { dotenv } : {}), ...(file ? { file } : {}) };
}

/** Reads and validates the configuration of this process. */
export function loadConfig(options: { cwd?: string; configFile?: string; env?: NodeJS.ProcessEnv } = {}): Config {
  return parseConfig(readConfigSources(options));
}
