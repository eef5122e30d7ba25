/**
 * Keys of the pending effects, also by contact: the bridge asks for one contact's pending effects several times per
 * message, and that must not cost a walk over every contact's. (Order is the reader's: `pendingEffectsIn` sorts.)
 */
export class PendingIndex {
  private readonly all = new Set<string>();
  private readonly byContact = new Map<string, Set<string>>();

  get size(): number {
    return this.all.size;
  }

  add(key: string, contactKey: string): void {
    if (this.all.has(key)) return;
    this.all.add(key);
    let keys = this.byContact.get(contactKey);
    if (!keys) {
      keys = new Set();
      this.byContact.set(contactKey, keys);
    }
    keys.add(key);
  }

  delete(key: string, contactKey: string): void {
    if (!this.all.delete(key)) return;
    const keys = this.byContact.get(contactKey);
    keys?.delete(key);
    if (keys?.size === 0) this.byContact.delete(contactKey);
  }

  /** Every pending key, or one contact's. */
  keys(contactKey?: string): Iterable<string> {
    return contactKey === undefined ? this.all : (this.byContact.get(contactKey) ?? []);
  }
}
