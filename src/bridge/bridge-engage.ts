import type { EngageClient } from '../engage/index.js';

/** The slice of the Engage client the bridge uses; tests may pass a client aimed at the simulator. */
export type BridgeEngage = Pick<
  EngageClient,
  | 'handover'
  | 'users'
  | 'contacts'
  | 'mentions'
  | 'publisher'
  | 'publisherMentions'
  | 'businessHours'
  | 'cannedResponses'
  | 'topics'
  | 'me'
  | 'stats'
  | 'serviceNowMs'
>;
