import { describe, expect, it } from 'vitest';
import { findPublishedReply } from '../../../src/bridge/effects/reply-check.js';

describe('the search for a reply that may already be out', () => {
  it('starts just before the customer mention was added (the list keeps the same clock), so it reads few pages', async () => {
    const added = Date.UTC(2026, 10, 23, 12, 0, 30);
    const asked: Date[] = [];
    const engage = {
      publisherMentions: {
        listPages: async function* (q: { dateFrom: Date }) {
          asked.push(q.dateFrom);
          yield { data: [] as Array<Record<string, unknown> & { id: string }> };
        },
        get: async () => {
          throw new Error('not expected');
        },
      },
    };
    const check = await findPublishedReply(
      engage as never,
      { mentionId: '9001', topicId: '2001', text: 'Hi', serviceFromMs: added },
      () => added,
    );
    expect(check.outcome).toBe('absent');
    // A reply cannot be older than the mention it answers; dates are whole seconds, so one second of slack covers ties.
    expect(asked.map((d) => added - d.getTime())).toEqual([1_000]);
  });
});

describe('re-checks after a restart share one listing of published replies', () => {
  const t0 = Date.UTC(2026, 10, 23, 12, 0, 0);
  /** The service's published replies; `in_reply_to` only by GET, as the description says. */
  function service(replies: Array<{ id: string; mentionId: string; text: string; addedMs: number }>) {
    const listed: Date[] = [];
    const engage = {
      publisherMentions: {
        listPages: async function* (q: { dateFrom: Date }) {
          listed.push(q.dateFrom);
          const data = replies
            .filter((r) => r.addedMs >= q.dateFrom.getTime())
            .map((r) => ({ id: r.id, message: { content: r.text }, date: { added: r.addedMs / 1000 } }));
          yield { data };
        },
        get: async (id: string) => {
          const r = replies.find((x) => x.id === id);
          return { id, ...(r ? { in_reply_to: { id: r.mentionId, topic_id: '2001' } } : {}) };
        },
      },
    };
    return { engage: engage as never, listed };
  }

  it('reads the list once for several re-checks made together, and each finds its own reply by id', async () => {
    const s = service([
      { id: 'pm-1', mentionId: '9001', text: 'Hi Ann', addedMs: t0 + 2_000 },
      { id: 'pm-2', mentionId: '9002', text: 'Hi Bob', addedMs: t0 + 5_000 },
    ]);
    const now = () => t0 + 20_000;
    const a = await findPublishedReply(s.engage, { mentionId: '9001', text: 'Hi Ann', serviceFromMs: t0 + 1_000, notBeforeMs: t0 }, now);
    const b = await findPublishedReply(s.engage, { mentionId: '9002', text: 'Hi Bob', serviceFromMs: t0 + 4_000, notBeforeMs: t0 }, now);
    const c = await findPublishedReply(s.engage, { mentionId: '9003', text: 'Hi Cy', serviceFromMs: t0 + 6_000, notBeforeMs: t0 }, now);
    expect([a, b, c]).toEqual([
      { outcome: 'published', publisherMentionId: 'pm-1' },
      { outcome: 'published', publisherMentionId: 'pm-2' },
      { outcome: 'absent' },
    ]);
    expect(s.listed).toHaveLength(1);
  });

  it('reads again for an attempt that ended after the shared listing began: its reply may not be in it', async () => {
    const s = service([]);
    let clock = t0 + 20_000;
    const now = () => clock;
    await findPublishedReply(s.engage, { mentionId: '9001', text: 'Hi Ann', serviceFromMs: t0 + 1_000, notBeforeMs: t0 }, now);
    clock += 1_000;
    await findPublishedReply(s.engage, { mentionId: '9002', text: 'Hi Bob', serviceFromMs: t0 + 4_000, notBeforeMs: clock - 500 }, now);
    expect(s.listed).toHaveLength(2);
  });

  it('reads again for a mention older than the shared listing reaches, or once the listing is old', async () => {
    const s = service([]);
    let clock = t0 + 100_000;
    const now = () => clock;
    await findPublishedReply(s.engage, { mentionId: '9001', text: 'x', serviceFromMs: t0 + 60_000, notBeforeMs: t0 }, now);
    await findPublishedReply(s.engage, { mentionId: '9002', text: 'x', serviceFromMs: t0 + 10_000, notBeforeMs: t0 }, now);
    clock += 11_000;
    await findPublishedReply(s.engage, { mentionId: '9003', text: 'x', serviceFromMs: t0 + 60_000, notBeforeMs: t0 }, now);
    expect(s.listed).toHaveLength(3);
  });
});

