import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { PlacedLine } from './cold-conversations.js';
import { CURRENT_SCHEMA_VERSION } from './hot-state.js';
import type { ConversationSlot } from './hot-state.js';
import { OWNERS } from '../shared/owner.js';
import type { Owner } from './records.js';

/**
 * The index of a conversations shard file, written beside it with every snapshot of that shard: per line the key,
 * owner, date and byte range, and the digest of the shard's bytes. At open, a shard whose bytes match the digest is
 * placed from its index, with no JSON parse or schema check of its lines (most of the start-up time with a large
 * store). Any doubt (no index, an index of another version of the shard, an index damaged itself) falls back to
 * decoding every line, which refuses damage by file and line: the shard stays the truth, the index only a shortcut.
 * An index that cannot be read, or was written under another store schema, counts as no index.
 *
 * Layout: a header line `{"v":1,"schema":<store schema version>,"shard":<sha256 of the shard>,"body":<sha256 of the body>}`, then the body, one JSON
 * array of entries: `[key, owner, updatedAt, at, length]` for a conversation, `[key, archivedAt]` for an archived marker.
 */
// Lines placed from an index skip the schema check: an index written under another store schema is not trusted
// (a schema made stricter later must see every line again).
const VERSION = 1;

type IndexEntry = [string, Owner, number, number, number] | [string, number];

export function shardIndexPath(shardPath: string): string {
  return shardPath.replace(/\.jsonl$/, '.index');
}

function digest(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The index text of a shard text about to be written, from where its lines land. */
export function shardIndexText(shardText: string, placed: PlacedLine[]): string {
  const entries: IndexEntry[] = placed.map(({ key, slot, at, length }) =>
    'archivedAt' in slot ? [key, slot.archivedAt] : [key, slot.owner, slot.updatedAt, at, length],
  );
  const body = JSON.stringify(entries);
  return `${JSON.stringify({ v: VERSION, schema: CURRENT_SCHEMA_VERSION, shard: digest(shardText), body: digest(body) })}\n${body}`;
}

/** Where a conversation of an indexed shard goes: in memory (its line's text) or left in the file (cold). */
export interface IndexPlacing {
  coldBefore: number;
  home: (key: string) => boolean;
}

/**
 * The slots of a shard placed from its index, or undefined when the index cannot be trusted for exactly these bytes
 * (missing, of another version of the shard, or not whole): the caller then decodes every line.
 */
export async function slotsFromIndex(
  shardPath: string,
  shard: Buffer,
  placing: IndexPlacing,
): Promise<Array<[string, ConversationSlot]> | undefined> {
  const path = shardIndexPath(shardPath);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    // Derived data: an index that is missing or cannot be read (a permission changed by a restore, a directory
    // in its place) sends the shard through the line-by-line decoding, as a damaged one does.
    return undefined;
  }
  const entries = trustedEntries(text, shard);
  if (!entries) return undefined;
  const slots: Array<[string, ConversationSlot]> = [];
  for (const entry of entries) {
    if (entry.length === 2) {
      slots.push([entry[0], { archivedAt: entry[1] }]);
      continue;
    }
    const [key, owner, updatedAt, at, length] = entry;
    // A recent conversation, or one in the wrong file (moved at the next snapshot), is kept in memory as its text.
    const slot: ConversationSlot =
      updatedAt >= placing.coldBefore || !placing.home(key)
        ? { json: shard.toString('utf8', at, at + length), owner, updatedAt }
        : { at, length, owner, updatedAt };
    slots.push([key, slot]);
  }
  return slots;
}

function trustedEntries(text: string, shard: Buffer): IndexEntry[] | undefined {
  const newline = text.indexOf('\n');
  if (newline < 0) return undefined;
  const body = text.slice(newline + 1);
  let header: unknown;
  let entries: unknown;
  try {
    header = JSON.parse(text.slice(0, newline));
    if (!isHeader(header) || header.body !== digest(body) || header.shard !== digest(shard)) return undefined;
    entries = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!Array.isArray(entries)) return undefined;
  // The digests say this is what the writer wrote for these bytes; the shape is checked in case the writer was wrong.
  for (const entry of entries) if (!isEntry(entry, shard.length)) return undefined;
  return entries as IndexEntry[];
}

function isHeader(value: unknown): value is { v: number; schema: number; shard: string; body: string } {
  if (typeof value !== 'object' || value === null) return false;
  const header = value as Record<string, unknown>;
  return (
    header.v === VERSION && header.schema === CURRENT_SCHEMA_VERSION && typeof header.shard === 'string' && typeof header.body === 'string'
  );
}

const owners = new Set<unknown>(OWNERS);

function isEntry(entry: unknown, size: number): boolean {
  if (!Array.isArray(entry) || typeof entry[0] !== 'string' || entry[0] === '') return false;
  if (entry.length === 2) return typeof entry[1] === 'number';
  if (entry.length !== 5 || !owners.has(entry[1]) || typeof entry[2] !== 'number') return false;
  const [, , , at, length] = entry as number[];
  return Number.isSafeInteger(at) && Number.isSafeInteger(length) && at! >= 0 && length! > 0 && at! + length! <= size;
}
