// The limiter's model of the exchange's per-signer buckets (signer-tiers.ts): one order bucket and
// one cancel bucket for the process's signer, beside table 8's sliding windows. The limiter admits
// a trading request only when its windows AND its bucket have room (memory-limiter.ts).
//
// Invariants and decisions:
// - each bucket runs at the tier's rate and burst scaled by the safety factor (rounded down), minus
//   a reserve of ceil(rate × marginMs / 1000) tokens kept unspent: requests reach the exchange with
//   a latency that varies by up to the margin, so sends admitted here within any interval L arrive
//   within L + margin; with capacity burst − reserve, they cost at most burst + rate × L there, which
//   is exactly what the exchange's bucket admits. So the margin that absorbs skew for the windows
//   absorbs it here too, and over a long interval it costs a fixed handful of tokens only;
// - a request costs its tokens (one per order or id); a batch is admitted whole or waits whole; a
//   cost above the capacity is refused at once (RateLimitRouteError: split the batch), it could
//   never be admitted; the exception is cancel-all / cancel-market-orders, whose cost (1 + open
//   orders we know of) is only charged after the fact by the exchange: they wait for at most a full
//   bucket and are charged in full, overdrawing (a debt the later cancels wait out);
// - the exchange is the authority: a reported balance lower than ours (less the reserve) replaces
//   ours, never a higher one; a refusal pauses the bucket until its reset; a reported
//   tier (header or GET /v1/user/rate-limit-tier) replaces the configured one, keeping the balance
//   (clamped), so an upgrade never grants a burst the exchange may not have, and an unknown tier
//   name is ignored (never guess a wider bucket);
// - integer arithmetic on the caller's monotonic ms (signer-bucket.ts), no timers. The Redis
//   limiter keeps the balances in Redis (redis-store.ts) and uses this class for the tier, the
//   capacities and the validation only.
import { RateLimitRouteError } from './errors.js';
import { TokenBucket } from './signer-bucket.js';
import {
  SIGNER_POST_CHARGED,
  SIGNER_ROUTE_BUCKET,
  SIGNER_TIER_TABLE,
  type SignerBucketKind,
  type SignerStatus,
  type SignerTier,
} from './signer-tiers.js';

export interface SignerBudgetOptions {
  readonly tier: SignerTier;
  readonly marginMs: number;
  readonly safetyFactor: number;
  /** Monotonic ms at creation (buckets start full). */
  readonly now: number;
}

/** What the limiter needs to meter one route: its bucket, and whether it is charged after the fact. */
export interface SignerRoute {
  readonly kind: SignerBucketKind;
  readonly postCharged: boolean;
  /** 0 for the order bucket, 1 for the cancel bucket (index into the scheduler's scratch). */
  readonly idx: number;
}

const ORDER: SignerRoute = { kind: 'order', postCharged: false, idx: 0 };
const CANCEL: SignerRoute = { kind: 'cancel', postCharged: false, idx: 1 };
const CANCEL_POST: SignerRoute = { kind: 'cancel', postCharged: true, idx: 1 };

/** The signer bucket a route draws from (`METHOD /path`, clob group only), or null. */
export function signerRouteOf(route: string): SignerRoute | null {
  const kind = SIGNER_ROUTE_BUCKET[route];
  if (kind === undefined) return null;
  if (kind === 'order') return ORDER;
  return SIGNER_POST_CHARGED.has(route) ? CANCEL_POST : CANCEL;
}

export interface SignerBucketState {
  readonly kind: SignerBucketKind;
  /** Whole tokens the model holds now (may be negative: a debt). */
  readonly tokens: number;
  /** The capacity the limiter uses (the tier's burst, scaled, minus the reserve). */
  readonly capacity: number;
  readonly rate: number;
  /** Remaining pause from the exchange's reset, ms (0 when none). */
  readonly pausedForMs: number;
}

export class SignerBudget {
  private tierNow: SignerTier;
  private readonly marginMs: number;
  private readonly safety: number;
  private readonly buckets: readonly [TokenBucket, TokenBucket];
  private readonly pausedUntil: [number, number] = [Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY];
  /** The exchange said it is in warning mode (a request would have been refused). */
  warnings = 0;

  constructor(opts: SignerBudgetOptions) {
    this.tierNow = opts.tier;
    this.marginMs = opts.marginMs;
    this.safety = opts.safetyFactor;
    const o = this.effective('order', opts.tier);
    const c = this.effective('cancel', opts.tier);
    this.buckets = [new TokenBucket(o.rate, o.capacity, opts.now), new TokenBucket(c.rate, c.capacity, opts.now)];
  }

  get tier(): SignerTier {
    return this.tierNow;
  }

  /** The capacity used for `kind` (largest admissible cost of a pre-charged request). */
  capacity(kind: SignerBucketKind): number {
    return this.buckets[kind === 'order' ? 0 : 1].capacityTokens;
  }

  /** Rate (tokens/s), capacity used here, and reserve of `kind` at the tier in force (the shared
   *  Redis bucket is run with these). */
  allowance(kind: SignerBucketKind): { rate: number; capacity: number; reserve: number } {
    return { ...this.effective(kind, this.tierNow), reserve: this.reserve(kind, this.tierNow) };
  }

