// What the bridge hands the brain about one customer message: the NLU's reading of it.
import type { NluResult } from './nlu-client.js';

export interface Understanding extends NluResult {
  /** Who read it: the embedded model trained from the flows, or the configured NLU server. */
  source: 'embedded' | 'server';
  /** The second likeliest intent, for a clarifying question when neither is sure. */
  runnerUp?: { intent: string; confidence: number } | undefined;
  /** How much of the text each trained language knows, 0 to 1 (the classifier's own language scores). */
  languages?: Readonly<Record<string, number>> | undefined;
  /** The customer's tone as the text reads, in the language it is written in. */
  sentiment?: 'negative' | 'neutral' | 'positive' | undefined;
}

/** Reads a message; never throws (undefined: no reading, the brain uses its keywords). */
export interface Understander {
  parse(text: string): Promise<Understanding | undefined>;
}

/** The server first (a team's own model); the embedded model when there is none or it gives no answer. */
export function firstAnswer(...readers: ReadonlyArray<Understander | undefined>): Understander {
  const present = readers.filter((r): r is Understander => r !== undefined);
  return {
    async parse(text) {
      for (const r of present) {
        const reading = await r.parse(text);
        if (reading) return reading;
      }
      return undefined;
    },
  };
}
