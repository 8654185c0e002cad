import { renameSync, writeFileSync } from 'node:fs';

/** Writes `value` as JSON to a temporary file and renames it into place, so a crash never leaves half a file. */
export function writeJsonAtomic(path: string, value: unknown, indent?: number): void {
  writeFileSync(`${path}.tmp`, JSON.stringify(value, null, indent));
  renameSync(`${path}.tmp`, path);
}
