const escapeXml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const tagName = (key: string): string => (/^[A-Za-z_][\w.-]*$/.test(key) ? key : 'item');

function node(key: string, value: unknown): string {
  const tag = tagName(key);
  if (value === null || value === undefined) return `<${tag}/>`;
  if (Array.isArray(value)) return `<${tag}>${value.map((v) => node('item', v)).join('')}</${tag}>`;
  if (typeof value === 'object') {
    return `<${tag}>${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => node(k, v))
      .join('')}</${tag}>`;
  }
  return `<${tag}>${escapeXml(String(value))}</${tag}>`;
}

/** The `format=xml` rendering of an answer (same structure as the JSON, one element per key). */
export function toXml(value: unknown): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${node('result', value)}`;
}
