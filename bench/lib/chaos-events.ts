/**
 * What the chaos driver did, placed in the simulator's request log. `before` is a request-log seq known to be
 * logged before the action started; `after` one known to be at or past everything logged before it ended.
 */
export type DriverEvent =
  | {
      readonly kind: 'message';
      readonly contact: string;
      readonly mentionId: string;
      readonly text: string;
      readonly before: number;
      /** When the simulator took the message (our clock, epoch ms): the start of the customer's wait. */
      readonly sentAt?: number;
    }
  | { readonly kind: 'take' | 'return' | 'agent-reply'; readonly contact: string; readonly before: number; readonly after: number };

export type MessageEvent = Extract<DriverEvent, { kind: 'message' }>;
