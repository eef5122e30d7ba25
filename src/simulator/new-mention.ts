import type { Attachment, Button, MentionRecord } from './model.js';
import type { Runtime } from './runtime.js';
import { scoreSentiment } from './sentiment.js';

export interface NewMention {
  topicId: number;
  service: string;
  authorId: string;
  authorName: string;
  managed: boolean;
  threadId: string;
  content: string;
  buttons?: Button[];
  clickedButtons?: Button[];
  attachments?: Attachment[];
}

/** Creates and indexes a private-message mention, applying the timestamp and indexing realism. */
export function addMention(rt: Runtime, input: NewMention): MentionRecord {
  const { state, realism } = rt;
  const now = rt.now();
  const tie = realism.timestamp_ties === true ? 10 : typeof realism.timestamp_ties === 'number' ? realism.timestamp_ties : 0;
  const added = tie > 0 ? now - (now % tie) : now;
  const delay = realism.indexing_delay_ms > 0 ? Math.floor(rt.random() * realism.indexing_delay_ms) : 0;
  const id = realism.overlapping_mention_ids ? state.newTopicMentionId(input.topicId) : state.newId('mention');
  const m: MentionRecord = {
    id,
    num: Number(id),
    topicId: input.topicId,
    status: 'new',
    priority: 'low',
    tags: [],
    service: input.service,
    authorId: input.authorId,
    authorName: input.authorName,
    managed: input.managed,
    threadId: input.threadId,
    content: input.content,
    messageType: 'privatemessage',
    sentiment: scoreSentiment(input.content).sentiment,
    buttons: input.buttons ?? [],
    clickedButtons: input.clickedButtons ?? [],
    attachments: input.attachments ?? [],
    added,
    updated: added,
    visibleAtMs: rt.realMs() + delay,
    listedFrom: added + realism.late_indexing_seconds,
    assignment: { userIds: [], comment: '' },
    actions: [],
    hidden: false,
  };
  state.mentions.add(m);
  return m;
}
