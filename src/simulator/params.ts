import { invalidParameter } from './sim-error.js';

/** Request parameters (query merged with form body) with typed, validating readers. */
export class Params {
  constructor(readonly values: Readonly<Record<string, string>>) {}

  has(name: string): boolean {
    return Object.hasOwn(this.values, name);
  }

  str(name: string): string | undefined {
    return this.has(name) ? this.values[name] : undefined;
  }

  required(name: string): string {
    const value = this.str(name);
    if (value === undefined || value === '') throw invalidParameter(`Missing required parameter '${name}'`);
    return value;
  }

  /** A JSON-encoded parameter; text that does not parse is a 400. */
  json(name: string, required = false): unknown {
    const text = required ? this.required(name) : this.str(name);
    if (text === undefined || text === '') return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw invalidParameter(`Parameter '${name}' must be a JSON text`);
    }
  }

  jsonObject(name: string, required = false): Record<string, unknown> | undefined {
    const value = this.json(name, required);
    if (value === undefined) return undefined;
    if (!isPlainObject(value)) throw invalidParameter(`Parameter '${name}' must be a JSON object`);
    return value;
  }

  jsonArray(name: string, required = false): unknown[] | undefined {
    const value = this.json(name, required);
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) throw invalidParameter(`Parameter '${name}' must be a JSON array`);
    return value;
  }

  int(name: string, min: number, max: number, fallback: number): number {
    const text = this.str(name);
    if (text === undefined || text === '') return fallback;
    if (!/^-?\d+$/.test(text)) throw invalidParameter(`Parameter '${name}' must be an integer`);
    const n = Number(text);
    if (n < min || n > max) throw invalidParameter(`Parameter '${name}' must be between ${min} and ${max}`);
    return n;
  }

  /** Comma-separated topic ids. */
  idList(name: string): number[] | undefined {
    const text = this.str(name);
    if (text === undefined || text.trim() === '') return undefined;
    return text.split(',').map((part) => {
      const t = part.trim();
      if (!/^\d+$/.test(t)) throw invalidParameter(`Parameter '${name}' must be a comma-separated list of ids`);
      return Number(t);
    });
  }

  /** An ISO 8601 date (or UNIX seconds) as UNIX seconds. */
  date(name: string): number | undefined {
    const text = this.str(name);
    if (text === undefined || text === '') return undefined;
    if (/^\d{1,12}$/.test(text)) return Number(text);
    if (!/^\d{4}-\d{2}-\d{2}/.test(text)) throw invalidParameter(`Parameter '${name}' must be an ISO 8601 date`);
    const ms = Date.parse(text);
    if (Number.isNaN(ms)) throw invalidParameter(`Parameter '${name}' must be an ISO 8601 date`);
    return Math.floor(ms / 1000);
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Rejects keys outside `allowed` (unknown keys inside `updates` / `options` are a 400). */
export function assertKeys(obj: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) {
      throw invalidParameter(`Unknown key '${key}' in ${where} (allowed: ${allowed.join(', ') || 'none'})`);
    }
  }
}

/** A boolean option given as JSON boolean or as the strings "true" / "false". */
export function readBoolean(value: unknown, where: string): boolean {
  if (value === true || value === 'true' || value === 1 || value === '1') return true;
  if (value === false || value === 'false' || value === 0 || value === '0') return false;
  throw invalidParameter(`${where} must be true or false`);
}

export function readStringList(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' || typeof v === 'number')) {
    throw invalidParameter(`${where} must be a list of strings`);
  }
  return value.map(String);
}
