// The reader of customers' messages: the NLU server when one is configured, the embedded model trained from the flows
// after it (or alone). Trained once, as the bridge starts (a command-only bridge: at its first customer message).
import { missingExamples, trainingSetOf, type Flows } from '../bot/index.js';
import { firstAnswer, trainEmbeddedNlu, type NluParser, type Understander } from '../nlu/index.js';
import type { EngageLogger as Logger } from '../engage/index.js';

/** The server's readings, marked as such (its intent names are mapped by the flows' `nlu.intents`). */
function serverReader(server: NluParser): Understander {
  return {
    async parse(text) {
      const r = await server.parse(text);
      return r && { ...r, source: 'server' as const };
    },
  };
}

export function loadUnderstanding(
  flows: Flows,
  server: NluParser | undefined,
  log: Pick<Logger, 'info' | 'warn'>,
): () => Promise<Understander | undefined> {
  let loading: Promise<Understander | undefined> | undefined;
  const load = async (): Promise<Understander | undefined> => {
    const fromServer = server ? serverReader(server) : undefined;
    if (!flows.nlu.embedded.enabled) return fromServer;
    try {
      const embedded = await trainEmbeddedNlu(trainingSetOf(flows));
      log.info(
        { examples: embedded.examples, languages: embedded.languages, ms: Math.round(embedded.trainingMs) },
        'the embedded NLU is trained from the flows',
      );
      const gaps = missingExamples(flows);
      if (gaps.length > 0) log.warn({ gaps }, 'some intents have no examples in a declared language: keywords only there');
      return firstAnswer(fromServer, embedded);
    } catch (err) {
      log.warn({ err: (err as Error)?.message ?? String(err) }, 'could not train the embedded NLU: keywords only');
      return fromServer;
    }
  };
  return () => {
    loading ??= load();
    return loading;
  };
}
