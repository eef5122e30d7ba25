import { describe, it, expect } from 'vitest';
import { judgeCampaign } from '../../bench/lib/chaos-verdict.js';
import type { DriverEvent } from '../../bench/lib/chaos-events.js';
import type { OutboundEntry, RequestEntry } from '../../bench/lib/sim-client.js';

let seq = 0;
const req = (method: string, path: string, params: Record<string, string> = {}, status = 200): RequestEntry => ({
  seq: ++seq,
  method,
  path,
  params,
  status,
  duration_ms: 1,
  date: 0,
  at_ms: 0,
});
const publish = (contact: string, mentionId: string, message: string, status = 200) =>
  req(
    'POST',
    '/1001/publisher/add',
    { mention_id: mentionId, message, services: JSON.stringify([{ type: 'whatsapp', service_id: contact }]) },
    status,
  );
const handover = (method: string, contact: string) => req(method, `/1001/inbox/handover/whatsapp/${contact}`);
let outSeq = 0;
const bot = (contact: string, mentionId: string, message: string): OutboundEntry => ({
  seq: ++outSeq,
  mention_id: mentionId,
  message,
  author: 'bot',
  date: 0,
  recipient: { channel: 'whatsapp', service_id: contact },
  services: [{ type: 'whatsapp', service_id: contact }],
});
const message = (contact: string, mentionId: string, before: number): DriverEvent => ({
  kind: 'message',
  contact,
  mentionId,
  text: 'hi',
  before,
});

