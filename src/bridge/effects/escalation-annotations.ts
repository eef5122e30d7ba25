import type { PerformerDeps } from './performer.js';

type AnnotationDeps = Pick<PerformerDeps, 'engage' | 'metrics' | 'log'>;

/** What an escalation writes on the customer's mention once the handover is done. */
export interface Annotations {
  readonly target: { readonly topicId: string; readonly mentionId: string };
  readonly tags: readonly string[];
  readonly note: string;
}

/** What became of the annotations: nothing here ever fails the escalation. */
export interface AnnotationOutcome {
  readonly tagged: boolean;
  readonly noted: boolean;
  /** The note did not reach the mention: the Slack notice carries it instead. */
  readonly noteRefused?: string;
}

/**
 * Writes the escalation's tags and note on the mention, after the handover and never blocking it. Only keys the
 * description lists are sent: `tags` (listed as updatable). `priority` is not among the updatable keys, so it is
 * not sent (the notice and the escalation record carry it). The note's key is not named by the description
 * (`actions` is the conventions' choice): a refusal degrades quietly: logged, counted, put in the notice.
 * Each write is tried once: a note is appended by the service, so a repeat after a timeout could add it twice.
 */
export async function annotateEscalation(ctx: AnnotationDeps, key: string, a: Annotations, suspect: boolean): Promise<AnnotationOutcome> {
  const ref = { topicId: a.target.topicId, id: a.target.mentionId };
  let tagged = a.tags.length === 0;
  if (!tagged) {
    try {
      await ctx.engage.mentions.update(ref, { tags: [...a.tags] }, { options: { tags_edit_mode: 'add' } });
      tagged = true;
    } catch (err) {
      refused(ctx, key, 'tags', err);
    }
  }
  try {
    // After a crash the note may be there already: look before adding it a second time.
    if (suspect && (await noteAlreadyThere(ctx, ref, a.note))) return { tagged, noted: true };
    await ctx.engage.mentions.update(ref, { actions: [{ type: 'note', extra: a.note }] });
    return { tagged, noted: true };
  } catch (err) {
    refused(ctx, key, 'note', err);
    return { tagged, noted: false, noteRefused: a.note };
  }
}

async function noteAlreadyThere(ctx: AnnotationDeps, ref: { topicId: string; id: string }, note: string): Promise<boolean> {
  const mention = await ctx.engage.mentions.get(ref);
  return (mention.actions ?? []).some((x) => x.type === 'note' && x.extra === note);
}

function refused(ctx: AnnotationDeps, key: string, kind: 'tags' | 'note', err: unknown): void {
  ctx.metrics.annotationsRefused.inc({ kind });
  ctx.log.warn(
    { contact: key, annotation: kind, err: (err as Error)?.message ?? String(err) },
    `the escalation's ${kind} did not reach the mention; the handover stands${kind === 'note' ? ' and the Slack notice carries the note' : ''}`,
  );
}

/** The summary shown in Slack, with the note when the mention did not take it. */
export function summaryWithNote(summary: string, outcome: AnnotationOutcome): string {
  if (outcome.noteRefused === undefined) return summary;
  return `${summary}\n\nNote (Engage did not take it on the mention):\n${outcome.noteRefused}`;
}
