import type { Action } from '../../bot/index.js';

/** Where a reply goes: the customer's mention it answers. */
export interface ReplyTarget {
  readonly mentionId: string;
  readonly topicId: string;
}

/** What an outbox effect carries; one kind per API-facing step. */
export type EffectPayload =
  /**
   * Marks that the inbound mention was decided (never decide it again). `Store.recordDecision` stores it already
   * done, with the decision's state, lines and effects in the same write. A pending one with `state`, `botLines` and
   * `followUps` was stored by an earlier version (which applied them when it was performed): still performed so.
   */
  | {
      readonly kind: 'decision';
      readonly state?: unknown;
      readonly botLines?: ReadonlyArray<{ at: number; text: string }>;
      /** The decision's other effects: re-enqueued (idempotently) when this one runs, so none is lost between writes. */
      readonly followUps?: ReadonlyArray<{ key: string; payload: EffectPayload }>;
    }
  | {
      readonly kind: 'reply';
      readonly target: ReplyTarget;
      readonly text: string;
      readonly cannedResponseId?: string;
      readonly buttons?: ReadonlyArray<{ id: string; title: string }>;
      /** Not before this moment (epoch ms): the outbox leaves it waiting without holding up later effects. */
      readonly notBefore?: number;
    }
  /** A CSAT/NPS answer: `record` keeps it (store, metrics); `tags` tags the mention and the contact. */
  | {
      readonly kind: 'survey-answer';
      readonly part: 'record' | 'tags';
      readonly target: ReplyTarget;
      readonly answer: Omit<Extract<Action, { type: 'survey-answer' }>, 'type'>;
    }
  | {
      readonly kind: 'escalate';
      readonly target: ReplyTarget;
      readonly action: Extract<Action, { type: 'escalate' }>;
      readonly permalink?: string;
      readonly customerName?: string;
    }
  | {
      readonly kind: 'queue-escalation';
      readonly target: ReplyTarget;
      readonly reason: string;
      readonly releaseAt?: number;
      readonly permalink?: string;
      readonly customerName?: string;
    }
  | { readonly kind: 'cancel-escalation'; readonly reason: string };

/** Turns the brain's actions into outbox effects, in order, each with a key derived from the source and step. */
export function planEffects(
  source: string,
  actions: readonly Action[],
  target: ReplyTarget | undefined,
  extra: { permalink?: string; customerName?: string },
): Array<{ key: string; payload: EffectPayload }> {
  const planned: Array<{ key: string; payload: EffectPayload }> = [];
  actions.forEach((a, i) => {
    const key = `${source}:${i + 1}:${a.type}`;
    const more = {
      ...(extra.permalink ? { permalink: extra.permalink } : {}),
      ...(extra.customerName ? { customerName: extra.customerName } : {}),
    };
    switch (a.type) {
      case 'reply':
        if (!target) return;
        planned.push({
          key,
          payload: {
            kind: 'reply',
            target,
            text: a.text,
            ...(a.quickReplies ? { cannedResponseId: a.quickReplies.cannedResponseId, buttons: a.quickReplies.buttons } : {}),
            ...(a.cannedResponseId && !a.quickReplies ? { cannedResponseId: a.cannedResponseId } : {}),
            ...(a.sendAt !== undefined ? { notBefore: a.sendAt } : {}),
          },
        });
        return;
      case 'survey-answer': {
        if (!target) return;
        const { type: _t, ...answer } = a;
        planned.push({ key, payload: { kind: 'survey-answer', part: 'record', target, answer } });
        planned.push({ key: `${key}:tags`, payload: { kind: 'survey-answer', part: 'tags', target, answer } });
        return;
      }
      case 'escalate':
        if (!target) return;
        planned.push({ key, payload: { kind: 'escalate', target, action: a, ...more } });
        return;
      case 'queue-escalation':
        if (!target) return;
        planned.push({
          key,
          payload: { kind: 'queue-escalation', target, reason: a.reason, ...(a.releaseAt ? { releaseAt: a.releaseAt } : {}), ...more },
        });
        return;
      case 'cancel-escalation':
        planned.push({ key, payload: { kind: 'cancel-escalation', reason: a.reason } });
        return;
      case 'nothing':
        return;
    }
  });
  return planned;
}
