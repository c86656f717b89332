// Online volatility of a mid, for strategies (signal math: floats, never money). The estimate is
// an exponentially weighted realized variance per unit of time:
//
//   σ² = Σ wᵢ (Δmᵢ)² / Σ wᵢ Δtᵢ        wᵢ = 2^(−(now − tᵢ) / halfLife)
//
// over consecutive samples (tᵢ₋₁, mᵢ₋₁) → (tᵢ, mᵢ), with Δm in price units and Δt in seconds, so
// σ is in price per √second. Weighting by time (rather than per sample) means a faster poll does
// not count for more: for a random walk the estimate is the same, in expectation, whether the mid
// was polled every second or every five. Invariants: σ ≥ floor (a quiet
// book is not a riskless one, and a zero σ would collapse a model's spread); increments over a
// gap longer than `maxGapMs` (a restart, a stale feed) and non-increasing times are skipped; no
// usable increment gives the floor. Pure.
import type { MidSample } from '../core/book.js';
import { OptionError } from '../core/errors.js';

export interface EwmaVolatilityOptions {
  /** Half-life of the weights, ms. */
  readonly halfLifeMs: number;
  /** Smallest σ returned, price per √second. */
  readonly floor: number;
  /** Increments spanning more than this are skipped (default: none skipped). */
  readonly maxGapMs?: number;
}

export interface VolatilityEstimate {
  /** max(floor, √σ²), price per √second. */
  readonly sigma: number;
  /** The raw estimate before the floor, NaN when no increment was usable. */
  readonly raw: number;
  /** Increments used. */
  readonly increments: number;
}

export function ewmaVolatility(
  samples: readonly MidSample[],
  nowMs: number,
  o: EwmaVolatilityOptions,
): VolatilityEstimate {
  if (!(o.halfLifeMs > 0) || !(o.floor >= 0))
    throw new OptionError(
      'STRATEGY_OPTION',
      `ewmaVolatility: halfLifeMs must be > 0 and floor ≥ 0, got ${o.halfLifeMs}, ${o.floor}`,
    );
  const maxGap = o.maxGapMs ?? Number.POSITIVE_INFINITY;
  let num = 0;
  let den = 0;
  let n = 0;
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1];
    const b = samples[i];
    if (a === undefined || b === undefined) continue;
    const dtMs = b.atMs - a.atMs;
    if (!(dtMs > 0) || dtMs > maxGap) continue;
    const w = 2 ** (-(nowMs - b.atMs) / o.halfLifeMs);
    const dm = (b.mid - a.mid) / 1e6;
    num += w * dm * dm;
    den += w * (dtMs / 1_000);
    n++;
  }
  const raw = den > 0 ? Math.sqrt(num / den) : Number.NaN;
  return { sigma: Number.isFinite(raw) ? Math.max(o.floor, raw) : o.floor, raw, increments: n };
}
