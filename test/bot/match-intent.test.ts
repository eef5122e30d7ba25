import { describe, it, expect } from 'vitest';
import { parseFlows } from '../../src/bot/index.js';
import { matchIntent } from '../../src/bot/match-intent.js';

const flows = parseFlows(
  `greeting: { text: Hi }
fallback: { text: Sorry }
intents:
  coffee:
    keywords: [café]
    then: { reply: coffee }
  delivery:
    phrases: [où est ma commande]
    then: { reply: where }
  order_code:
    patterns: ['\\bcommande\\s+n[°o]\\s*\\d+']
    then: { reply: code }
  order_word:
    keywords: [commande]
    then: { reply: order }
`,
  'intents.yaml',
);

describe('intent matching', () => {
  it.each([
    ['CAFE please', 'coffee', 'café'],
    ['un Café?', 'coffee', 'café'],
    ['OU EST MA COMMANDE', 'delivery', 'où est ma commande'],
    ['ma commande n° 42 est où', 'order_code', 'commande n° 42'],
    ['Commandé hier', 'order_word', 'commande'],
  ])('matches "%s" to %s, case- and accent-insensitive', (text, name, words) => {
    expect(matchIntent(flows, text)).toMatchObject({ name, words });
  });

  it.each(['cafeteria', 'commander', '', '   '])('does not match "%s" (whole words only)', (text) => {
    expect(matchIntent(flows, text)).toBeUndefined();
  });

  it('prefers a pattern over a phrase over a keyword', () => {
    expect(matchIntent(flows, 'où est ma commande no 7')?.name).toBe('order_code');
    expect(matchIntent(flows, 'où est ma commande')?.name).toBe('delivery');
  });
});
