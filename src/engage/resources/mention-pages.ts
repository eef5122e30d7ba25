import type { z } from 'zod';
import { knownMentionSchema } from '../schemas/known-mention.js';
import { mentionSchema, type Mention } from '../schemas/mention.js';
import { invalidItem, rawPageSchema, type InvalidListItem, type ItemByItemPage } from '../schemas/paged-list.js';
import type { Operation } from '../transport/operation.js';
import { iteratePages } from '../transport/iterate-pages.js';
import type { RequestExecutor } from '../transport/request-executor.js';

/** Whether the caller has already recorded the mention with this topic and id (the bridge: its store). */
export type KnownMention = (topicId: string, id: string) => boolean | Promise<boolean>;

/**
 * A page of mentions, validated item by item: one odd item never fails the page (or stops the cursor). `known`: the
 * items of `data` the caller's `isKnown` said it had recorded (read with `knownMentionSchema`), so the caller need not
 * ask again (`list` and a read without `isKnown`: none).
 */
export type MentionPage = ItemByItemPage<Mention> & { readonly known?: ReadonlySet<Mention> };

/**
 * Every page of a mentions list, each item read alone. With `isKnown`, an item whose ids name a mention already
 * recorded is read with `knownMentionSchema` (most of a poll's items, read again by its overlap); any other item,
 * or a known one that does not pass that, gets the full check.
 */
export async function* readMentionPages(
  executor: RequestExecutor,
  firstOp: () => Operation,
  maxPages: number,
  isKnown: KnownMention | undefined,
  prefetch = false,
): AsyncGenerator<MentionPage, void, undefined> {
  for await (const page of iteratePages(executor, firstOp, rawPageSchema, maxPages, { prefetch })) {
    const data: Mention[] = [];
    const invalid: InvalidListItem[] = [];
    const known = new Set<Mention>();
    for (const raw of page.data) {
      const ref = isKnown ? refOf(raw) : undefined;
      let parsed: z.ZodSafeParseResult<Mention> | undefined;
      if (ref && (await isKnown?.(ref.topicId, ref.id))) {
        parsed = knownMentionSchema.safeParse(raw);
        if (parsed.success) known.add(parsed.data);
      }
      if (!parsed?.success) parsed = mentionSchema.safeParse(raw);
      if (parsed.success) data.push(parsed.data);
      else invalid.push(invalidItem(raw, parsed.error));
    }
    yield { ...page, data, invalid, known };
  }
}

const isId = (v: unknown): v is string | number => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** The ids as `idSchema` reads them, without a schema: the cheap look before the choice of check. */
function refOf(raw: unknown): { topicId: string; id: string } | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { id, topic_id } = raw as { id?: unknown; topic_id?: unknown };
  return isId(id) && isId(topic_id) ? { topicId: String(topic_id), id: String(id) } : undefined;
}
