import { describe, expect, it } from 'vitest';
import { firstAnswer, type Understander, type Understanding } from '../../src/nlu/index.js';

const reading = (intent: string, source: Understanding['source']): Understanding => ({ intent, confidence: 0.9, entities: [], source });
const reader = (answer: Understanding | undefined, asked: string[], name: string): Understander => ({
  async parse(text) {
    asked.push(`${name}:${text}`);
    return answer;
  },
});

describe('the server first, the embedded model after it', () => {
  it("takes the server's reading when it answers, and only then skips the embedded model", async () => {
    const asked: string[] = [];
    const both = firstAnswer(
      reader(reading('check_order', 'server'), asked, 'server'),
      reader(reading('order_status', 'embedded'), asked, 'embedded'),
    );
    expect(await both.parse('hi')).toMatchObject({ intent: 'check_order', source: 'server' });
    expect(asked).toEqual(['server:hi']);
  });

  it('asks the embedded model when the server gives no answer, or when there is no server', async () => {
    const asked: string[] = [];
    const both = firstAnswer(reader(undefined, asked, 'server'), reader(reading('order_status', 'embedded'), asked, 'embedded'));
    expect(await both.parse('hi')).toMatchObject({ intent: 'order_status', source: 'embedded' });
    expect(asked).toEqual(['server:hi', 'embedded:hi']);
    expect(await firstAnswer(undefined, reader(reading('thanks', 'embedded'), [], 'e')).parse('x')).toMatchObject({ intent: 'thanks' });
    expect(await firstAnswer().parse('x')).toBeUndefined();
  });
});
