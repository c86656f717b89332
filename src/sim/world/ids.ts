// Identifier and text helpers of the synthetic world. Invariants kept here:
// - every identifier is drawn from the caller's seeded Rng, so the same seed gives the same ids;
// - formats match the public exchange's: condition/question ids 0x + 64 lower-case hex, wallet
//   addresses 0x + 40 lower-case hex, token ids 76-digit decimal strings (a 252-bit integer with
//   its top bit set, as large as real outcome-token ids), slugs lower-case ASCII words joined by '-';
// - `Uniq` guarantees uniqueness within one world (a repeat is redrawn or suffixed, deterministically).
import type { Rng } from './rng.js';
import { InvariantError } from '../../core/errors.js';

export const SIM_ASSET_BASE = 'https://sim.oddsmaker.invalid';

export function hash64(rng: Rng): string {
  return '0x' + rng.hex(64);
}

export function address(rng: Rng): string {
  return '0x' + rng.hex(40);
}

const TOKEN_TOP_BIT = 1n << 251n;

/** A decimal token id of exactly 76 digits. */
export function tokenId(rng: Rng): string {
  return (TOKEN_TOP_BIT | rng.bigBits(251)).toString(10);
}

/** Remembers the values issued so far and redraws (ids) or suffixes (slugs) on a repeat. */
export class Uniq {
  private readonly seen = new Set<string>();

  draw(make: () => string): string {
    for (let i = 0; i < 1000; i++) {
      const v = make();
      if (!this.seen.has(v)) {
        this.seen.add(v);
        return v;
      }
    }
    throw new InvariantError('could not draw a unique value in 1000 attempts');
  }

  /** base, base-2, base-3, … : the first not seen yet. */
  suffix(base: string): string {
    let v = base;
    for (let n = 2; this.seen.has(v); n++) v = `${base}-${n}`;
    this.seen.add(v);
    return v;
  }

  has(v: string): boolean {
    return this.seen.has(v);
  }
}

/** "Will BTC close above $120,000?" → "will-btc-close-above-120000". At most 80 characters. */
export function slugify(text: string): string {
  const s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[,']/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (s.length <= 80) return s;
  return s.slice(0, 80).replace(/-[^-]*$/, '');
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function assetUrl(kind: 'images' | 'icons' | 'profiles' | 'series', slug: string): string {
  return `${SIM_ASSET_BASE}/${kind}/${slug}.png`;
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
