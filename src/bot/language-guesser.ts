/**
 * The language detector's scores for a text among some languages (ISO 639-1 codes), best first. Handed to the brain
 * by its caller: the detector (tinyld) is a large module, so it is loaded when first needed, not with the brain.
 */
export type LanguageGuesser = (text: string, only: readonly string[]) => ReadonlyArray<{ lang: string; accuracy: number }>;

/** Loads tinyld (about 0.1–0.15 s of module evaluation: kept off the start-up path). */
export async function loadLanguageGuesser(): Promise<LanguageGuesser> {
  const { detectAll } = await import('tinyld');
  return (text, only) => detectAll(text, { only: [...only] });
}
