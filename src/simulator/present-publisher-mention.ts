import type { PublisherMention } from './model.js';
import { withExtras } from './present-extras.js';
import { presentMention } from './present-mention.js';
import type { Runtime } from './runtime.js';

/** A publisher mention; `in_reply_to` only for a single GET of a reply (never in lists). */
export function presentPublisherMention(
  rt: Runtime,
  pm: PublisherMention,
  opts: { version: number; withReply: boolean },
): Record<string, unknown> {
  const item: Record<string, unknown> = {
    id: pm.id,
    type: pm.type,
    status: pm.status,
    message: { content: pm.message, subject: pm.subject },
    services: pm.services.map((s) => ({ ...s })),
    to: pm.to.map((t) => ({ ...t })),
    media: [...pm.media],
    buttons: pm.buttons.map((b) => ({ ...b })),
    canned_response_id: pm.cannedResponseId,
    topic_id: pm.topicId,
    mention_id: pm.mentionId,
    date: { added: pm.added, publish: pm.publishAt },
    tags: [...pm.tags],
    actions: pm.actions.map((a) => ({ ...a })),
    assignment: { user_ids: [...pm.assignment.userIds], comment: pm.assignment.comment },
    user_id: pm.authorUserId,
  };
  if (rt.realism.echo_author_anonymous) delete item['user_id'];
  if (opts.withReply && pm.mentionId) {
    const target = rt.state.mentions.get(pm.mentionId, pm.topicId);
    if (target) item['in_reply_to'] = presentMention(rt, target, { version: opts.version });
  }
  return withExtras(rt, item);
}
