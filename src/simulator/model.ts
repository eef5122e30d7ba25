import type { Button, Period } from './seed-schema.js';

export type { Button, Period };
export type MentionStatus = 'new' | 'pending' | 'done';
export type Priority = 'low' | 'medium' | 'high' | 'critical';

export interface MentionAction {
  type: string;
  extra?: string;
  user_id?: string;
  date: { added: number };
  metadata?: Record<string, unknown>;
}

/** A file or form answer that came with a customer's message. */
export interface Attachment {
  type: string;
  url: string;
  /** The question the attachment answers; shown from version 20180213 on. */
  question: string | null;
}

/** An inbox mention as the simulator keeps it; `present-mention.ts` shapes it per API version. */
export interface MentionRecord {
  id: string;
  num: number;
  topicId: number;
  status: MentionStatus;
  priority: Priority;
  tags: string[];
  service: string;
  authorId: string;
  authorName: string;
  managed: boolean;
  /** The customer's id on the channel: the thread this message belongs to. */
  threadId: string;
  content: string;
  messageType: string;
  sentiment: string;
  buttons: Button[];
  clickedButtons: Button[];
  attachments: Attachment[];
  added: number;
  updated: number;
  /** Real-clock ms from which list calls may return it (indexing delay realism). */
  visibleAtMs: number;
  /** Service-clock seconds from which list calls may return it (late indexing realism): `added` + the delay. */
  listedFrom: number;
  /** This mention's roll against `odd_item_rate`, made the first time a list shows it while the rate is on. */
  oddRoll?: number;
  assignment: { userIds: string[]; comment: string };
  actions: MentionAction[];
  hidden: boolean;
}

export interface Contact {
  id: string;
  name: string;
  type: string;
  serviceId: string;
  tags: string[];
  customattributes: Record<string, unknown>;
  country: { name: string; code: string } | null;
  company: string;
  comments: string;
  telephone: string | null;
  added: number;
  updated: number;
}

export interface HandoverRecord {
  owner: 'agents' | 'application';
  applicationId: string | null;
  updated: number | null;
}

export interface PublisherMention {
  id: string;
  type: string;
  status: 'posted' | 'scheduled' | 'draft' | 'awaitingapproval';
  services: { type: string; service_id: string }[];
  message: string;
  subject: string | null;
  to: { id: string }[];
  media: string[];
  buttons: Button[];
  cannedResponseId: string | null;
  topicId: number | null;
  mentionId: string | null;
  publishAt: number;
  added: number;
  tags: string[];
  actions: MentionAction[];
  assignment: { userIds: string[]; comment: string };
  authorUserId: string;
}

/** A file added through media/add; its id may go in publisher add's `media`. */
export interface MediaItem {
  id: string;
  filename: string;
  url: string | null;
  size: number | null;
  date: { added: number };
}

export interface User {
  id: string;
  name: string;
  email: string;
  roleId: string;
  scheduleId: string | null;
  status: 'Available' | 'Unavailable' | 'Busy';
  avatar: string;
}

export interface Schedule {
  id: string;
  name: string;
  timezone: string;
  periods: Period[];
}

export interface TokenRecord {
  token: string;
  userId: string;
  scopes: Set<string>;
  revoked: boolean;
}

export interface CannedResponse {
  id: string;
  name: string;
  type: 'text' | 'buttons' | 'csat' | 'nps';
  message: string;
  buttons: Button[];
  usageCount: number;
}

export interface OutboundEntry {
  seq: number;
  type: string;
  services: { type: string; service_id: string }[];
  message: string;
  canned_response_id: string | null;
  buttons: Button[];
  topic_id: number | null;
  mention_id: string | null;
  status: string;
  date: number;
  publisher_mention_id: string;
  /** `bot` for anything published through the API, `agent` for a reply from the service's tool. */
  author: 'bot' | 'agent';
  /** The agent who wrote it; null for API publishing. */
  user_id: string | null;
  recipient: { channel: string; service_id: string } | null;
}

export interface RequestEntry {
  seq: number;
  method: string;
  path: string;
  params: Record<string, string>;
  status: number;
  duration_ms: number;
  date: number;
  /** Real time the answer went out, epoch ms (the service clock `date` is whole seconds and may be offset). */
  at_ms: number;
  /** The error code of a refusal, e.g. `rate_limit_reached`. */
  error?: string;
  /** A handover call that was answered: who held the contact then. */
  owner?: 'agents' | 'application';
}
