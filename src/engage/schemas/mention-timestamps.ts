import { z } from 'zod';

const seconds = z.number().nullable().optional();

/** All values in seconds (brief: mention timestamps). */
export const mentionTimestampsSchema = z.looseObject({
  response_time: seconds,
  response_time_during_bh: seconds,
  resolve_time: seconds,
  resolve_time_during_bh: seconds,
  handle_time: seconds,
  unresolved_time: seconds,
  unresolved_time_during_bh: seconds,
  pending_time: seconds,
});
export type MentionTimestamps = z.output<typeof mentionTimestampsSchema>;
