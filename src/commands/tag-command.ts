import type { Mention } from '../engage/schemas/index.js';
import type { CommandSpec } from './command-types.js';
import { describeFailure } from './describe-failure.js';
import { parseTagEdits } from './parse-tag-edits.js';
import { MENTION_REF_HELP, parseMentionRef } from './references.js';

const list = (tags: readonly string[]): string => (tags.length === 0 ? '(none)' : tags.join(', '));

export const tagCommand: CommandSpec<'tag'> = {
  name: 'tag',
  usage: ['tag <mention> +a -b c'],
  summary: 'adds (+a or a) and removes (-b) tags on a mention, then shows the tags now on it',
  details: [
    `<mention> is ${MENTION_REF_HELP}.`,
    'Separate tags with spaces; quote a tag with spaces ("+big deal"). A tag may not be both added and removed.',
  ],
  examples: ['tag 2001/9001 +vip -spam', 'tag https://app.engagor.com/messages/1001/permalink/2001/9001/ refund'],
  parse(args) {
    const [ref, ...tagTokens] = args;
    if (ref === undefined) return { ok: false, error: 'say which mention to tag' };
    const mention = parseMentionRef(ref);
    if (!mention.ok) return mention;
    if (tagTokens.length === 0) return { ok: false, error: 'say which tags to add (+a) or remove (-b)' };
    const edits = parseTagEdits(tagTokens);
    if (!edits.ok) return edits;
    return { ok: true, command: { name: 'tag', mention: mention.value, add: edits.add, remove: edits.remove } };
  },
  subject: (c) => `mention ${c.mention.topicId}/${c.mention.mentionId}`,
  async run(c, { deps }) {
    const { topicId, mentionId } = c.mention;
    const subject = `mention ${topicId}/${mentionId}`;
    const done: string[] = [];
    let mention: Mention | undefined;
    try {
      if (c.add.length > 0) {
        mention = await deps.engage.mentions.update(
          { topicId, id: mentionId },
          { tags: [...c.add] },
          { options: { tags_edit_mode: 'add' } },
        );
        done.push(`added ${list(c.add)}`);
      }
      if (c.remove.length > 0) {
        mention = await deps.engage.mentions.update(
          { topicId, id: mentionId },
          { tags: [...c.remove] },
          { options: { tags_edit_mode: 'delete' } },
        );
        done.push(`removed ${list(c.remove)}`);
      }
    } catch (error) {
      const failure = describeFailure(error, subject);
      const partly = done.length > 0 ? ` (already ${done.join('; ')}; tags now: ${list(mention?.tags ?? [])})` : '';
      return { ok: false, text: `${failure}${partly}`, changed: done.length > 0 ? { tags: mention?.tags ?? [] } : undefined };
    }
    const tags = mention?.tags ?? [];
    return {
      ok: true,
      text: `Mention ${topicId}/${mentionId}: ${done.join('; ')}. Tags now: ${list(tags)}.`,
      changed: { added: [...c.add], removed: [...c.remove], tags },
    };
  },
};
