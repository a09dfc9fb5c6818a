import { toNumber } from './values';

export type ResponseHeaders = Record<string, unknown> | { get(name: string): unknown } | null | undefined;

/** Case-insensitive over axios, Node and fetch header objects; the first value of a list. */
export function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  if (headers === null || headers === undefined) return undefined;
  const wanted = name.toLowerCase();
  let value: unknown;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    value = (headers as { get(name: string): unknown }).get(wanted);
  }
  if (value === undefined || value === null) {
    for (const [key, candidate] of Object.entries(headers as Record<string, unknown>)) {
      if (key.toLowerCase() === wanted) {
        value = candidate;
        break;
      }
    }
  }
  if (Array.isArray(value)) value = value[0];
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' ? value : undefined;
}

export function numericHeader(headers: ResponseHeaders, name: string): number | undefined {
  return toNumber(headerValue(headers, name));
}
