// The exchange's per-signer trading buckets in the simulator (polymarket dialect, limits on): an
// order bucket and a cancel bucket per signer address (the address of the request's API
// credentials), as https://docs.polymarket.com/api-reference/trading-rate-limits describes (facts
// and decisions: src/ratelimit/signer-tiers.ts). Invariants kept here:
// - a trading request is checked after authentication and after its body's shape (so its cost is
//   known: 1, the orders of a POST /orders batch, the ids of a DELETE /orders) and before anything
//   of it is processed: refused, nothing of it happens (a batch is all or nothing);
// - buckets run at the tier's rate with capacity = burst (the exchange's own model, no margin),
//   start full, refill from the clock's elapsed monotonic ms in integer arithmetic;
// - DELETE /cancel-all and /cancel-market-orders need 1 token to be admitted and are charged 1 + the
//   orders they cancelled; on tiers without cancel debt the balance floors at zero;
// - every evaluated request (admitted or refused) answers Poly-RateLimit-Remaining (whole tokens
//   after it, rounded down), Poly-RateLimit-Reset (Unix seconds when its cost is available: now when
//   admitted) and Poly-RateLimit-Tier; a refusal is 429 `{"error": "Too Many Requests"}` (the shape
//   of every error here, errors.ts) with Retry-After in whole seconds (rounded up, at least 1) when
//   the cost fits the burst, and without it when it never can;
// - the tier is the app's option (default standard, the tightest), one for every signer; a
//   /_sim/ knob is not provided.
import type { FastifyReply } from 'fastify';
import type { Clock } from '../../core/clock.js';
import { TokenBucket } from '../../ratelimit/signer-bucket.js';
import {
  HDR_REMAINING,
  HDR_RESET,
  HDR_TIER,
  SIGNER_POST_CHARGED,
  SIGNER_ROUTE_BUCKET,
  SIGNER_TIER_TABLE,
  type SignerTier,
} from '../../ratelimit/signer-tiers.js';
import { MSG_THROTTLED, sendError } from './errors.js';

interface Buckets {
  readonly order: TokenBucket;
  readonly cancel: TokenBucket;
}

/** The outcome of one evaluation, and the header values it answers with. */
export interface SignerVerdict {
  readonly admitted: boolean;
  /** Whole tokens left after the request (rounded down; negative: a debt). */
  readonly remaining: number;
  /** Unix seconds when the request's cost is (was) available: now when admitted. */
  readonly resetSec: number;
  /** Whole seconds to wait (refused, and the cost fits the burst); null otherwise. */
  readonly retryAfterSec: number | null;
}

export class SignerGate {
  /** Requests refused by a signer bucket, since start. */
  refused = 0;
  private readonly bySigner = new Map<string, Buckets>();

  constructor(
    private readonly clock: Clock,
    readonly tier: SignerTier,
  ) {}

  /**
   * Evaluates `route` for `signer` at a cost of `tokens` (for a post-charged route only the 1 up
   * front counts; charge() adds the rest): takes the tokens when they are all there, else nothing.
   */
  evaluate(signer: string, route: string, tokens: number): SignerVerdict | null {
    const kind = SIGNER_ROUTE_BUCKET[route];
    if (kind === undefined) return null;
    const b = this.buckets(signer)[kind];
    const now = this.clock.monotonic();
    const need = SIGNER_POST_CHARGED.has(route) ? 1 : tokens;
    if (b.has(now, need)) {
      b.take(now, need);
      return this.verdict(true, b, now, 0);
    }
    this.refused++;
    return this.verdict(false, b, now, b.waitMs(now, need));
  }

  /** A cancel-all / cancel-market-orders cancelled `n` orders: charges them (a debt, or floored at 0). */
  charge(signer: string, route: string, n: number): SignerVerdict | null {
    const kind = SIGNER_ROUTE_BUCKET[route];
    if (kind === undefined) return null;
    const b = this.buckets(signer)[kind];
    const now = this.clock.monotonic();
    if (n > 0) b.take(now, n);
    return this.verdict(true, b, now, 0);
  }

  /** evaluate() answering over HTTP: sets the headers; on refusal sends the 429 and returns false. */
  admit(reply: FastifyReply, signer: string, route: string, tokens: number): boolean {
    const v = this.evaluate(signer, route, tokens);
    if (v === null) return true;
    this.headers(reply, v);
    if (v.admitted) return true;
    if (v.retryAfterSec !== null) reply.header('Retry-After', String(v.retryAfterSec));
    sendError(reply, 429, MSG_THROTTLED);
    return false;
  }

  /** charge() answering over HTTP: the headers then show the balance after the charge. */
  chargeReply(reply: FastifyReply, signer: string, route: string, n: number): void {
    const v = this.charge(signer, route, n);
    if (v !== null) this.headers(reply, v);
  }

  /** Whole tokens `signer` holds in `kind` now (tests, the benchmark). */
  tokens(signer: string, kind: 'order' | 'cancel'): number {
    return this.buckets(signer)[kind].tokens(this.clock.monotonic());
  }

  private verdict(admitted: boolean, b: TokenBucket, now: number, waitMs: number): SignerVerdict {
    const fits = Number.isFinite(waitMs);
    return {
      admitted,
      remaining: b.tokens(now),
      resetSec: Math.ceil((this.clock.now() + (fits ? waitMs : 0)) / 1000),
      retryAfterSec: admitted || !fits ? null : Math.max(1, Math.ceil(waitMs / 1000)),
    };
  }

  private headers(reply: FastifyReply, v: SignerVerdict): void {
    reply.header(HDR_REMAINING, String(v.remaining));
    reply.header(HDR_RESET, String(v.resetSec));
    reply.header(HDR_TIER, this.tier);
  }

  private buckets(signer: string): Buckets {
    const key = signer.toLowerCase();
    let b = this.bySigner.get(key);
    if (b === undefined) {
      const spec = SIGNER_TIER_TABLE[this.tier];
      const now = this.clock.monotonic();
      b = {
        order: new TokenBucket(spec.order.rate, spec.order.burst, now),
        cancel: new TokenBucket(spec.cancel.rate, spec.cancel.burst, now, !spec.cancelDebt),
      };
      this.bySigner.set(key, b);
    }
    return b;
  }
}
