/** A parameter value as operations hand it over; `undefined` and `null` are left out. */
export type ParamValue = string | number | boolean | object | null | undefined;
export type Params = Readonly<Record<string, ParamValue>>;

/**
 * Encodes parameters the way the conventions fix them: booleans as "true"/"false",
 * numbers as decimal text, objects and arrays as JSON text (one form field each).
 */
export function encodeParams(params: Params): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    out.append(key, encodeValue(value));
  }
  return out;
}

function encodeValue(value: string | number | boolean | object): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}
