import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidParameterError, MalformedResponseError, PageLimitError, type Mention } from '../../../src/engage/index.js';
import { ok, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { testClient, TOKEN } from '../helpers/test-client.js';
import { waitFor } from '../../support/wait-for.js';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

const sample = {
  id: '9001',
  unique_id: '2001_9001',
  topic_id: 2001,
  status: 'new',
  source: { service: 'whatsapp', type: 'WhatsApp', sender: '32470000001' },
  author: { id: 32470000001, name: 'Ann', managed: false },
  message: { type: 'privatemessage', content: 'Where is my order?', sentiment: 'neutral', entities: [] },
  buttons: [],
  clicked_buttons: [{ id: 'b2', title: 'Order status' }],
  date: { added: 1700000000 },
  actions: [{ type: 'reply', user_id: 'u1', date: { added: 1700000100 } }],
  action_links: [{ type: 'api', key: 'reply', http_method: 'POST', link: 'https://api.engagor.com/1001/publisher/add/' }],
  timestamps: { response_time: 0, handle_time: 0 },
};

const page = (ids: number[], next: string | null) =>
  ok({ count: 99, data: ids.map((id) => ({ id, topic_id: 2001 })), paging: { next_url: next, previous_url: null } });

async function collect(pages: AsyncIterable<{ data: Mention[] }>): Promise<string[]> {
  const ids: string[] = [];
  for await (const p of pages) ids.push(...p.data.map((m) => m.id));
  return ids;
}

describe('mentions', () => {
  it('gets a mention and parses buttons, actions, action links and timestamps', async () => {
    const { client } = testClient(server);
    server.script(ok(sample));
    const mention = await client.mentions.get({ topicId: 2001, id: 9001 });
    expect(server.requests[0]!.url.split('?')[0]).toBe('/1001/inbox/mention/2001/9001');
    expect(mention.topic_id).toBe('2001');
    expect(mention.author?.id).toBe('32470000001');
    expect(mention.clicked_buttons?.[0]?.title).toBe('Order status');
    expect(mention.actions?.[0]?.type).toBe('reply');
    expect(mention.action_links?.[0]?.key).toBe('reply');
  });

  it('refuses sendMail under a version older than 20160108', async () => {
    const { client } = testClient(server, { version: '20150101' });
    await expect(client.mentions.update({ topicId: 1, id: 2 }, { status: 'done' }, { options: { sendMail: true } })).rejects.toBeInstanceOf(
      InvalidParameterError,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('refuses an unknown update option and an empty update', async () => {
    const { client } = testClient(server);
    await expect(
      client.mentions.update({ topicId: 1, id: 2 }, { status: 'done' }, { options: { nope: 1 } as never }),
    ).rejects.toBeInstanceOf(InvalidParameterError);
    await expect(client.mentions.update({ topicId: 1, id: 2 }, {})).rejects.toBeInstanceOf(InvalidParameterError);
    expect(server.requests).toHaveLength(0);
  });

  it('sends list dates as ISO 8601 and validates the limit (0..100)', async () => {
    const { client } = testClient(server);
    await expect(client.mentions.list({ limit: 101 })).rejects.toBeInstanceOf(InvalidParameterError);
    await expect(client.mentions.list({ limit: -1 })).rejects.toBeInstanceOf(InvalidParameterError);
    await expect(client.mentions.list({ dateFrom: 'yesterday' })).rejects.toBeInstanceOf(InvalidParameterError);
    expect(server.requests).toHaveLength(0);
    server.script(page([], null));
    await client.mentions.list({
      dateFrom: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)),
      dateTo: '2024-01-03T00:00:00Z',
      limit: 0,
      pageToken: 'abc',
    });
    const params = server.requests[0]!.params;
    expect(params.get('date_from')).toBe('2024-01-02T03:04:05.000Z');
    expect(params.get('date_to')).toBe('2024-01-03T00:00:00Z');
    expect(params.get('limit')).toBe('0');
    expect(params.get('page_token')).toBe('abc');
  });

  it('follows paging.next_url across pages with the auth header and without the token in the URL', async () => {
    const { client } = testClient(server);
    server.script(
      page([1, 2], `${server.baseUrl}/1001/inbox/mentions?page_token=p2&version=20210601`),
      page([3], `${server.baseUrl}/1001/inbox/mentions?page_token=p3&access_token=${TOKEN}&version=20210601`),
      page([4], null),
    );
    expect(await collect(client.mentions.listPages({ limit: 2 }))).toEqual(['1', '2', '3', '4']);
    expect(server.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('page_token'))).toEqual([null, 'p2', 'p3']);
    for (const req of server.requests) {
      expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(req.url).not.toContain(TOKEN);
    }
  });

  it('stops with PageLimitError after the page guard, having yielded the pages read', async () => {
    const { client } = testClient(server, { maxPages: 2 });
    server.script(
      page([1], `${server.baseUrl}/1001/inbox/mentions?page_token=a`),
      page([2], `${server.baseUrl}/1001/inbox/mentions?page_token=b`),
    );
    const ids: string[] = [];
    const error = await (async () => {
      for await (const p of client.mentions.listPages()) ids.push(...p.data.map((m) => m.id));
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PageLimitError);
    expect(ids).toEqual(['1', '2']);
    expect(server.requests).toHaveLength(2);
  });

  it('with prefetch, asks for the next page while the caller still works on the one it has', async () => {
    const { client } = testClient(server, { maxPages: 3 });
    server.script(
      page([1], `${server.baseUrl}/1001/inbox/mentions?page_token=p2`),
      page([2], `${server.baseUrl}/1001/inbox/mentions?page_token=p3`),
      page([3], `${server.baseUrl}/1001/inbox/mentions?page_token=p4`),
    );
    const pages = client.mentions.listPages({}, { prefetch: true })[Symbol.asyncIterator]();
    expect((await pages.next()).value?.data.map((m: Mention) => m.id)).toEqual(['1']);
    // The caller has not asked for page 2 yet: it is on its way already.
    await waitFor('the second page asked for', () => server.requests.length === 2);
    expect((await pages.next()).value?.data.map((m: Mention) => m.id)).toEqual(['2']);
    expect((await pages.next()).value?.data.map((m: Mention) => m.id)).toEqual(['3']);
    // The guard still yields every page read before it stops, and asks for none past it.
    await expect(pages.next()).rejects.toBeInstanceOf(PageLimitError);
    expect(server.requests).toHaveLength(3);
  });

  it('with prefetch, a failure of the next page is thrown when the caller gets there, after the page it has', async () => {
    const { client } = testClient(server);
    server.script(page([1], 'https://evil.example/1001/inbox/mentions?page_token=x'));
    const ids: string[] = [];
    const error = await (async () => {
      for await (const p of client.mentions.listPages({}, { prefetch: true })) ids.push(...p.data.map((m) => m.id));
    })().catch((e: unknown) => e);
    expect(ids).toEqual(['1']);
    expect(String(error)).toMatch(/another origin/);
  });

  it('refuses to follow a next_url that repeats a page or points at another origin', async () => {
    const { client } = testClient(server);
    const again = `${server.baseUrl}/1001/inbox/mentions?page_token=a`;
    server.script(page([1], again), page([2], again));
    await expect(collect(client.mentions.listPages())).rejects.toBeInstanceOf(MalformedResponseError);
    server.requests.length = 0;
    server.script(page([1], 'https://evil.example/1001/inbox/mentions?page_token=x'));
    await expect(collect(client.mentions.listPages())).rejects.toThrow(/another origin/);
    expect(server.requests).toHaveLength(1);
  });

  it('reads a mention already recorded for what a re-read can change only, and gives any other the full check', async () => {
    const { client } = testClient(server);
    // An attachment list that is not a list: the full check refuses it, the check of a known mention never reads it.
    const odd = { ...sample, attachments: 'not a list' };
    server.script(ok({ data: [odd, { ...odd, id: '9002' }, { ...sample, id: '9003', date: 'yesterday' }], paging: { next_url: null } }));
    const asked: string[] = [];
    const isKnown = async (topicId: string, id: string) => {
      asked.push(`${topicId}/${id}`);
      return id !== '9002';
    };
    const pages: Array<{ data: Mention[]; invalid: unknown[]; known?: ReadonlySet<Mention> }> = [];
    for await (const p of client.mentions.listPages({}, { isKnown })) pages.push(p);
    expect(asked).toEqual(['2001/9001', '2001/9002', '2001/9003']);
    const [known] = pages[0]?.data ?? [];
    // The page says which of its items the caller found recorded, so the caller need not ask its store again.
    expect([...(pages[0]?.known ?? [])]).toEqual([known]);
    // What places it and what a person's reply adds is read; its text and the rest are dropped, not passed on unchecked.
    expect(known).toEqual({
      id: '9001',
      topic_id: '2001',
      source: sample.source,
      author: { id: '32470000001', name: 'Ann', managed: false },
      date: { added: 1700000000 },
      actions: [{ type: 'reply', user_id: 'u1', date: { added: 1700000100 } }],
    });
    // Unknown: the full check names the odd field. Known but its date unreadable: the full check names that too.
    expect(pages[0]?.invalid).toEqual([
      { id: '9002', problem: expect.stringMatching(/attachments/) },
      { id: '9003', problem: expect.stringMatching(/date/) },
    ]);
  });

  it('skips a mention without topic_id alone, naming the field, and keeps the rest of the page', async () => {
    const { client } = testClient(server);
    server.script(ok({ data: [{ id: 1, topic_id: 2 }, { id: 3 }], paging: { next_url: null } }));
    const page = await client.mentions.list();
    expect(page.data.map((m) => m.id)).toEqual(['1']);
    expect(page.invalid).toEqual([{ id: '3', problem: expect.stringMatching(/topic_id/) }]);
  });
});
