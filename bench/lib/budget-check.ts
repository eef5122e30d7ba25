import { bucketOf } from '../../src/cli/bridge-options.js';
import { maxInWindow } from './write-rate.js';
import type { RequestEntry } from './sim-client.js';

const WINDOW_S = 10;

/**
 * Did the bridge keep to `ENGAGE_RATE_LIMIT_PER_HOUR`? A token bucket of `burst` and `rate` per second allows
 * at most `burst + rate × W` calls in any W seconds; the simulator's log gives the calls made (by second).
 */
export function budgetCheck(requests: readonly RequestEntry[], perHour: number) {
  const { burst, requestsPerSecond } = bucketOf(perHour);
  const api = requests.filter((r) => !r.path.startsWith('/_sim'));
  const times = api.map((r) => r.date * 1000);
  const first = Math.min(...times);
  const last = Math.max(...times);
  const seconds = Math.max(1, (last - first) / 1000 + 1);
  // Log dates are whole seconds: a window of W seconds of dates spans up to W + 1 real seconds.
  const allowed = Math.floor(burst + requestsPerSecond * (WINDOW_S + 1));
  const busiest = maxInWindow(times, WINDOW_S * 1000);
  return {
    per_hour: perHour,
    calls: api.length,
    calls_per_s: Math.round((api.length / seconds) * 100) / 100,
    budget_per_s: Math.round(requestsPerSecond * 100) / 100,
    busiest_10s_window: busiest,
    allowed_10s_window: allowed,
    // The simulator refuses over-limit calls with 400 rate_limit_reached; no other 400 is expected in this scenario.
    answered_400: api.filter((r) => r.status === 400).length,
    within_budget: busiest <= allowed,
  };
}
