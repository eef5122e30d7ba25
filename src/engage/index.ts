export * from './schemas/index.js';
export * from './errors/index.js';
export { ConfigurationError, isLoopbackHost } from './transport/base-url.js';
export { PageLimitError, DEFAULT_MAX_PAGES } from './transport/iterate-pages.js';
export type { RequestEvent, ClientStats } from './transport/request-event.js';
export type { Timeouts } from './transport/send-http.js';
export { DEFAULT_TIMEOUTS } from './transport/send-http.js';
export { createEngageClient, DEFAULT_API_VERSION, DEFAULT_BASE_URL } from './create-engage-client.js';
export type { EngageClient, EngageClientOptions } from './create-engage-client.js';
export { readOwnership, type Ownership } from './read-ownership.js';
export {
  DEFAULT_CHANNEL_SERVICES,
  DEFAULT_CHANNEL_SERVICES_TEXT,
  DEFAULT_HANDOVER_SERVICES,
  handoverServiceOf,
  parseChannelServices,
  sourceServiceOf,
  type ChannelService,
  type ChannelServices,
} from './channel-services.js';
export { noopLogger, type EngageLogger } from './logger.js';
export { redactUrl } from './redact-url.js';
export { decideRetry, backoffDelayMs, DEFAULT_RETRY_POLICY, type RetryPolicy, type RetryDecision } from './policy/retry-policy.js';
export { RateLimitRegistry, defaultRateLimitRegistry } from './policy/rate-limit-registry.js';
export { DEFAULT_BUCKET, type BucketConfig, type BudgetSnapshot } from './policy/user-allocation.js';
export { DEFAULT_CONCURRENCY, type ConcurrencyLimits, type RequestClass } from './policy/request-classes.js';
export type { HandoverRef } from './resources/handover.js';
export type { ContactRef, ContactUpdates, ContactListQuery } from './resources/contacts.js';
export { countryNameForCode } from './resources/country-rule.js';
export type {
  MentionRef,
  MentionUpdates,
  MentionListQuery,
  MentionUpdateOptions,
  MentionDeleteOptions,
  MentionPage,
  KnownMention,
} from './resources/mentions.js';
export type { PublisherAddInput, PublisherServicesQuery } from './resources/publisher.js';
export type {
  PublisherMentionPage,
  PublisherMentionListQuery,
  PublisherMentionUpdateOptions,
  PublisherMentionDeleteOptions,
} from './resources/publisher-mentions.js';
export type { PageQuery } from './resources/business-hours.js';
export type { RawRequest, RawAnswer } from './resources/raw.js';
