export * from './engage-error.js';
export * from './error-kinds.js';
export * from './error-from-response.js';
export * from './rate-limit-headers.js';
