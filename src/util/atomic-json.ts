import { renameSync, rmSync, writeFileSync } from 'node:fs';

/** Writes `text` to a temporary file beside `path` and renames it into place, so a crash or a full disk never leaves half a file. */
export function writeTextAtomic(path: string, text: string | Uint8Array): void {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** `value` as JSON, written atomically (writeTextAtomic). */
export function writeJsonAtomic(path: string, value: unknown, indent?: number): void {
  writeTextAtomic(path, JSON.stringify(value, null, indent));
}