describe('a shared listing that cannot serve', () => {
  const t0 = Date.UTC(2026, 10, 23, 12, 0, 0);
  const now = () => t0 + 60_000;

  it('a listing cut short by its page bound is not shared, and each candidate is looked up once', async () => {
    const listed: Date[] = [];
    let gets = 0;
    const engage = {
      publisherMentions: {
        // Always another page: both the shared listing and the re-check's own stop at their bound.
        listPages: async function* (q: { dateFrom: Date }) {
          listed.push(q.dateFrom);
          for (let n = 0; ; n++) yield { data: [{ id: `pm-${n}`, message: { content: 'Hi Ann' } }], paging: { next_url: 'more' } };
        },
        get: async (id: string) => {
          gets++;
          return { id, in_reply_to: { id: 'another', topic_id: '2001' } };
        },
      },
    };
    const ask = (mentionId: string) =>
      findPublishedReply(engage as never, { mentionId, text: 'Hi Ann', serviceFromMs: t0 + 40_000, notBeforeMs: t0 }, now);
    expect((await ask('9001')).outcome).toBe('unknown');
    // The shared read, then the re-check's own narrower one; the ids the first looked up are not asked twice.
    expect(listed.map((d) => t0 + 40_000 - d.getTime())).toEqual([31_000, 1_000]);
    expect(gets).toBe(10);
    await ask('9002');
    // Not reused by the next re-check: it reads its own shared listing again.
    expect(listed).toHaveLength(4);
  });

  it('a failed listing is forgotten: the next re-check reads again', async () => {
    let calls = 0;
    const engage = {
      publisherMentions: {
        listPages: async function* () {
          calls++;
          if (calls === 1) throw new Error('503');
          yield { data: [] };
        },
        get: async () => ({ id: 'x' }),
      },
    };
    const ask = () => findPublishedReply(engage as never, { mentionId: '9001', text: 'x', serviceFromMs: t0, notBeforeMs: t0 }, now);
    await expect(ask()).rejects.toThrow('503');
    expect(await ask()).toEqual({ outcome: 'absent' });
    expect(calls).toBe(2);
  });
});

describe('the re-check after a crash never decides "not sent" on text alone (issue 26)', () => {
  it("asks for published history (status=posted) and finds a reply of the bot's user the service shows with another text", async () => {
    const added = Date.UTC(2026, 10, 23, 12, 0, 30);
    const statuses: Array<string | undefined> = [];
    const engage = {
      publisherMentions: {
        listPages: async function* (q: { status?: string }) {
          statuses.push(q.status);
          // The service rendered the reply (a canned response's text, trimmed): not the text the bot sent.
          yield { data: [{ id: 'pm-7', message: { content: 'Hi  Ann ' }, date: { added: added / 1000 + 1 } }] };
        },
        get: async (id: string) => ({ id, user_id: 'u1', in_reply_to: { id: '9001', topic_id: '2001' } }),
      },
    };
    const check = await findPublishedReply(
      engage as never,
      { mentionId: '9001', topicId: '2001', text: 'Hi Ann', botUserId: 'u1', serviceFromMs: added },
      () => added,
    );
    expect(check).toEqual({ outcome: 'published', publisherMentionId: 'pm-7' });
    expect(statuses).toEqual(['posted']);
  });

  describe('decides "sent" only from a reply the bot published', () => {
    const added = Date.UTC(2026, 10, 23, 12, 0, 30);
    const serviceWith = (reply: Record<string, unknown>) => ({
      publisherMentions: {
        listPages: async function* () {
          yield { data: [{ id: 'pm-7', message: reply['message'], date: { added: added / 1000 + 1 } }] };
        },
        get: async (id: string) => ({ id, ...reply, in_reply_to: { id: '9001', topic_id: '2001' } }),
      },
    });
    const check = (engage: unknown, botUserId?: string) =>
      findPublishedReply(
        engage as never,
        { mentionId: '9001', topicId: '2001', text: 'Hi Ann', ...(botUserId ? { botUserId } : {}), serviceFromMs: added },
        () => added,
      );

    it("never from another user's reply to the same mention, even with the bot's text", async () => {
      const agents = serviceWith({ user_id: 'agent-7', message: { content: 'Hi Ann' } });
      expect(await check(agents, 'u1')).toEqual({ outcome: 'absent' });
    });

    it("with no sign of who published it, from the bot's text only; another text leaves it in doubt", async () => {
      expect(await check(serviceWith({ message: { content: 'Hi Ann' } }), 'u1')).toEqual({
        outcome: 'published',
        publisherMentionId: 'pm-7',
      });
      expect(await check(serviceWith({ user_id: 'u1', message: { content: 'Hello there' } }))).toMatchObject({ outcome: 'unknown' });
      expect(await check(serviceWith({ message: { content: 'Hello there' } }), 'u1')).toMatchObject({ outcome: 'unknown' });
    });
  });
});
