// Seeded randomness: everything random in FrogNano takes a seed.
import { createHash } from 'node:crypto';

/** mulberry32: a small, fast generator with good enough statistics for sampling. */
export function rng(seed: number): () => number {
  // Mix the seed first (murmur3's finalizer) so that nearby seeds start far apart.
  let a = seed >>> 0;
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
  a = Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
  a = (a ^ (a >>> 16)) >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next(); // the first output still follows the seed closely: skip it
  return next;
}

/** A 32-bit seed derived from any parts, stable across runs and machines. */
export function deriveSeed(...parts: (string | number)[]): number {
  return createHash('sha256').update(parts.join('\u0000')).digest().readUInt32LE(0);
}

export function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
