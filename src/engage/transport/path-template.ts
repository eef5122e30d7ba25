/**
 * Fills `{name}` placeholders of an endpoint template with URI-encoded values, so that an id can never
 * change the path's shape (e.g. an id holding "/" or "..").
 */
export function fillPath(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`missing path value "${name}" for ${template}`);
    const text = String(value);
    if (text === '' || text === '.' || text === '..') throw new Error(`invalid path value "${name}" for ${template}`);
    return encodeURIComponent(text);
  });
}
