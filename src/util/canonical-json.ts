// JSON with object keys sorted: equal data gives equal text (and hash) whatever
// the order its keys were set in, e.g. a task read back from its directory.
import { isRecord } from './guards.js';

/** Keys sorted, undefined members left out, as JSON.stringify leaves them out. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (isRecord(v)) {
    const keys = Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
