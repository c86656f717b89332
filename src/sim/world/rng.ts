// Seeded PRNG of the synthetic world: sfc32 (Chris Doty-Humphrey's Small Fast Counting generator,
// 32-bit), seeded through a string hash. Invariants kept here:
// - the stream is a pure function of the seed: only 32-bit integer operations (Math.imul, >>>, ^,
//   +) and exact float divisions by powers of two, so it is identical across runs, machines and
//   Node versions; no Math.random, no transcendental functions (Math.log/cos may differ between
//   engines in the last bit), hence `normal` uses the Irwin–Hall sum of uniforms, not Box–Muller;
// - `fork(label)` derives an independent child stream from the parent's seed and a label, so adding
//   a draw to one part of the generator does not shift every value drawn after it elsewhere.
import { OptionError, InvariantError } from '../../core/errors.js';

/** 32-bit hash of a string (cyrb53-style mixing, low word), for seeding. */
function hash32(text: string, salt: number): number {
  let h1 = 0xdeadbeef ^ salt;
  let h2 = 0x41c6ce57 ^ salt;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
}

export type Seed = number | string;

function seedText(seed: Seed): string {
  if (typeof seed === 'number') {
    if (!Number.isSafeInteger(seed))
      throw new OptionError('SIM_OPTION', `seed must be a safe integer or a string, got ${String(seed)}`);
    return `n:${seed}`;
  }
  return `s:${seed}`;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  /** The text the stream was derived from; children hash it with their label. */
  readonly key: string;

  constructor(seed: Seed) {
    this.key = seedText(seed);
    this.a = hash32(this.key, 1);
    this.b = hash32(this.key, 2);
    this.c = hash32(this.key, 3);
    this.d = hash32(this.key, 4);
    // Warm-up rounds: sfc32's first outputs are correlated with a low-entropy seed.
    for (let i = 0; i < 15; i++) this.u32();
  }

  /** An independent stream for one part of the world. */
  fork(label: string): Rng {
    return new Rng(`${this.key}/${label}`);
  }

  /** Next unsigned 32-bit integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform float in [0, 1) with 53 random bits (exact: two words over powers of two). */
  float(): number {
    const hi = this.u32() >>> 5; // 27 bits
    const lo = this.u32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform integer in [lo, hi], both inclusive, without modulo bias. */
  int(lo: number, hi: number): number {
    if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi) || hi < lo)
      throw new InvariantError(`bad int range [${lo}, ${hi}]`);
    const span = hi - lo + 1;
    if (span <= 0x1_0000_0000) {
      // Rejection sampling on 32 bits: the largest multiple of span below 2^32.
      const limit = Math.floor(0x1_0000_0000 / span) * span;
      for (;;) {
        const x = this.u32();
        if (x < limit) return lo + (x % span);
      }
    }
    return lo + Math.floor(this.float() * span);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new InvariantError('pick from an empty list');
    return items[this.int(0, items.length - 1)] as T;
  }

  /** Picks by non-negative weights: [[value, weight], ...]. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of entries) {
      if (!(w >= 0)) throw new InvariantError(`negative or NaN weight: ${String(w)}`);
      total += w;
    }
    if (total <= 0) throw new InvariantError('weights sum to zero');
    let x = this.float() * total;
    for (const [v, w] of entries) {
      if (x < w) return v;
      x -= w;
    }
    // Float residue: the last entry with a positive weight.
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i];
      if (e !== undefined && e[1] > 0) return e[0];
    }
    throw new InvariantError('unreachable: no positive weight');
  }

  /**
   * Approximately normal (Irwin–Hall: sum of 12 uniforms − 6, bounded to ±6σ), scaled.
   * Exact arithmetic only, so it reproduces bit for bit everywhere.
   */
  normal(mean = 0, sd = 1): number {
    let s = 0;
    for (let i = 0; i < 12; i++) s += this.float();
    return mean + (s - 6) * sd;
  }

  /** k distinct items in random order (partial Fisher–Yates on a copy). */
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = items.slice();
    const n = Math.min(k, copy.length);
    for (let i = 0; i < n; i++) {
      const j = this.int(i, copy.length - 1);
      const t = copy[i] as T;
      copy[i] = copy[j] as T;
      copy[j] = t;
    }
    return copy.slice(0, n);
  }

  /** n lower-case hex digits. */
  hex(n: number): string {
    let s = '';
    while (s.length < n) s += this.u32().toString(16).padStart(8, '0');
    return s.slice(0, n);
  }

  /** A random unsigned integer of `bits` bits as a bigint. */
  bigBits(bits: number): bigint {
    let v = 0n;
    let left = bits;
    while (left > 0) {
      const take = Math.min(32, left);
      v = (v << BigInt(take)) | BigInt(this.u32() >>> (32 - take));
      left -= take;
    }
    return v;
  }
}
