/**
 * The language detector's scores for a text among some languages (ISO 639-1 codes), best first. Handed to the brain
 * by its caller: the detector (tinyld) is a large module, so it is not loaded with the brain (the bridge loads it as it starts).
 */
export type LanguageGuesser = (text: string, only: readonly string[]) => ReadonlyArray<{ lang: string; accuracy: number }>;

/** Loads tinyld (0.1–0.4 s of module evaluation, all of it blocking: the bridge loads it once, before its loops start). */
export async function loadLanguageGuesser(): Promise<LanguageGuesser> {
  const { detectAll } = await import('tinyld');
  return (text, only) => detectAll(text, { only: [...only] });
}
