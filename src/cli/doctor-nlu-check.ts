import type { Config } from '../config.js';
import { nluTarget, shownAddress } from '../nlu/index.js';
import { fail, pass, type Check } from './doctor-checklist.js';

const NAME = 'NLU server (BRIDGE_NLU_URL)';
const PROBE_TIMEOUT_MS = 5_000;

/** Asks the NLU server to parse a word, as the bridge would, and says whether it answers well within the time budget. */
export async function nluCheck(nlu: Config['nlu']): Promise<Check | undefined> {
  if (!nlu.url) return undefined;
  let target: ReturnType<typeof nluTarget>;
  let shown: string;
  try {
    target = nluTarget(nlu.url);
    shown = shownAddress(nlu.url);
  } catch {
    return fail(NAME, 'not a valid address');
  }
  const { endpoint, headers } = target;
  const started = performance.now();
  try {
    const res = await fetch(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify({ text: 'hello' }),
      signal: AbortSignal.timeout(Math.max(PROBE_TIMEOUT_MS, nlu.timeoutMs)),
    });
    const ms = Math.round(performance.now() - started);
    if (!res.ok) return fail(NAME, `${shown} answered HTTP ${res.status}; is it a Rasa server with the HTTP API enabled?`);
    const body = (await res.json()) as { intent?: { name?: unknown; confidence?: unknown } };
    if (typeof body?.intent?.name !== 'string' || typeof body.intent.confidence !== 'number') {
      return fail(NAME, `${shown} did not answer with a Rasa parse result (intent.name, intent.confidence)`);
    }
    if (ms > nlu.timeoutMs) {
      return fail(NAME, `answered in ${ms} ms, over the ${nlu.timeoutMs} ms budget (BRIDGE_NLU_TIMEOUT_MS): the bot would use keywords`);
    }
    return pass(NAME, `${shown} read "hello" as ${body.intent.name} (${body.intent.confidence.toFixed(2)}) in ${ms} ms`);
  } catch (err) {
    const e = err as Error;
    const reason =
      e.name === 'TimeoutError'
        ? `no answer within ${Math.max(PROBE_TIMEOUT_MS, nlu.timeoutMs)} ms`
        : e.message.replaceAll(endpoint, shown);
    return fail(NAME, `${shown}: ${reason}; the bot answers with keywords only while it is unreachable`);
  }
}
