// The parts of NLP.js (https://github.com/axa-group/nlp.js, v4) this folder uses; the packages ship no types.
declare module '@nlpjs/core' {
  export interface Container {
    use(plugin: unknown): void;
    get(name: string): unknown;
    register(name: string, value: unknown, isSingleton?: boolean): void;
    registerConfiguration(tag: string, configuration: Record<string, unknown>, overwrite?: boolean): void;
  }
  export function containerBootstrap(settings?: Record<string, unknown>, mustLoadEnv?: boolean): Container;
}
declare module '@nlpjs/nlp' {
  export const Nlp: unknown;
}
declare module '@nlpjs/lang-en' {
  export const LangEn: unknown;
}
declare module '@nlpjs/lang-nl' {
  export const LangNl: unknown;
}
declare module '@nlpjs/lang-fr' {
  export const LangFr: unknown;
}
declare module '@nlpjs/language-min' {
  export class Language {
    guess(text: string, allowList?: readonly string[]): Array<{ alpha2: string; language: string; score: number }>;
  }
}
