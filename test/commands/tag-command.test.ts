import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/commands/run-command.js';
import { ServerError } from '../../src/engage/errors/index.js';
import type { Mention } from '../../src/engage/schemas/index.js';
import { fakeDeps, manager } from './fake-deps.js';

describe('tag', () => {
  it('adds then removes in two calls and echoes the tags now on the mention', async () => {
    let tags = ['old', 'spam'];
    const deps = fakeDeps({
      engage: {
        mentions: {
          update: async (_ref, updates, opts) => {
            tags = opts?.options?.tags_edit_mode === 'delete' ? tags.filter((t) => !updates.tags.includes(t)) : [...tags, ...updates.tags];
            return { id: '9001', topic_id: '2001', tags } as Mention;
          },
        },
      },
    });
    const answer = await runCommand('tag 2001/9001 +vip -spam refund', { actor: manager, deps });
    expect(deps.calls.filter((c) => c.port === 'mentions.update').map((c) => c.args)).toEqual([
      [{ topicId: '2001', id: '9001' }, { tags: ['vip', 'refund'] }, { options: { tags_edit_mode: 'add' } }],
      [{ topicId: '2001', id: '9001' }, { tags: ['spam'] }, { options: { tags_edit_mode: 'delete' } }],
    ]);
    expect(answer).toMatchObject({ ok: true, changed: { added: ['vip', 'refund'], removed: ['spam'], tags: ['old', 'vip', 'refund'] } });
    expect(answer.text).toBe('Mention 2001/9001: added vip, refund; removed spam. Tags now: old, vip, refund.');
  });

  it('says what was already done when the second call fails', async () => {
    let n = 0;
    const deps = fakeDeps({
      engage: {
        mentions: {
          update: async () => {
            if (n++ > 0) throw new ServerError({ method: 'POST', path: '/x', status: 503 });
            return { id: '9001', topic_id: '2001', tags: ['vip', 'spam'] } as Mention;
          },
        },
      },
    });
    const answer = await runCommand('tag 2001/9001 +vip -spam', { actor: manager, deps });
    expect(answer.ok).toBe(false);
    expect(answer.text).toMatch(/had a fault.*already added vip; tags now: vip, spam/);
  });
});
