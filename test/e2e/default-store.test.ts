import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startHarness, waitFor } from './harness.js';

describe('the bridge on its default embedded store', () => {
  it('answers a customer and keeps its state in bridge.db, SQLite, with no setting', async () => {
    const h = await startHarness();
    try {
      await h.say('32470001111', 'hello');
      await h.settle();
      await waitFor('the greeting', () => h.outbound().some((o) => o.message.includes('assistant')), 20_000);
      expect(existsSync(join(h.dataDir, 'bridge.db'))).toBe(true);
      expect(existsSync(join(h.dataDir, 'store.json'))).toBe(false);
    } finally {
      await h.stop();
    }
  }, 60_000);
});
