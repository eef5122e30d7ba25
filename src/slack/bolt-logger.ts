import { LogLevel, type Logger } from '@slack/bolt';
import type { SlackLogger } from './ports.js';

const ORDER: readonly LogLevel[] = [LogLevel.DEBUG, LogLevel.INFO, LogLevel.WARN, LogLevel.ERROR];
// Slack tokens (bot, user, app, config) are never written, whatever Bolt decides to log.
const TOKEN = /xox[a-z]-[A-Za-z0-9-]+|xapp-[A-Za-z0-9-]+/g;

export function redactSlackTokens(text: string): string {
  return text.replace(TOKEN, '[redacted]');
}

function render(parts: unknown[]): string {
  const text = parts
    .map((part) => (part instanceof Error ? `${part.name}: ${part.message}` : typeof part === 'string' ? part : safeJson(part)))
    .join(' ');
  return redactSlackTokens(text).slice(0, 2000);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Bolt's logger interface on top of ours, quieter by default: Bolt is chatty at info. */
export function toBoltLogger(logger: SlackLogger, initial: LogLevel = LogLevel.WARN): Logger {
  let level = initial;
  let name = 'bolt';
  const enabled = (at: LogLevel): boolean => ORDER.indexOf(at) >= ORDER.indexOf(level);
  return {
    debug: (...msg: unknown[]) => enabled(LogLevel.DEBUG) && logger.debug({ component: name }, render(msg)),
    info: (...msg: unknown[]) => enabled(LogLevel.INFO) && logger.info({ component: name }, render(msg)),
    warn: (...msg: unknown[]) => enabled(LogLevel.WARN) && logger.warn({ component: name }, render(msg)),
    error: (...msg: unknown[]) => enabled(LogLevel.ERROR) && logger.error({ component: name }, render(msg)),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: (next: string) => {
      name = next;
    },
  };
}
