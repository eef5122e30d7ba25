import { describe, expect, it } from 'vitest';
import {
  businessHoursScheduleSchema,
  cannedResponseSchema,
  contactSchema,
  handoverItemSchema,
  mentionSchema,
  pagedListSchema,
  profileGroupInputSchema,
  publisherAddResultSchema,
  publisherServicesSchema,
  sentimentResultSchema,
  userSchema,
  userUpdatesSchema,
} from '../../../src/engage/index.js';

describe('schemas', () => {
  it('refuses an id that is neither text nor a finite number, naming the field', () => {
    for (const bad of [null, true, {}, [], Number.NaN, Number.POSITIVE_INFINITY]) {
      const parsed = mentionSchema.safeParse({ id: 9001, topic_id: bad });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(['topic_id']);
      expect(parsed.error?.issues[0]?.message).toBe('expected an id (string or number)');
    }
    expect(mentionSchema.safeParse({ id: '9001', topic_id: 0 }).data?.topic_id).toBe('0');
  });

  it('normalises numeric ids to strings wherever they appear', () => {
    const m = mentionSchema.parse({
      id: 9001,
      topic_id: 2001,
      author: { id: 324 },
      source: { thread_id: 5 },
      assignment: { user_ids: [1, '2'] },
    });
    expect([m.id, m.topic_id, m.author?.id, m.source?.thread_id]).toEqual(['9001', '2001', '324', '5']);
    expect(m.assignment?.user_ids).toEqual(['1', '2']);
  });

  it('keeps unknown extra fields at every level', () => {
    const m = mentionSchema.parse({ id: 1, topic_id: 2, brand_new: { x: 1 }, message: { content: 'hi', lang: 'en' } });
    expect(m).toMatchObject({ brand_new: { x: 1 }, message: { content: 'hi', lang: 'en' } });
  });

  it('reports a missing required field with its path', () => {
    const result = pagedListSchema(mentionSchema).safeParse({ data: [{ id: 1 }] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['data', 0, 'topic_id']);
  });

  it('accepts a video mention without text or author name', () => {
    expect(mentionSchema.safeParse({ id: 'v1', topic_id: 3, source: { service: 'youtube' } }).success).toBe(true);
  });

  it('accepts quoted UNIX seconds and null update dates', () => {
    const c = contactSchema.parse({ id: 1, date: { added: '1700000000', updated: null } });
    expect(c.date).toEqual({ added: 1700000000, updated: null });
  });

  it('reads tag objects (version 20180115 and later) as their names', () => {
    expect(mentionSchema.parse({ id: 1, topic_id: 2, tags: ['a', { name: 'b', status: 'active' }] }).tags).toEqual(['a', 'b']);
  });

  it('refuses a handover item with an unknown owner', () => {
    expect(handoverItemSchema.safeParse({ owner: 'bot' }).success).toBe(false);
  });

  it('accepts a user role as an object or as an id', () => {
    expect(userSchema.parse({ id: 1, account_role: 7 }).account_role).toBe('7');
    expect(userSchema.parse({ id: 1, account_role: { id: 7, topics: [], permissions: ['x'] } }).account_role).toMatchObject({ id: '7' });
  });

  it('lets a user update carry only the schedule or the role', () => {
    expect(userUpdatesSchema.safeParse({ account_role: 3 }).success).toBe(true);
    expect(userUpdatesSchema.safeParse({ status: 'Busy' }).success).toBe(false);
  });

  it('parses a schedule with its users, reads a 7 (an account counting from 1: issue 26) and refuses a day outside 0..7', () => {
    const s = businessHoursScheduleSchema.parse({
      id: 1,
      name: 'a',
      timezone: 'UTC',
      periods: [{ dayofweek: '1', start: '0900', end: '2400' }],
    });
    expect(s.periods[0]?.dayofweek).toBe(1);
    expect(
      businessHoursScheduleSchema.safeParse({ id: 1, name: 'a', timezone: 'UTC', periods: [{ dayofweek: 8, start: '0900', end: '1000' }] })
        .success,
    ).toBe(false);
    expect(
      businessHoursScheduleSchema.safeParse({ id: 1, name: 'a', timezone: 'UTC', periods: [{ dayofweek: 7, start: '0900', end: '1000' }] })
        .success,
    ).toBe(true);
  });

  it('checks a profile group colour', () => {
    expect(profileGroupInputSchema.safeParse({ name: 'a', color: '#A1b2C3', profiles: [] }).success).toBe(true);
    expect(profileGroupInputSchema.safeParse({ name: 'a', color: '#abc', profiles: [] }).success).toBe(false);
  });

  it('parses the publisher answers and fills missing lists', () => {
    expect(publisherServicesSchema.parse({})).toEqual({ profiles: [], services: [] });
    const r = publisherAddResultSchema.parse({ messages: [{ id: 1, status: 'queued' }], publisher_mention: { id: 2 } });
    expect(r.messages[0]?.id).toBe('1');
  });

  it('parses a canned response of an unknown kind', () => {
    expect(cannedResponseSchema.parse({ id: 1, type: 'carousel' }).type).toBe('carousel');
  });

  it('accepts a sentiment answer as an object or a bare value', () => {
    expect(sentimentResultSchema.parse({ sentiment: 'negative', score: -0.8 })).toMatchObject({ sentiment: 'negative' });
    expect(sentimentResultSchema.parse(0.4)).toEqual({ sentiment: 0.4 });
  });
});