  /**
   * Validates a request's token count and returns what admission needs in the bucket: the count
   * itself, or for a post-charged route at most a full bucket. Throws when it can never fit.
   */
  need(r: SignerRoute, tokens: number | undefined, route: string): number {
    const n = tokens ?? 1;
    if (!Number.isSafeInteger(n) || n < 1)
      throw new RateLimitRouteError(`${route}: tokens must be a positive integer, got ${String(tokens)}`);
    const cap = this.capacity(r.kind);
    if (r.postCharged) return n < cap ? n : cap;
    if (n > cap) {
      throw new RateLimitRouteError(
        `${route}: costs ${n} tokens but the signer's ${r.kind} bucket holds at most ${cap} at tier ${this.tierNow} ` +
          `(burst less the margin's reserve); it could never be admitted: split it into batches of ${cap} or fewer`,
      );
    }
    return n;
  }

  /** 0 when `need` tokens (beyond `held` kept for earlier waiters) can be spent now; else the wait, ms. */
  waitMs(r: SignerRoute, now: number, need: number, held = 0): number {
    const p = this.pausedUntil[r.idx] as number;
    const pause = p > now ? p - now : 0;
    const w = (this.buckets[r.idx] as TokenBucket).waitMs(now, need, held);
    return w > pause ? w : pause;
  }

  /** Predicted wait for `want` tokens (queued ones ahead included), rate-bound beyond a full bucket. */
  predictMs(r: SignerRoute, now: number, want: number): number {
    const p = this.pausedUntil[r.idx] as number;
    const pause = p > now ? p - now : 0;
    const w = (this.buckets[r.idx] as TokenBucket).refillMs(now, want);
    return w > pause ? w : pause;
  }

  fits(r: SignerRoute, now: number, need: number): boolean {
    return (this.pausedUntil[r.idx] as number) <= now && (this.buckets[r.idx] as TokenBucket).has(now, need);
  }

  /** Records an admitted request: `tokens` spent (a post-charged one may overdraw). */
  take(r: SignerRoute, now: number, tokens: number): void {
    (this.buckets[r.idx] as TokenBucket).take(now, tokens);
  }

  /**
   * What a response of `route` reported (signer-tiers.ts parseSignerHeaders). `now` is monotonic
   * ms and `epochNow` wall ms (Poly-RateLimit-Reset is wall time). Returns true when anything
   * changed (the caller re-runs its scheduler).
   */
  observe(r: SignerRoute | null, s: SignerStatus, now: number, epochNow: number): boolean {
    let changed = false;
    if (s.warning) this.warnings++;
    if (s.tier !== null && s.tier !== this.tierNow) {
      this.setTier(s.tier, now);
      changed = true;
    }
    if (r === null) return changed;
    const b = this.buckets[r.idx] as TokenBucket;
    if (s.remaining !== null) {
      // The exchange's balance less our reserve is the most our model may hold.
      const reserve = this.reserve(r.kind, this.tierNow);
      if (b.capAt(now, s.remaining - reserve)) changed = true;
    }
    // Only after a refusal: on an admitted answer the reset is "now" rounded up to the second, and
    // a debt is already waited out by the lowered balance.
    if (s.resetAtMs !== null && s.refused) {
      const until = now + (s.resetAtMs - epochNow);
      if (until > (this.pausedUntil[r.idx] as number)) {
        this.pausedUntil[r.idx] = until;
        changed = true;
      }
    }
    return changed;
  }

  /** Adopts `tier` (configured or reported): new rates and capacities, balances kept and clamped. */
  setTier(tier: SignerTier, now: number): void {
    this.tierNow = tier;
    // The model never floors a debt at zero, even on tiers where the exchange does: it only waits longer.
    for (const kind of ['order', 'cancel'] as const) {
      const e = this.effective(kind, tier);
      (this.buckets[kind === 'order' ? 0 : 1] as TokenBucket).resize(now, e.rate, e.capacity);
    }
  }

  state(now: number): SignerBucketState[] {
    return (['order', 'cancel'] as const).map((kind, i) => {
      const b = this.buckets[i] as TokenBucket;
      const p = this.pausedUntil[i] as number;
      return {
        kind,
        tokens: b.tokens(now),
        capacity: b.capacityTokens,
        rate: b.ratePerSec,
        pausedForMs: p > now ? p - now : 0,
      };
    });
  }

  private effective(kind: SignerBucketKind, tier: SignerTier): { rate: number; capacity: number } {
    const a = SIGNER_TIER_TABLE[tier][kind];
    const rate = Math.max(1, Math.floor(a.rate * this.safety));
    const burst = Math.max(1, Math.floor(a.burst * this.safety));
    return { rate, capacity: Math.max(1, burst - Math.ceil((rate * this.marginMs) / 1000)) };
  }

  private reserve(kind: SignerBucketKind, tier: SignerTier): number {
    const a = SIGNER_TIER_TABLE[tier][kind];
    const rate = Math.max(1, Math.floor(a.rate * this.safety));
    return Math.ceil((rate * this.marginMs) / 1000);
  }
}
