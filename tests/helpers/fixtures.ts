import { readFileSync } from 'node:fs';

export function fixture(name: string): string {
  return readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');
}

/** id → status, for compact assertions. */
export function statuses(tests: { id: string; status: string }[]): Record<string, string> {
  return Object.fromEntries(tests.map((t) => [t.id, t.status]));
}
