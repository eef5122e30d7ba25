export { createMemoryStore, openSqliteStore } from './sqlite/open-sqlite-store.js';
export type { Store, DecisionInput, ForgetResult } from './store.js';
export type { StoreOptions } from './store-options.js';
export { isStoreError } from './store-error.js';
export { mentionRef } from './records.js';
export type { ConversationRecord, Effect, EscalationInput, InboundMention, TranscriptLine } from './records.js';
