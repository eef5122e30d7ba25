import { copyJsonData } from '../json-data.js';
import type { ConversationRecord } from '../records.js';
import type { HotSlot } from './conversations.js';
import type { WrittenRecord } from './conversation-text.js';

/**
 * The parsed records of the conversations touched last, beside their text in the hot set: the worker reads a
 * conversation several times per message, and parsing its text each time was the store's largest cost. An entry
 * holds for the very slot it was made from; any write puts a new slot in the hot set, so it goes stale at once.
 * The store's copy is never handed out: every read gets its own copy (callers may change what they get).
 */
export class ParsedConversations {
  private readonly byKey = new Map<string, { slot: HotSlot; record: ConversationRecord; lines?: readonly string[] }>();
  /** The kept records' text length: parsed, a record takes a few times its text, so this bounds the memory too. */
  private chars = 0;

  constructor(private readonly max: { records: number; chars: number }) {}

  /**
   * A fresh copy of the slot's record. `keep`: remember it when it was not known (a conversation in play); a pass
   * over many (a scan) leaves the memo as it is, so it neither pushes out the ones in play nor pays for a copy.
   */
  read(key: string, slot: HotSlot, keep: boolean): ConversationRecord {
    const known = this.byKey.get(key);
    if (known !== undefined && known.slot === slot) return copyJsonData(known.record);
    const record = JSON.parse(slot.json) as ConversationRecord;
    if (!keep) return record;
    this.remember(key, slot, record);
    return copyJsonData(record);
  }

  /**
   * The record last written for the key with its lines' texts, if still kept: the next write reuses the texts of the
   * lines it keeps (the pair holds whether or not the slot changed since).
   */
  written(key: string): WrittenRecord | undefined {
    const known = this.byKey.get(key);
    return known?.lines === undefined ? undefined : { record: known.record, lines: known.lines };
  }

  /**
   * `record` must be exactly what `JSON.parse(slot.json)` gives, and nobody else's to change; `lines`, when given,
   * the JSON text of each of its transcript lines.
   */
  remember(key: string, slot: HotSlot, record: ConversationRecord, lines?: readonly string[]): void {
    this.forget(key);
    this.byKey.set(key, lines === undefined ? { slot, record } : { slot, record, lines });
    this.chars += weight(slot, lines);
    // The oldest first: a Map keeps insertion order, and a key remembered again moves to the end.
    while (this.byKey.size > this.max.records || (this.chars > this.max.chars && this.byKey.size > 1)) {
      this.forget(this.byKey.keys().next().value as string);
    }
  }

  private forget(key: string): void {
    const known = this.byKey.get(key);
    if (known === undefined) return;
    this.byKey.delete(key);
    this.chars -= weight(known.slot, known.lines);
  }

  get size(): { records: number; chars: number } {
    return { records: this.byKey.size, chars: this.chars };
  }
}

/** The lines' texts are about as long as the record's text. */
function weight(slot: HotSlot, lines: readonly string[] | undefined): number {
  return lines === undefined ? slot.json.length : slot.json.length * 2;
}
