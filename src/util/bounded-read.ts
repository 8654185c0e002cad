// Reading a file that untrusted code may have written, from the host: no
// symlink followed (O_NOFOLLOW), no blocking open on a FIFO (O_NONBLOCK), only
// a regular file, never more than a cap. Every host-side read of files made
// inside a sandbox goes through here.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { errnoCode } from './errors.js';

export type BoundedReadProblem = 'missing' | 'not-regular' | 'directory' | 'too-large';

export class BoundedReadError extends Error {
  constructor(
    readonly problem: BoundedReadProblem,
    readonly path: string,
    readonly size?: number,
  ) {
    super(
      problem === 'missing'
        ? `${path} does not exist`
        : problem === 'directory'
          ? `${path} is a directory`
          : problem === 'not-regular'
            ? `${path} is not a regular file (a link, pipe, socket or device)`
            : `${path} is ${size} bytes, over the limit`,
    );
    this.name = 'BoundedReadError';
  }
}

/** The file's bytes; throws BoundedReadError for anything but a regular file of at most `maxBytes`. */
export function readBounded(path: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new BoundedReadError('missing', path);
    if (code === 'EISDIR') throw new BoundedReadError('directory', path);
    if (code === 'ELOOP' || code === 'ENXIO' || code === 'EACCES') throw new BoundedReadError('not-regular', path);
    throw err;
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new BoundedReadError('directory', path);
    if (!st.isFile()) throw new BoundedReadError('not-regular', path);
    if (st.size > maxBytes) throw new BoundedReadError('too-large', path, st.size);
    // Read one byte past the cap: a file still growing is cut there and refused.
    const buf = Buffer.alloc(Math.min(maxBytes + 1, st.size + 1));
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    if (got > maxBytes) throw new BoundedReadError('too-large', path, got);
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}
