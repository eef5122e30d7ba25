import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

describe('the e2e harness clocks', () => {
  it("keeps the service's offset when the test moves the bridge's clock", async () => {
    h = await startHarness({ frozenClock: true });
    h.setServiceOffset(30);
    h.advance(60_000);
    // What the service dates without a customer writing (an agent's action) is on its own clock: ours plus 30 s.
    expect(h.sim.now()).toBe(Math.floor(h.now() / 1000) + 30);
  });

  it('moves a frozen bridge clock only when the test moves it', async () => {
    h = await startHarness({ frozenClock: true });
    const at = h.now();
    await h.settle();
    expect(h.now()).toBe(at);
    h.advance(1_500);
    expect(h.now()).toBe(at + 1_500);
  });
});