describe('judgeCampaign', () => {
  it('counts a message with a bot reply as answered', () => {
    const requests = [handover('GET', 'a'), publish('a', '1', 'Hi')];
    const v = judgeCampaign([message('a', '1', 0)], requests, [bot('a', '1', 'Hi')]);
    expect(v).toMatchObject({ answered: 1, escalated: 0, lost: 0, doubled: 0, talk_over: 0 });
  });

  it("measures each answered message's wait from being sent to the bot's first reply seen, and reports median and worst", () => {
    const requests = [handover('GET', 'a'), publish('a', '1', 'Hi'), publish('a', '2', 'Ho'), publish('a', '3', 'Hu')];
    const sent = (id: string, at: number): DriverEvent => ({ ...(message('a', id, 0) as object), sentAt: at }) as DriverEvent;
    const seen = (id: string, text: string, at: number) => ({ ...bot('a', id, text), seenAt: at });
    const v = judgeCampaign([sent('1', 1_000), sent('2', 2_000), sent('3', 3_000)], requests, [
      seen('1', 'Hi', 1_200),
      seen('2', 'Ho', 2_900),
      seen('3', 'Hu', 3_400),
    ]);
    expect(v.details.wait_ms).toEqual({ median: 400, worst: 900 });
    expect(judgeCampaign([message('a', '1', 0)], requests, [bot('a', '1', 'Hi')]).details.wait_ms).toBeNull();
  });

  it('counts an unanswered message as handled by people when an agent took the contact after it', () => {
    const r0 = req('GET', '/1001/inbox/mentions');
    const events: DriverEvent[] = [message('b', '2', r0.seq), { kind: 'take', contact: 'b', before: r0.seq, after: r0.seq + 1 }];
    const v = judgeCampaign(events, [r0, req('GET', '/1001/inbox/mentions')], []);
    expect(v).toMatchObject({ answered: 0, escalated: 1, lost: 0 });
  });

  it('counts a message as lost when the bot answered a later one and nobody held the contact', () => {
    const requests = [req('GET', '/1001/inbox/mentions'), publish('c', '5', 'Sure')];
    const v = judgeCampaign([message('c', '4', 1), message('c', '5', 1)], requests, [bot('c', '5', 'Sure')]);
    expect(v).toMatchObject({ answered: 1, lost: 1 });
    expect(v.details.lost_mentions).toEqual(['4']);
  });

  it('counts a message nobody ever answered, on a contact the bot kept, as lost', () => {
    const v = judgeCampaign([message('c2', '9', 0)], [req('GET', '/1001/inbox/mentions')], []);
    expect(v).toMatchObject({ answered: 0, escalated: 0, lost: 1 });
  });

  it('counts the same reply sent twice to one mention as doubled, and two different replies not', () => {
    const requests = [publish('d', '6', 'Hi'), publish('d', '6', 'Hi'), publish('d', '7', 'One'), publish('d', '7', 'Two')];
    const out = [bot('d', '6', 'Hi'), bot('d', '6', 'Hi'), bot('d', '7', 'One'), bot('d', '7', 'Two')];
    const v = judgeCampaign([message('d', '6', 0), message('d', '7', 0)], requests, out);
    expect(v.doubled).toBe(1);
    expect(v.details.doubled_mentions).toEqual(['6']);
    expect(v.details.mentions_with_several_replies).toBe(2);
  });

  it('counts a bot message after the bridge handed the contact to agents as talk-over', () => {
    const requests = [handover('POST', 'e'), publish('e', '8', 'Anything else?')];
    const v = judgeCampaign([message('e', '8', 0)], requests, [bot('e', '8', 'Anything else?')]);
    expect(v.talk_over).toBe(1);
  });

  it('does not count a reply as talk-over once the contact was given back to the bot', () => {
    const requests = [handover('POST', 'g'), handover('DELETE', 'g'), publish('g', '11', 'Back with the bot')];
    const v = judgeCampaign([message('g', '11', 0)], requests, [bot('g', '11', 'Back with the bot')]);
    expect(v.talk_over).toBe(0);
  });

  it("takes the owner the service answered to the bridge's check as the truth at that point of the log", () => {
    // The driver's return was in flight across the bridge's own handover: only the service's answer to the
    // bridge's next check tells which landed last.
    const before = req('GET', '/1001/inbox/mentions');
    const post = handover('POST', 'r');
    const after = req('GET', '/1001/inbox/mentions');
    const events: DriverEvent[] = [message('r', '21', 0), { kind: 'return', contact: 'r', before: before.seq, after: after.seq }];
    const checked = (owner: 'agents' | 'application') => ({ ...handover('GET', 'r'), owner });
    const reply = () => publish('r', '21', 'Back with the bot');
    const withBot = judgeCampaign(events, [before, post, after, checked('application'), reply()], [bot('r', '21', 'Back with the bot')]);
    expect(withBot.talk_over).toBe(0);
    const withPeople = judgeCampaign(events, [before, post, after, checked('agents'), reply()], [bot('r', '21', 'Back with the bot')]);
    expect(withPeople.talk_over).toBe(1);
    // A take in flight across the bridge's own claim (DELETE): the check says the bridge's claim landed last.
    const t0 = req('GET', '/1001/inbox/mentions');
    const claim = handover('DELETE', 's');
    const t1 = req('GET', '/1001/inbox/mentions');
    const take: DriverEvent[] = [message('s', '22', 0), { kind: 'take', contact: 's', before: t0.seq, after: t1.seq }];
    const claimed = judgeCampaign(
      take,
      [t0, claim, t1, { ...handover('GET', 's'), owner: 'application' }, publish('s', '22', 'Hi')],
      [bot('s', '22', 'Hi')],
    );
    expect(claimed.talk_over).toBe(0);
  });

  it('tells a reply on an owner confirmed just before an agent took the contact (race) from talk-over', () => {
    const check = handover('GET', 'f');
    const marker = req('GET', '/1001/inbox/mentions');
    const racy = publish('f', '9', 'Racy');
    const recheck = handover('GET', 'f');
    const late = publish('f', '10', 'Late');
    const events: DriverEvent[] = [
      message('f', '9', 0),
      message('f', '10', 0),
      { kind: 'take', contact: 'f', before: check.seq, after: marker.seq },
    ];
    const v = judgeCampaign(events, [check, marker, racy, recheck, late], [bot('f', '9', 'Racy'), bot('f', '10', 'Late')]);
    expect(v.talk_over).toBe(1);
    expect(v.details.talk_over_mentions).toEqual(['10']);
    expect(v.details.talk_over_races).toBe(1);
  });

  it('places a bot message on the last successful publish, since a malformed answer published nothing', () => {
    const faulted = publish('h', '12', 'Hi');
    const take: DriverEvent = { kind: 'take', contact: 'h', before: faulted.seq, after: faulted.seq };
    const back = req('GET', '/1001/inbox/mentions');
    const real = publish('h', '12', 'Hi');
    const events: DriverEvent[] = [message('h', '12', 0), take, { kind: 'return', contact: 'h', before: back.seq, after: back.seq }];
    const v = judgeCampaign(events, [faulted, back, real], [bot('h', '12', 'Hi')]);
    expect(v).toMatchObject({ answered: 1, talk_over: 0, doubled: 0 });
    expect(v.details.talk_over_races).toBe(0);
  });

  it("keeps the order of the driver's actions when the request log did not move (the bridge was down)", () => {
    const r = req('GET', '/1001/inbox/mentions');
    const events: DriverEvent[] = [{ kind: 'take', contact: 'k', before: r.seq, after: r.seq }, message('k', '13', r.seq)];
    expect(judgeCampaign(events, [r], [])).toMatchObject({ escalated: 1, lost: 0 });
    const reversed: DriverEvent[] = [message('k', '13', r.seq), { kind: 'return', contact: 'k', before: r.seq, after: r.seq }];
    expect(judgeCampaign(reversed, [r], [])).toMatchObject({ escalated: 0, lost: 1 });
  });

  it("counts silence while the bridge's escalation is open as handled by people, until the bot speaks again", () => {
    const note = req('POST', '/1001/inbox/mention/2001/20', { updates: '{}' });
    const events: DriverEvent[] = [
      message('p', '20', 0),
      message('p', '21', note.seq),
      message('p', '22', note.seq),
      message('p', '23', note.seq),
    ];
    const cancel = publish('p', '22', 'OK, cancelled');
    const v = judgeCampaign(events, [note, cancel, publish('p', '23', 'Sure')], [bot('p', '22', 'OK, cancelled'), bot('p', '23', 'Sure')]);
    expect(v).toMatchObject({ answered: 2, escalated: 2, lost: 0 });
  });

  it('lets an open escalation lapse after the handover grace', () => {
    const note = { ...req('POST', '/1001/inbox/mention/2001/30', { updates: '{}' }), date: 1000 };
    const later = { ...req('GET', '/1001/inbox/mentions'), date: 1000 + 301 };
    const events: DriverEvent[] = [message('q', '30', 0), message('q', '31', later.seq), message('q', '32', later.seq)];
    const v = judgeCampaign(events, [note, later, publish('q', '32', 'Hi')], [bot('q', '32', 'Hi')], 300);
    // 30 is the message that was escalated; 31 came after the grace, and the bot said nothing to it.
    expect(v).toMatchObject({ escalated: 1, lost: 1 });
    expect(v.details.lost_mentions).toEqual(['31']);
  });

  it('counts replies published after a reply to a later message of the same customer', () => {
    const out = [bot('r', '41', 'B'), bot('r', '40', 'A'), bot('r', '42', 'C')];
    const v = judgeCampaign(
      [message('r', '40', 0), message('r', '41', 0), message('r', '42', 0)],
      [publish('r', '41', 'B'), publish('r', '40', 'A'), publish('r', '42', 'C')],
      out,
    );
    expect(v.details.replies_out_of_order).toBe(1);
  });
});
