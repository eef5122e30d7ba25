export { createNluClient, nluTarget, parseEndpoint, shownAddress } from './nlu-client.js';
export type { NluClientOptions, NluEntity, NluParser, NluResult } from './nlu-client.js';
export { NLU_LANGUAGES, trainEmbeddedNlu } from './embedded-nlu.js';
export type { EmbeddedNlu, TrainingSet } from './embedded-nlu.js';
export { firstAnswer } from './understanding.js';
export type { Understander, Understanding } from './understanding.js';
