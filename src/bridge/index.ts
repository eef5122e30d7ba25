// The bridge's public surface for the transports (Slack); the composition root builds the bridge itself
// from `create-bridge.ts`.
export type { BridgeNotifier, EscalationNotice } from './notifier.js';
