const POSITIVE = new Set(
  'good great thanks thank love excellent perfect happy awesome nice helpful fast amazing wonderful fantastic pleased glad merci super'.split(
    ' ',
  ),
);
const NEGATIVE = new Set(
  'bad terrible awful hate angry slow broken never worst problem refund late wrong horrible disappointed useless complaint cancel not'.split(
    ' ',
  ),
);

export type Sentiment = 'positive' | 'neutral' | 'negative';

/** A deterministic word-list scorer: the simulator needs stable answers, not a good model. */
export function scoreSentiment(text: string): { sentiment: Sentiment; score: number } {
  let score = 0;
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (POSITIVE.has(word)) score += 1;
    else if (NEGATIVE.has(word)) score -= 1;
  }
  const sentiment: Sentiment = score > 0 ? 'positive' : score < 0 ? 'negative' : 'neutral';
  return { sentiment, score };
}
