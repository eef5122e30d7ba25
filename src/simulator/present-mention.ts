import type { MentionRecord } from './model.js';
import { withExtras } from './present-extras.js';
import type { Runtime } from './runtime.js';

export const SOURCE_TYPES: Record<string, string> = {
  web: 'LiveChat',
  whatsapp: 'WhatsApp',
  viber: 'Viber',
  twilio: 'Twilio',
  wechat: 'WeChat',
  facebook: 'Facebook',
  instagram: 'Instagram',
  twitter: 'Twitter',
  email: 'Email',
};

/** engage-api.md, Versioning: "20180213 | attachment objects carry question". */
export const ATTACHMENT_QUESTION_VERSION = 20180213;

export interface PresentOptions {
  version: number;
  /** Whether entities were asked for (from version 20201001 they are empty unless asked). */
  entities?: boolean;
}

function extractEntities(text: string): { type: string; value: string }[] {
  const found: { type: string; value: string }[] = [];
  for (const m of text.matchAll(/[\w.+-]+@[\w-]+\.[\w.]+/g)) found.push({ type: 'email', value: m[0] });
  for (const m of text.matchAll(/https?:\/\/\S+/g)) found.push({ type: 'url', value: m[0] });
  for (const m of text.matchAll(/#(\w+)/g)) found.push({ type: 'hashtag', value: m[1] ?? '' });
  return found;
}

/** A mention as the API shows it under the request's `version`. */
export function presentMention(rt: Runtime, m: MentionRecord, opts: PresentOptions): Record<string, unknown> {
  const { version } = opts;
  const base = rt.baseUrl();
  const account = rt.state.account.id;
  const topic = rt.state.topics.get(m.topicId);
  const users = rt.state.users;
  const firstReply = m.actions.find((a) => a.type === 'reply');
  const entities = version < 20201001 || opts.entities ? extractEntities(m.content) : [];
  const source: Record<string, unknown> = {
    service: m.service,
    type: SOURCE_TYPES[m.service] ?? m.service,
    sender: m.authorId,
  };
  // engage-api.md: source.thread_id is optional, "not available for all sources".
  if (!rt.realism.omit_thread_id_sources.includes(m.service)) {
    // Guess `thread_id_root`: the description's "thread" id is the root mention's id, not the customer's.
    source['thread_id'] = rt.realism.thread_id_root ? (rt.state.mentions.thread(m.service, m.threadId)[0]?.id ?? m.id) : m.threadId;
  }
  if (version >= 20180125 && m.service === 'facebook' && m.messageType === 'privatemessage') {
    source['profile'] = { id: m.authorId, name: m.authorName };
  }
  const assignment =
    version >= 20200427
      ? { comment: m.assignment.comment }
      : { user_ids: [...m.assignment.userIds], team_ids: [], comment: m.assignment.comment };
  return withExtras(rt, {
    id: m.id,
    unique_id: version >= 20180406 ? `${m.topicId}_${m.id}` : null,
    topic_id: m.topicId,
    topic: { id: m.topicId, name: topic?.name ?? '' },
    status: m.status,
    priority: m.priority,
    tags: [...m.tags],
    source,
    author: { id: m.authorId, name: m.authorName, managed: m.managed },
    message: { type: m.messageType, content: m.content, sentiment: m.sentiment, entities },
    buttons: m.buttons.map((b) => ({ ...b })),
    clicked_buttons: m.clickedButtons.map((b) => ({ ...b })),
    date: { added: m.added, updated: m.updated },
    permalink: `${base}/messages/${account}/permalink/${m.topicId}/${m.id}/`,
    assignment,
    assignees: m.assignment.userIds.map((id) => ({ id, type: 'user', display_name: users.get(id)?.name ?? id })),
    actions: m.actions.map((a) => ({ ...a, date: { ...a.date } })),
    todos: [],
    attachments: m.attachments.map((a) => (version >= ATTACHMENT_QUESTION_VERSION ? { ...a } : { type: a.type, url: a.url })),
    part_of_cases: { mention_identifiers: [] },
    extra_fields: rt.realism.extra_fields ? { sim_label: 'realism' } : {},
    timestamps: {
      response_time: firstReply ? Math.max(0, firstReply.date.added - m.added) : 0,
      response_time_during_bh: 0,
      resolve_time: 0,
      resolve_time_during_bh: 0,
      handle_time: 0,
      unresolved_time: 0,
      unresolved_time_during_bh: 0,
      pending_time: 0,
    },
    action_links: [
      {
        type: 'api',
        key: 'reply',
        http_method: 'POST',
        link: `${base}/${account}/publisher/add/?type=reply&topic_id=${m.topicId}&mention_id=${m.id}`,
      },
      { type: 'api', key: 'delete', http_method: 'DELETE', link: `${base}/${account}/inbox/mention/${m.topicId}/${m.id}` },
    ],
  });
}
