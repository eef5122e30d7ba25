import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../support/wait-for.js';
import type { LanguageGuesser } from '../../../src/bot/index.js';
import { KEY, coreWorld, customerWrites, drain, flows, type CoreWorld } from './core-harness.js';

let world: CoreWorld | undefined;
afterEach(async () => {
  world?.engage.releaseAll();
  await world?.bridge.stop();
  world = undefined;
});

/** A loader that counts its calls; its guesser says English. */
function countingLoader(): { load: () => Promise<LanguageGuesser>; calls: () => number } {
  let calls = 0;
  return {
    load: async () => {
      calls++;
      return (_text, only) => only.map((lang) => ({ lang, accuracy: lang === 'en' ? 1 : 0 }));
    },
    calls: () => calls,
  };
}

// The detector's module takes 0.1–0.4 s to evaluate, blocking everything else: loaded at the first customer's
// message, it stalled the first answers of a burst (the benchmark's webhook burst sent no call for 0.35 s).
describe('the language detector is loaded as the bridge starts, not in a customer’s answer', () => {
  it('is loaded once by start, before any message, and the answers use it without loading it again', async () => {
    const loader = countingLoader();
    world = await coreWorld({ languageGuesser: loader.load });
    await world.bridge.start({ poll: false, schedule: false });
    expect(loader.calls()).toBe(1);
    await customerWrites(world.store, KEY, 'hello there, how are you', 1_000);
    await drain(world.bridge, KEY);
    expect(world.engage.replies()).toHaveLength(1);
    expect(loader.calls()).toBe(1);
  });

  it('start does not finish before the detector is loaded: the loops never start with the load still to come', async () => {
    let release = (): void => undefined;
    const pending = new Promise<void>((resolve) => {
      release = resolve;
    });
    let loads = 0;
    world = await coreWorld({
      languageGuesser: async () => {
        loads++;
        await pending;
        return (_text, only) => only.map((lang) => ({ lang, accuracy: lang === 'en' ? 1 : 0 }));
      },
    });
    let started = false;
    const starting = world.bridge.start({ poll: false, schedule: false }).then(() => {
      started = true;
    });
    await waitFor('the load begun', () => loads === 1);
    // Everything start waits for apart from the load is in memory here: give it every chance to finish early.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(started).toBe(false);
    release();
    await starting;
    expect(started).toBe(true);
    expect(loads).toBe(1);
  });

  it('is not loaded when the flows have a single language: nothing could be guessed', async () => {
    const loader = countingLoader();
    const single = { ...flows, languages: { ...flows.languages, default: 'en', supported: [] } };
    world = await coreWorld({ languageGuesser: loader.load, flows: single });
    await world.bridge.start({ poll: false, schedule: false });
    await customerWrites(world.store, KEY, 'hello there, how are you', 1_000);
    await drain(world.bridge, KEY);
    expect(world.engage.replies()).toHaveLength(1);
    expect(loader.calls()).toBe(0);
  });

  it('is not loaded when the flows turn detection off', async () => {
    const loader = countingLoader();
    const off = { ...flows, languages: { ...flows.languages, detect: false } };
    world = await coreWorld({ languageGuesser: loader.load, flows: off });
    await world.bridge.start({ poll: false, schedule: false });
    await customerWrites(world.store, KEY, 'hello there, how are you', 1_000);
    await drain(world.bridge, KEY);
    expect(world.engage.replies()).toHaveLength(1);
    expect(loader.calls()).toBe(0);
  });
});
