export { createNluClient, nluTarget, parseEndpoint, shownAddress } from './nlu-client.js';
export type { NluClientOptions, NluEntity, NluParser, NluResult } from './nlu-client.js';
