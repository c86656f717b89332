// A small deterministic PRNG (mulberry32): uniform [0, 1) from a 32-bit seed, the same stream on
// every platform. For salts, jitter and benchmark streams where runs must repeat; never for keys.
// (The simulator's world has its own sfc32 generator with richer helpers: src/sim/world/rng.ts.)

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
