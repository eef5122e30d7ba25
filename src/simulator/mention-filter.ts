import { parseFilter, type Predicate } from './filter-query.js';
import type { MentionRecord } from './model.js';
import { SOURCE_TYPES } from './present-mention.js';

const STATUSES: Record<string, (m: MentionRecord) => boolean> = {
  new: (m) => m.status === 'new',
  pending: (m) => m.status === 'pending',
  done: (m) => m.status === 'done',
  alldone: (m) => m.status === 'done',
  open: (m) => m.status !== 'done',
};

/** The inbox filter language of the simulator: `source:`, `status:`, `tag:` with AND / OR / NOT / parentheses. */
export function parseMentionFilter(text: string): Predicate<MentionRecord> {
  return parseFilter<MentionRecord>(text, {
    source: (v) => {
      // Matches the service name or its source type ("whatsapp" or "WhatsApp"), resolved once per query.
      const value = v.toLowerCase();
      const services = new Set([value, ...Object.keys(SOURCE_TYPES).filter((k) => SOURCE_TYPES[k]?.toLowerCase() === value)]);
      return (m) => services.has(m.service);
    },
    status: (v) => STATUSES[v.toLowerCase()],
    tag: (v) => (m) => m.tags.includes(v),
  });
}
