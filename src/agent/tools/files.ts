// File I/O for the file tools, on paths that paths.ts already resolved.
// Reads refuse anything but a regular file (a FIFO planted by the sandboxed
// code would block the host forever). Writes open with O_NOFOLLOW, so a
// symlink swapped in after resolution is not followed, and hand new files
// and directories to the sandbox's uid so its commands can change them too.
import { chownSync, closeSync, constants, fchownSync, fstatSync, ftruncateSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { BoundedReadError, readBounded } from '../../util/bounded-read.js';
import { ToolError } from './define.js';
import type { ToolContext } from './types.js';
import { errnoCode } from '../../util/errors.js';

export const MAX_READ_BYTES = 16 * 1024 * 1024;

/** The sandbox uid that should own new files, when FrogNano runs as root under an isolating runtime. */
function sandboxOwner(ctx: ToolContext): number | undefined {
  return process.getuid?.() === 0 && ctx.workspace.runtime.isolated ? ctx.workspace.mounts.uid : undefined;
}

/** Reads a regular file as UTF-8; `shown` names it in errors. */
export function readRegularFile(host: string, shown: string, maxBytes = MAX_READ_BYTES): string {
  let data: Buffer;
  try {
    data = readBounded(host, maxBytes);
  } catch (err) {
    if (!(err instanceof BoundedReadError)) throw err;
    switch (err.problem) {
      case 'missing':
        throw new ToolError(`${shown} does not exist`);
      case 'directory':
        throw new ToolError(`${shown} is a directory, not a file (use Glob or Bash ls to list it)`);
      case 'not-regular':
        throw new ToolError(`${shown} is not a regular file`);
      case 'too-large':
        throw new ToolError(`${shown} is ${err.size} bytes, more than the ${maxBytes} this tool reads; use Bash (head, sed -n, grep) instead`);
    }
  }
  if (data.subarray(0, 8192).includes(0)) throw new ToolError(`${shown} is a binary file (${data.length} bytes)`);
  return data.toString('utf8');
}

export function isDirectory(host: string): boolean {
  try {
    return statSync(host).isDirectory();
  } catch {
    return false;
  }
}

/** Creates missing parent directories, owned by the sandbox uid where that applies. */
function makeParents(ctx: ToolContext, dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: 0o755 });
  const owner = sandboxOwner(ctx);
  if (!first || owner === undefined) return;
  for (let d = dir; d.length >= first.length; d = dirname(d)) chownSync(d, owner, owner);
}

/** Writes (creating or truncating) a file; returns true when it was created. */
export function writeFileSafely(ctx: ToolContext, host: string, content: string): boolean {
  makeParents(ctx, dirname(host));
  let fd: number;
  let created = false;
  try {
    fd = openSync(host, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
    created = true;
  } catch (err) {
    if (errnoCode(err) !== 'EEXIST') throw err;
    try {
      fd = openSync(host, constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (err2) {
      // ENXIO: a FIFO without a reader; ELOOP: a symlink swapped in since the path was resolved.
      const code = errnoCode(err2);
      if (code === 'ENXIO' || code === 'ELOOP') throw new ToolError('the target is not a regular file');
      throw err2;
    }
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new ToolError('the target is not a regular file');
    // A hard link could share the inode with a file outside the workspace.
    if (st.nlink > 1) throw new ToolError('the target has several hard links; writing it is not allowed');
    const owner = sandboxOwner(ctx);
    if (created && owner !== undefined) fchownSync(fd, owner, owner);
    const buf = Buffer.from(content, 'utf8');
    let done = 0;
    while (done < buf.length) done += writeSync(fd, buf, done, buf.length - done);
    ftruncateSync(fd, buf.length);
    return created;
  } finally {
    closeSync(fd);
  }
}
