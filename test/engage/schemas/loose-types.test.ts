import { describe, expect, it } from 'vitest';
import { contactSchema } from '../../../src/engage/schemas/contact.js';
import { mentionSchema } from '../../../src/engage/schemas/mention.js';
import { publisherMentionSchema } from '../../../src/engage/schemas/publisher-mention.js';

// Issue 26, item 5: fields the bridge does not read, or reads in another type than shown, never drop an item.
describe('items written by a looser service', () => {
  it('reads a mention with a numeric unique_id, string timestamps, a nameless tag and a clicked button without id', () => {
    const m = mentionSchema.parse({
      id: 9001,
      topic_id: 2001,
      unique_id: 20019001,
      tags: [{ name: 'vip', status: 'active' }, { id: 'sim-untitled', status: 'active' }, 'plain'],
      clicked_buttons: [{ title: 'Order status' }],
      date: { added: '1763456400', updated: '1763456400' },
      extra_fields: [],
      message: { content: 'Order status' },
    });
    expect(m.tags).toEqual(['vip', 'plain']);
    expect(m.date?.added).toBe(1763456400);
    expect(m.clicked_buttons).toEqual([{ title: 'Order status' }]);
  });

  it('reads a contact whose custom attributes are [] and a publisher mention with a nameless tag', () => {
    expect(contactSchema.parse({ id: 7001, customattributes: [] }).customattributes).toEqual({});
    expect(publisherMentionSchema.parse({ id: 8001, tags: [{ id: 1 }] }).tags).toEqual([]);
  });
});
