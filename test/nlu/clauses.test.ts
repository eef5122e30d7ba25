import { describe, expect, it } from 'vitest';
import { clausesOf, combineClauses } from '../../src/nlu/clauses.js';

const options = (long: boolean) => ({ long, person: '_person', minor: new Set(['thanks', '_none', 'None']) });
const r = (intent: string, score: number) => [{ intent, score }];
/** A clause of five words read as `intent`. */
const c = (intent: string, score: number, words = 5) => ({ ranked: r(intent, score), words });

describe('a message in its clauses', () => {
  it('splits at sentence ends, commas and but / maar / mais, keeping clauses of two words or more', () => {
    expect(clausesOf('Thanks! But where is my order?')).toEqual(['where is my order']);
    expect(clausesOf('thanks for that but where is my order')).toEqual(['thanks for that', 'where is my order']);
    expect(clausesOf('bedankt, maar waar blijft mijn pakje')).toEqual(['waar blijft mijn pakje']);
    expect(clausesOf('merci beaucoup mais je veux savoir où est ma commande')).toEqual([
      'merci beaucoup',
      'je veux savoir où est ma commande',
    ]);
  });

  it('leaves out a joining word a clause starts with', () => {
    expect(clausesOf('it broke at once, and we would like our money back')).toEqual(['it broke at once', 'we would like our money back']);
    expect(clausesOf("c'est cassé, et je veux être remboursé")).toEqual(["c'est cassé", 'je veux être remboursé']);
  });

  it('lets a thanks or an unsure whole yield to a clause that says what is wanted', () => {
    expect(combineClauses(r('thanks', 0.9), [c('thanks', 0.95), c('order_status', 0.9)], options(false))[0]?.intent).toBe('order_status');
    expect(combineClauses(r('hours', 0.4), [c('_none', 0.9), c('order_status', 0.8)], options(false))[0]?.intent).toBe('order_status');
    // A sure whole reading of a short message stands; a thanks with nothing else stays a thanks.
    expect(combineClauses(r('hours', 0.9), [c('order_status', 0.9)], options(false))[0]?.intent).toBe('hours');
    expect(combineClauses(r('thanks', 0.9), [c('thanks', 0.9), c('_none', 0.8)], options(false))[0]?.intent).toBe('thanks');
  });

  it('reads a long message by its last clause that says what is wanted, and a request for a person in any clause', () => {
    const parts = [c('order_status', 0.95), c('_none', 0.9), c('refund', 0.8), c('thanks', 0.99)];
    expect(combineClauses(r('order_status', 0.9), parts, options(true))[0]?.intent).toBe('refund');
    expect(combineClauses(r('order_status', 0.9), [c('_person', 0.9), ...parts], options(true))[0]?.intent).toBe('_person');
    expect(combineClauses(r('order_status', 0.9), [c('_person', 0.6), c('order_status', 0.9)], options(true))[0]?.intent).toBe(
      'order_status',
    );
  });
});
