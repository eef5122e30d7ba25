import { describe, expect, it, vi } from 'vitest';

const evaluated = vi.hoisted(() => ({ tinyld: 0 }));
vi.mock('tinyld', async (importOriginal) => {
  evaluated.tinyld += 1;
  return await importOriginal();
});

// tinyld takes 0.1–0.15 s to load, which was on the start-up path (imported with the brain): it is loaded when a
// customer message first needs it, and handed to the brain.
describe('the language detector', () => {
  it('is not loaded with the service, only when asked for', async () => {
    await import('../../src/main.js');
    const { loadLanguageGuesser } = await import('../../src/bot/index.js');
    expect(evaluated.tinyld).toBe(0);
    const guess = await loadLanguageGuesser();
    expect(evaluated.tinyld).toBe(1);
    expect(guess('Goedemiddag, waar is mijn pakket? Ik wacht al een week.', ['en', 'nl', 'fr'])[0]?.lang).toBe('nl');
  });
});
