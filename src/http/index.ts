// What other folders may use of src/http: the limits and refusal counting every listening port shares.
export { capConnections, DEFAULT_SERVER_LIMITS, serverOptions } from './server-limits.js';
export type { ServerLimits } from './server-limits.js';
export { refusalReporter } from './refusal-reporter.js';
export type { RefusalSinks } from './refusal-reporter.js';
