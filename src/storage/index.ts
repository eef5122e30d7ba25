export { createMemoryStore, openSqliteStore } from './sqlite/open-sqlite-store.js';
export type { SqliteStoreOptions } from './sqlite/open-sqlite-store.js';
export type {
  Store,
  StoreStats,
  PruneResult,
  OwnerCounts,
  ConversationFilter,
  DecisionInput,
  RecordedDecision,
  ForgetResult,
  RetentionResult,
  RetentionCutoffs,
} from './store.js';
export type { StoreOptions, StoreLogger, RetentionSettings } from './store-options.js';
export { DEFAULT_RETENTION } from './store-options.js';
export { StoreError, isStoreError } from './store-error.js';
export type { StoreErrorCode } from './store-error.js';
export { conversationKey, mentionRef } from './records.js';
export type {
  AuditEntry,
  ConversationRecord,
  Effect,
  EffectInput,
  Escalation,
  EscalationInput,
  EscalationPatch,
  EscalationStatus,
  InboundMention,
  Owner,
  StoreMeta,
  TranscriptLine,
} from './records.js';
