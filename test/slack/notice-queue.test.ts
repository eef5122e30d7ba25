import { describe, expect, it } from 'vitest';
import { createNoticeQueue, retryAfterSeconds } from '../../src/slack/notice-queue.js';
import { recordingLogger } from './slack-test-kit.js';

const rateLimited = (seconds: number): Error =>
  Object.assign(new Error('rate limited'), { code: 'slack_webapi_rate_limited_error', retryAfter: seconds });

describe('the Slack notice queue', () => {
  it('waits the Retry-After of a 429 through the injected sleep, then sends the same notice again', async () => {
    const sleeps: number[] = [];
    const sent: string[] = [];
    let failures = 1;
    const queue = createNoticeQueue({ logger: recordingLogger(), sleep: async (ms) => void sleeps.push(ms) });
    queue.push('a', async () => {
      if (failures-- > 0) throw rateLimited(12);
      sent.push('a');
    });
    queue.push('b', async () => void sent.push('b'));
    await queue.idle();
    expect(sleeps).toEqual([12_000]);
    expect(sent).toEqual(['a', 'b']);
  });

  it('holds every later notice while rate limited, keeping their order', async () => {
    const order: string[] = [];
    let release: (() => void) | undefined;
    const queue = createNoticeQueue({
      logger: recordingLogger(),
      sleep: (ms) =>
        new Promise<void>((resolve) => {
          order.push(`sleep ${ms}`);
          release = resolve;
        }),
    });
    let first = true;
    queue.push('a', async () => {
      if (first) {
        first = false;
        throw rateLimited(3);
      }
      order.push('a');
    });
    queue.push('b', async () => void order.push('b'));
    while (release === undefined) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(order).toEqual(['sleep 3000']);
    release();
    await queue.idle();
    expect(order).toEqual(['sleep 3000', 'a', 'b']);
  });

  it('drops the oldest waiting notice with a log line when full', async () => {
    const logger = recordingLogger();
    const sent: string[] = [];
    let release: (() => void) | undefined;
    const queue = createNoticeQueue({ logger, sleep: async () => undefined, maxSize: 3 });
    queue.push(
      'in-flight',
      () =>
        new Promise<void>((resolve) => {
          release = () => {
            sent.push('in-flight');
            resolve();
          };
        }),
    );
    for (const label of ['w1', 'w2', 'w3']) queue.push(label, async () => void sent.push(label));
    expect(queue.size()).toBe(3);
    release?.();
    await queue.idle();
    expect(sent).toEqual(['in-flight', 'w2', 'w3']);
    expect(logger.lines).toContainEqual({
      level: 'warn',
      data: { notice: 'w1', maxSize: 3 },
      msg: 'Slack notice queue full: dropped the oldest notice',
    });
  });

  it('drops a notice that fails for another reason, logs it without the error stack, and carries on', async () => {
    const logger = recordingLogger();
    const sent: string[] = [];
    const queue = createNoticeQueue({ logger, sleep: async () => undefined });
    queue.push('bad', async () => {
      throw new Error('channel_not_found');
    });
    queue.push('good', async () => void sent.push('good'));
    await queue.idle();
    expect(sent).toEqual(['good']);
    expect(logger.lines).toContainEqual({
      level: 'warn',
      data: { notice: 'bad', err: 'channel_not_found' },
      msg: 'Slack notice failed and was dropped',
    });
  });

  it('gives a notice up after repeated rate limiting', async () => {
    const logger = recordingLogger();
    const sleeps: number[] = [];
    const queue = createNoticeQueue({ logger, sleep: async (ms) => void sleeps.push(ms), maxRateLimitedAttempts: 3 });
    queue.push('stubborn', async () => {
      throw rateLimited(1);
    });
    await queue.idle();
    expect(sleeps).toEqual([1000, 1000]);
    expect(logger.lines.some((line) => line.msg === 'Slack notice dropped after repeated rate limiting')).toBe(true);
  });

  it('never throws into the caller, even after stop', () => {
    const logger = recordingLogger();
    const queue = createNoticeQueue({ logger, sleep: async () => undefined });
    queue.stop();
    expect(() => queue.push('late', () => Promise.reject(new Error('x')))).not.toThrow();
    expect(queue.size()).toBe(0);
    expect(logger.lines.some((line) => line.msg === 'Slack notice dropped: the Slack app is stopped')).toBe(true);
  });

  it('reads the wait of a rate-limit error and ignores every other error', () => {
    expect(retryAfterSeconds(rateLimited(30))).toBe(30);
    expect(retryAfterSeconds({ code: 'slack_webapi_rate_limited_error' })).toBe(1);
    expect(retryAfterSeconds(new Error('nope'))).toBeUndefined();
    expect(retryAfterSeconds(null)).toBeUndefined();
  });
});
