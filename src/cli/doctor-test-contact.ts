import type { ChannelServices, EngageClient } from '../engage/index.js';
import { handoverServiceOf, sourceServiceOf } from '../engage/channel-services.js';
import { why } from './doctor-attempt.js';
import { fail, pass, type Check } from './doctor-checklist.js';

/** The reply `--test-contact` sends: it says what it is, in case the contact is a real person's after all. */
export const TEST_REPLY_TEXT = 'engage-bridge go-live check: a test reply (doctor --live --test-contact). Please ignore it.';

type Engage = Pick<EngageClient, 'mentions' | 'handover' | 'publisher' | 'publisherMentions' | 'users'>;

export interface TestContactOptions {
  /** `<service>/<id>` as the operator gave it (the handover service, or the channel's name). */
  readonly contact: string;
  readonly channels: readonly string[];
  readonly channelServices: ChannelServices;
  readonly topicIds: readonly string[];
  /** How long the reply's echo is looked for in the mentions list, ms (bounded). */
  readonly echoWaitMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** `--test-contact`'s argument: `service/id`, the service a served channel. A mistake is a message, never a call. */
export function parseTestContact(text: string, channels: readonly string[], services: ChannelServices) {
  const slash = text.indexOf('/');
  const service = text.slice(0, slash);
  const id = text.slice(slash + 1);
  if (slash <= 0 || id === '') return { ok: false as const, error: `--test-contact takes <service>/<id> (got "${text}")` };
  const channel = channels.find((c) => c === service || handoverServiceOf(services, c) === service);
  if (!channel) return { ok: false as const, error: `--test-contact: "${service}" is not a served channel (${channels.join(', ')})` };
  return { ok: true as const, channel, handover: handoverServiceOf(services, channel), source: sourceServiceOf(services, channel), id };
}

/**
 * One full round trip on the operator's own contact (issue 26 part 2), and nothing written anywhere else: claim it,
 * send one reply, read the reply back, check that the echo is recognised as the bot's own and that the publish answer
 * and the publisher mention carry what the crash re-check needs, hand the contact to people, hand it back. Each step
 * is a line; the first step that cannot go on ends the run (what was done so far is said).
 */
export async function testContactRoundTrip(engage: Engage, o: TestContactOptions): Promise<Check[]> {
  const parsed = parseTestContact(o.contact, o.channels, o.channelServices);
  if (!parsed.ok) return [fail('test contact', parsed.error)];
  const { handover, source, id } = parsed;
  const ref = { service: handover, serviceId: id };
  const at = `${handover}/${id}`;
  const checks: Check[] = [];
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await fn();
    } catch (err) {
      checks.push(fail(name, `${why(err)} (stopped here; the steps above were done)`));
      return undefined;
    }
  };

  const page = await step(`test contact ${at}: its newest message`, () =>
    engage.mentions.list({ topicIds: o.topicIds, sort: 'dateadd:desc', limit: 50 }),
  );
  if (!page) return checks;
  const mine = page.data.find((m) => m.source?.service === source && String(m.author?.id) === id && m.author?.managed !== true);
  if (!mine) {
    checks.push(
      fail(
        `test contact ${at}: its newest message`,
        'none among the newest 50 mentions: write one message from that contact, then run again (nothing was written)',
      ),
    );
    return checks;
  }
  checks.push(pass(`test contact ${at}: its newest message`, `mention ${mine.id} in topic ${mine.topic_id}`));

  const claimed = await step(`test contact ${at}: claim (DELETE handover)`, () => engage.handover.toApplication(ref));
  if (!claimed) return checks;
  checks.push(
    claimed.owner === 'application'
      ? pass(`test contact ${at}: claim (DELETE handover)`, 'the bot owns the contact')
      : fail(`test contact ${at}: claim (DELETE handover)`, `the item says owner ${claimed.owner} after the claim`),
  );

  const name = `test contact ${at}: one reply (publisher/add)`;
  const listed = await step(name, () => engage.publisher.services({ type: 'reply', topicId: mine.topic_id, mentionId: mine.id }));
  if (!listed) return checks;
  const from = listed.services.find((s) => s.type === source) ?? listed.services[0];
  if (!from) {
    checks.push(fail(name, 'GET publisher/add lists no service to reply from (nothing was sent)'));
    return checks;
  }
  const sent = await step(name, () =>
    engage.publisher.add({
      type: 'reply',
      services: [{ type: from.type, service_id: from.service_id }],
      message: TEST_REPLY_TEXT,
      status: '',
      topicId: mine.topic_id,
      mentionId: mine.id,
    }),
  );
  if (!sent) return checks;
  const published = sent.publisher_mention;
  if (sent.unread !== undefined || !published) {
    checks.push(
      fail(
        name,
        `sent (2xx) from ${from.type} ${String(from.service_id)}, but the answer is not the envelope with a publisher mention: the bridge counts any 2xx as sent, and after a crash asks publisher/mentions?status=posted instead (issue 26 item 3)`,
      ),
    );
  } else {
    checks.push(
      pass(
        name,
        `sent from ${from.type} ${String(from.service_id)}: publisher mention ${String(published.id)}, ${sent.messages.length} message(s)`,
      ),
    );
  }

  // The re-check after a crash finds the reply among the posted publisher mentions, by the mention it answers.
  const recheck = `test contact ${at}: the re-check finds the reply (publisher/mentions?status=posted)`;
  const posted = await step(recheck, () => engage.publisherMentions.list({ status: 'posted', limit: 50 }));
  const found =
    posted?.data.find((p) => (p.message as { content?: unknown } | undefined)?.content === TEST_REPLY_TEXT) ??
    posted?.data.find((p) => String(p.mention_id ?? '') === String(mine.id));
  if (posted) {
    if (found && found.mention_id !== undefined && found.mention_id !== null) {
      checks.push(
        pass(
          recheck,
          `publisher mention ${String(found.id)} answers mention ${String(found.mention_id)}${found.user_id ? `, user ${String(found.user_id)}` : ''}`,
        ),
      );
    } else {
      checks.push(
        fail(
          recheck,
          found
            ? 'the reply is listed without the mention it answers (mention_id): after a crash the bridge cannot tell it was sent and hands the contact to people with a note instead of a second reply'
            : 'the reply is not listed: after a crash the bridge cannot tell it was sent and hands the contact to people with a note instead of a second reply',
        ),
      );
    }
  }

  const echoName = `test contact ${at}: the reply's echo is the bot's own`;
  const userId = published?.user_id ?? found?.user_id;
  const user = userId === undefined || userId === null ? undefined : await step(echoName, () => engage.users.get(String(userId)));
  const deadline = Date.now() + (o.echoWaitMs ?? 20_000);
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let echo: (typeof page.data)[number] | undefined;
  for (;;) {
    const again = await step(echoName, () => engage.mentions.list({ topicIds: [String(mine.topic_id)], sort: 'dateadd:desc', limit: 50 }));
    if (!again) return checks;
    echo = again.data.find((m) => m.author?.managed === true && m.message?.content === TEST_REPLY_TEXT);
    if (echo || Date.now() >= deadline) break;
    await sleep(1_000);
  }
  if (!echo) {
    checks.push(fail(echoName, `the reply did not show in the mentions list within ${Math.round((o.echoWaitMs ?? 20_000) / 1000)} s`));
  } else if (user?.name !== undefined && echo.author?.name === user.name) {
    checks.push(pass(echoName, `mention ${echo.id}: managed, author "${echo.author?.name}" = the publishing user`));
  } else {
    checks.push(
      fail(
        echoName,
        `mention ${echo.id} is managed but its author "${echo.author?.name ?? ''}" is not the publishing user${user ? ` "${user.name ?? ''}"` : ' (the answer names no user_id)'}: the bridge still knows it as the account's own by its reply service id (${echo.author?.id ?? '?'}), and reads the handover item before taking such a message for a person's (issue 26 item 2)`,
      ),
    );
  }

  const toPeople = `test contact ${at}: hand to people (POST handover)`;
  const held = await step(toPeople, () => engage.handover.toAgents(ref));
  if (!held) return checks;
  checks.push(held.owner === 'agents' ? pass(toPeople, 'people own the contact') : fail(toPeople, `the item says owner ${held.owner}`));
  const back = `test contact ${at}: hand back (DELETE handover)`;
  const returned = await step(back, () => engage.handover.toApplication(ref));
  if (!returned) return checks;
  checks.push(
    returned.owner === 'application'
      ? pass(
          back,
          'the bot owns the contact again; done: one reply sent to this contact, its ownership set three times, nothing else written',
        )
      : fail(back, `the item says owner ${returned.owner}`),
  );
  return checks;
}
