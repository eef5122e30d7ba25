import type { Effect } from '../../storage/index.js';
import { splitKey } from '../contact-key.js';
import type { PayloadOf, PerformerDeps } from './performer.js';
import { SURVEY_ANSWER_ACTION } from '../survey-answers.js';

/** A CSAT/NPS answer: `record` keeps it, `tags` tags the answered mention (and the contact). */
export function performSurveyAnswer(deps: PerformerDeps, effect: Effect, p: PayloadOf<'survey-answer'>): Promise<unknown> {
  return p.part === 'record' ? recordSurveyAnswer(deps, effect.contactKey, p) : tagSurveyAnswer(deps, effect.contactKey, p);
}

/** Keeps the answer (an audit entry the `csat` command reads) and counts it; no API call, so nothing to retry. */
async function recordSurveyAnswer(deps: PerformerDeps, key: string, p: PayloadOf<'survey-answer'>) {
  const { kind, score, reason, channel } = p.answer;
  await deps.store.audit({
    at: deps.now(),
    actor: 'customer',
    action: SURVEY_ANSWER_ACTION,
    subject: key,
    result: JSON.stringify({ kind, score, reason, channel }),
  });
  deps.metrics.surveyAnswers.inc({ kind, score: String(score), channel });
  return { recorded: true };
}

/** Tags the answered mention and the contact (adding, so nothing else is lost; a repeat adds nothing new). */
async function tagSurveyAnswer(deps: PerformerDeps, key: string, p: PayloadOf<'survey-answer'>) {
  const tags = [...p.answer.tags];
  if (tags.length === 0) return { tagged: false };
  await deps.engage.mentions.update(
    { topicId: p.target.topicId, id: p.target.mentionId },
    { tags },
    { options: { tags_edit_mode: 'add' } },
  );
  if (p.answer.tagContact) {
    const { service, serviceId } = splitKey(key);
    await deps.engage.contacts.update(
      { service, serviceId },
      { tags },
      { options: { tags_edit_mode: 'add' }, topicIds: [p.target.topicId] },
    );
  }
  return { tagged: true };
}
