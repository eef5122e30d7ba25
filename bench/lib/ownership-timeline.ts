import type { DriverEvent } from './chaos-events.js';
import type { RequestEntry } from './sim-client.js';

export type Holder = 'agents' | 'application';

export interface OwnershipMark {
  readonly pos: number;
  readonly owner: Holder;
  /**
   * `bridge`: its own handover call; `service`: an agent took or returned the contact in the service's tool;
   * `check`: the service's answer to the bridge's GET handover (who held it then, in the log's order).
   */
  readonly by: 'bridge' | 'service' | 'check';
}

/**
 * A driver action's place: its request-log seq, then its rank among the driver's actions, so actions that saw the
 * same last seq (the bridge was down, say) keep the order they happened in. Each contact's actions are sequential.
 */
export function driverPos(seq: number, index: number, count: number): number {
  return seq + (index + 1) / (count + 2);
}

/** The contact a handover request was about (`/{account}/inbox/handover/{service}/{id}`), or undefined. */
export function handoverContact(r: RequestEntry): string | undefined {
  const m = /^\/[^/]+\/inbox\/handover\/[^/]+\/([^/]+)$/.exec(r.path);
  return m ? decodeURIComponent(m[1]!) : undefined;
}

/**
 * Who held each contact, in request-log order. The service-side take counts from the latest position it could
 * have (its `after`), a return from the earliest (its `before`): in doubt, the bridge is given the benefit. Where
 * the log records the owner a GET handover answered, that answer settles who held the contact at that point.
 */
export class OwnershipTimeline {
  private readonly marks = new Map<string, OwnershipMark[]>();
  private readonly checks = new Map<string, number[]>();

  constructor(requests: readonly RequestEntry[], events: readonly DriverEvent[]) {
    for (const r of requests) {
      const contact = handoverContact(r);
      if (contact === undefined || r.status !== 200) continue;
      if (r.method === 'POST') this.add(contact, { pos: r.seq, owner: 'agents', by: 'bridge' });
      else if (r.method === 'DELETE') this.add(contact, { pos: r.seq, owner: 'application', by: 'bridge' });
      else if (r.method === 'GET') {
        this.list(this.checks, contact).push(r.seq);
        // The answer's owner is the truth at that point of the log, whatever the driver's calls in flight did.
        if (r.owner !== undefined) this.add(contact, { pos: r.seq, owner: r.owner, by: 'check' });
      }
    }
    events.forEach((e, index) => {
      if (e.kind === 'take') this.add(e.contact, { pos: driverPos(e.after, index, events.length), owner: 'agents', by: 'service' });
      if (e.kind === 'return') this.add(e.contact, { pos: driverPos(e.before, index, events.length), owner: 'application', by: 'service' });
    });
    for (const list of this.marks.values()) list.sort((a, b) => a.pos - b.pos);
  }

  /** The last change before `pos` (none: nobody ever took the contact, so the application holds it). */
  markAt(contact: string, pos: number): OwnershipMark | undefined {
    let found: OwnershipMark | undefined;
    for (const m of this.marks.get(contact) ?? []) {
      if (m.pos >= pos) break; // a mark takes effect after its position
      found = m;
    }
    return found;
  }

  /** True when people held the contact at some moment in [from, to). */
  peopleHeldBetween(contact: string, from: number, to: number): boolean {
    if (this.markAt(contact, from)?.owner === 'agents') return true;
    return (this.marks.get(contact) ?? []).some((m) => m.owner === 'agents' && m.pos > from && m.pos < to);
  }

  /** True when the bridge asked the service who owns the contact (GET handover) strictly between the two positions. */
  checkedBetween(contact: string, from: number, to: number): boolean {
    return (this.checks.get(contact) ?? []).some((p) => p > from && p < to);
  }

  private add(contact: string, mark: OwnershipMark): void {
    this.list(this.marks, contact).push(mark);
  }

  private list<T>(map: Map<string, T[]>, key: string): T[] {
    let list = map.get(key);
    if (!list) {
      list = [];
      map.set(key, list);
    }
    return list;
  }
}
