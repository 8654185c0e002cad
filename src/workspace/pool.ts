// Ready copies of workspace images: a rollout takes one that was made while
// the previous rollout worked, and the copy that replaces it is made in the
// background. A copy is a directory holding repo/, trusted/ and out/, already
// handed to its own sandbox uid; it is used once.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chownTree, copyTree } from './image.js';
import { removeLater, track, untrack } from './cleanup.js';

export interface Copy {
  dir: string;
  uid: number;
}

export interface PoolStats {
  /** Copies handed out ready, and those made while a caller waited. */
  hits: number;
  misses: number;
  /** Time spent making copies in the background, in ms (what refills cost). */
  refillMs: number;
  refills: number;
}

let counter = 0;

/** A distinct unprivileged uid per workspace, so process limits are per sandbox. */
export function nextUid(): number {
  counter = (counter + 1) % 256;
  return 200000 + ((process.pid % 4096) * 256 + counter);
}

/**
 * A new workspace directory under `baseDir`: `fill` makes repo/ and
 * trusted/, then out/ is added and both are handed to a fresh uid when
 * `chown`. Removed again if anything fails.
 */
export async function newWorkspaceDir(baseDir: string, chown: boolean, fill: (dir: string) => Promise<void> | void): Promise<Copy> {
  const dir = mkdtempSync(join(baseDir, `ws-${process.pid}-`));
  track(dir);
  try {
    await fill(dir);
    mkdirSync(join(dir, 'out'));
    const uid = nextUid();
    if (chown) {
      chownTree(join(dir, 'repo'), uid);
      chownTree(join(dir, 'out'), uid);
    }
    return { dir, uid };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    untrack(dir);
    throw err;
  }
}

/** One copy of an image in a new directory under `baseDir`, owned by a fresh uid when `chown`. */
export function copyImage(image: string, baseDir: string, chown: boolean): Promise<Copy> {
  return newWorkspaceDir(baseDir, chown, (dir) => {
    copyTree(join(image, 'repo'), join(dir, 'repo'));
    copyTree(join(image, 'trusted'), join(dir, 'trusted'));
  });
}

export class WorkspacePool {
  private readonly ready = new Map<string, Copy[]>();
  /** Copies taken per image: a pool keeps no more ready than were taken, so a one-off state costs one spare at most. */
  private readonly taken = new Map<string, number>();
  private readonly filling = new Set<string>();
  readonly stats: PoolStats = { hits: 0, misses: 0, refillMs: 0, refills: 0 };

  /** `depth` ready copies per image, for the `images` most recently used images. */
  constructor(
    readonly depth = 2,
    readonly images = 8,
  ) {}

  /** A copy of `image`: a ready one when there is, else made now; the pool refills behind it. */
  async take(image: string, baseDir: string, chown: boolean): Promise<Copy> {
    const key = `${image}\0${chown}`;
    const list = this.ready.get(key) ?? [];
    this.ready.delete(key);
    this.ready.set(key, list); // most recently used last
    this.trim();
    this.taken.set(key, (this.taken.get(key) ?? 0) + 1);
    const got = list.shift();
    if (got) this.stats.hits++;
    else this.stats.misses++;
    const copy = got ?? (await copyImage(image, baseDir, chown));
    if (this.depth > 0) void this.refill(key, image, baseDir, chown);
    return copy;
  }

  private async refill(key: string, image: string, baseDir: string, chown: boolean): Promise<void> {
    if (this.filling.has(key)) return;
    this.filling.add(key);
    try {
      for (;;) {
        // After the caller has gone on with its copy: the refill is never on its path.
        await new Promise((resolve) => setImmediate(resolve));
        const list = this.ready.get(key);
        if (!list || list.length >= Math.min(this.depth, this.taken.get(key) ?? 0)) return;
        const t0 = performance.now();
        const copy = await copyImage(image, baseDir, chown);
        this.stats.refillMs += performance.now() - t0;
        this.stats.refills++;
        // The image may have been dropped while the copy was made.
        if (this.ready.get(key) === list) list.push(copy);
        else removeLater(copy.dir);
      }
    } catch {
      /* a failed refill leaves the next caller to copy for itself, and see the error */
    } finally {
      this.filling.delete(key);
    }
  }

  /** Drops the ready copies of the least recently used images past the limit. */
  private trim(): void {
    while (this.ready.size > this.images) {
      const [key, list] = this.ready.entries().next().value!;
      this.ready.delete(key);
      this.taken.delete(key);
      for (const c of list) removeLater(c.dir);
    }
  }

  /** Removes every ready copy. */
  clear(): void {
    for (const list of this.ready.values()) for (const c of list) removeLater(c.dir);
    this.ready.clear();
  }
}
