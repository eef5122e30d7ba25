import { MentionIndex } from './mention-index.js';
import type { Button, CannedResponse, Contact, HandoverRecord, MediaItem, PublisherMention, Schedule, TokenRecord, User } from './model.js';
import type { Seed } from './seed-schema.js';

export interface Role {
  id: string;
  name: string;
  topics: number[];
  permissions: string[];
}
export interface ProfileGroup {
  id: string;
  name: string;
  color: string;
  profiles: { type: string; service_id: string }[];
}
export interface Profile {
  type: string;
  service_id: string;
  name: string;
}

const contactKey = (type: string, serviceId: string): string => `${type}\u0000${serviceId}`;

const FIRST_MENTION_ID = 9001;

/** Everything the simulated account holds, rebuilt from the seed on reset. */
export class SimState {
  readonly account: { id: string; name: string };
  readonly application: { id: string; allow_listed: boolean };
  readonly topics = new Map<number, { id: number; name: string }>();
  readonly profiles: Profile[];
  readonly roles = new Map<string, Role>();
  readonly users = new Map<string, User>();
  readonly tokens = new Map<string, TokenRecord>();
  readonly canned = new Map<string, CannedResponse>();
  readonly schedules = new Map<string, Schedule>();
  readonly profileGroups = new Map<string, ProfileGroup>();
  readonly tags: { id: string; name: string }[];
  readonly contacts = new Map<string, Contact>();
  private readonly contactsByService = new Map<string, Contact>();
  readonly handovers = new Map<string, HandoverRecord>();
  readonly mentions = new MentionIndex();
  readonly publisherMentions = new Map<string, PublisherMention>();
  /** Ids of publisher mentions waiting for their `date_publish`. */
  readonly scheduled = new Set<string>();
  /** The quick replies last sent to each customer (thread key), for `clicked_button`. */
  readonly lastQuickReplies = new Map<string, Button[]>();
  /** Files added through media/add, by id. */
  readonly media = new Map<string, MediaItem>();
  private next = { contact: 7001, publisher: 8001, mention: FIRST_MENTION_ID, schedule: 1, group: 1, message: 1, media: 6001 };

  constructor(seed: Seed) {
    this.account = { ...seed.account };
    this.application = { ...seed.application };
    for (const t of seed.topics) this.topics.set(t.id, { ...t });
    this.profiles = seed.profiles.map((p) => ({ ...p }));
    for (const r of seed.roles) this.roles.set(r.id, { ...r, topics: [...r.topics], permissions: [...r.permissions] });
    for (const u of seed.users) {
      this.users.set(u.id, {
        id: u.id,
        name: u.name,
        email: u.email,
        roleId: u.account_role,
        scheduleId: u.business_hours_schedule_id,
        status: u.status,
        avatar: u.avatar,
      });
    }
    for (const t of seed.tokens) this.tokens.set(t.token, { token: t.token, userId: t.user_id, scopes: new Set(t.scopes), revoked: false });
    for (const c of seed.canned_responses) {
      this.canned.set(c.id, {
        id: c.id,
        name: c.name,
        type: c.type,
        message: c.message,
        buttons: c.data.buttons.map((b) => ({ ...b })),
        usageCount: 0,
      });
    }
    for (const s of seed.business_hours_schedules) this.schedules.set(s.id, { ...s, periods: s.periods.map((p) => ({ ...p })) });
    for (const g of seed.profile_groups) this.profileGroups.set(g.id, { ...g, profiles: g.profiles.map((p) => ({ ...p })) });
    this.tags = seed.tags.map((t) => ({ ...t }));
    this.next.schedule = nextNumericId(this.schedules.keys(), 302);
    this.next.group = nextNumericId(this.profileGroups.keys(), 402);
  }

  newId(kind: keyof SimState['next']): string {
    return String(this.next[kind]++);
  }

  /**
   * A mention id from the topic's own count (`overlapping_mention_ids`): every topic starts at the account's first
   * mention id, so topics issue the same ids; always above any id the topic ever held, and the account counter is
   * kept above it, so switching the option on or off never repeats an id within a topic.
   */
  newTopicMentionId(topicId: number): string {
    const next = Math.max(FIRST_MENTION_ID, this.mentions.topNumOf(topicId) + 1);
    this.next.mention = Math.max(this.next.mention, next + 1);
    return String(next);
  }

  contactByService(type: string, serviceId: string): Contact | undefined {
    return this.contactsByService.get(contactKey(type, serviceId));
  }

  /** The contact of a channel identity, created on first sight (as the service does for a new author). */
  ensureContact(type: string, serviceId: string, name: string, now: number): Contact {
    const existing = this.contactByService(type, serviceId);
    if (existing) return existing;
    const contact: Contact = {
      id: this.newId('contact'),
      name,
      type,
      serviceId,
      tags: [],
      customattributes: {},
      country: null,
      company: '',
      comments: '',
      telephone: null,
      added: now,
      updated: now,
    };
    this.contacts.set(contact.id, contact);
    this.contactsByService.set(contactKey(type, serviceId), contact);
    return contact;
  }

  /** The account's connected profile on a channel (the sender of its replies). */
  profileFor(type: string): Profile {
    return this.profiles.find((p) => p.type === type) ?? { type, service_id: `sim-${type}`, name: `${this.account.name} (${type})` };
  }

  handover(type: string, serviceId: string): HandoverRecord {
    return this.handovers.get(contactKey(type, serviceId)) ?? { owner: 'agents', applicationId: null, updated: null };
  }

  /** Whether the contact was ever handed over (by the API or in the tool). */
  hasHandover(type: string, serviceId: string): boolean {
    return this.handovers.has(contactKey(type, serviceId));
  }

  setHandover(type: string, serviceId: string, record: HandoverRecord): void {
    this.handovers.set(contactKey(type, serviceId), record);
  }
}

function nextNumericId(ids: Iterable<string>, floor: number): number {
  let max = floor - 1;
  for (const id of ids) {
    const n = Number(id);
    if (Number.isInteger(n) && n > max) max = n;
  }
  return max + 1;
}
