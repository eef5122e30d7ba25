export type TagEdits = { ok: true; add: string[]; remove: string[] } | { ok: false; error: string };

const MAX_TAG_LENGTH = 100;

/**
 * `+a` adds, `-b` removes, a bare `c` adds. Refuses what could mean two things: an empty tag,
 * a doubled sign (`+-a`, `--a`), a comma inside a tag, or one tag both added and removed.
 */
export function parseTagEdits(tokens: readonly string[]): TagEdits {
  const add: string[] = [];
  const remove: string[] = [];
  for (const token of tokens) {
    const sign = token[0] === '+' || token[0] === '-' ? token[0] : '';
    const tag = token.slice(sign.length).trim();
    if (tag === '') return { ok: false, error: `"${token}" names no tag` };
    if (tag[0] === '+' || tag[0] === '-') {
      return { ok: false, error: `"${token}" is ambiguous: use one + (add) or one - (remove) before a tag` };
    }
    if (tag.includes(',')) return { ok: false, error: `"${token}" has a comma: separate tags with spaces` };
    if (tag.length > MAX_TAG_LENGTH) return { ok: false, error: `a tag is at most ${MAX_TAG_LENGTH} characters` };
    const list = sign === '-' ? remove : add;
    if (!list.includes(tag)) list.push(tag);
  }
  const both = add.find((t) => remove.includes(t));
  if (both !== undefined) return { ok: false, error: `"${both}" is both added and removed: say one` };
  return { ok: true, add, remove };
}
