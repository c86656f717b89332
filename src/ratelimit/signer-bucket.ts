// One token bucket in exact integer arithmetic: the balance is kept in millitokens and time in
// whole milliseconds of the caller's clock, so a refill of `rate` tokens per second adds exactly
// `rate` millitokens per elapsed millisecond; nothing is a float and nothing runs on a timer (the
// refill is computed from the elapsed time whenever the bucket is read).
//
// Invariants: the balance never exceeds the capacity; it starts full; it only goes below zero when
// a take is allowed to overdraw (a post-charged cancel-all), or is floored at zero when the bucket
// says so; time going backwards refills nothing. Times are floored to whole ms: a fractional
// clock loses at most 1 ms of refill per read, which errs on the side of fewer tokens.
//
// Shared by the limiter (signer-budget.ts) and the simulator's exchange-side model
// (src/sim/server/signer-gate.ts), which differ only in capacity (the limiter keeps a margin).
import { RateLimitConfigError } from './errors.js';

export const MILLI = 1000;

export class TokenBucket {
  /** Millitokens. */
  private balance: number;
  /** The whole ms at which `balance` was last brought up to date. */
  private at: number;

  constructor(
    /** Tokens per second (= millitokens per ms). */
    private rate: number,
    /** Tokens. */
    private capacity: number,
    now: number,
    /** A take never leaves the balance below zero (the exchange's no-debt tiers). */
    private floorAtZero = false,
  ) {
    if (!Number.isSafeInteger(rate) || rate < 1)
      throw new RateLimitConfigError(`token bucket rate must be a positive integer, got ${rate}`);
    if (!Number.isSafeInteger(capacity) || capacity < 1)
      throw new RateLimitConfigError(`token bucket capacity must be a positive integer, got ${capacity}`);
    this.balance = capacity * MILLI;
    this.at = Math.floor(now);
  }

  get ratePerSec(): number {
    return this.rate;
  }
  get capacityTokens(): number {
    return this.capacity;
  }

  /** Millitokens held at `now` (may be negative after an overdraw). */
  milli(now: number): number {
    this.refill(now);
    return this.balance;
  }

  /** Whole tokens held at `now`, rounded down. */
  tokens(now: number): number {
    return Math.floor(this.milli(now) / MILLI);
  }

  /** The bucket holds at least `need` tokens (+ `held` kept for others) at `now`. */
  has(now: number, need: number, held = 0): boolean {
    return this.milli(now) >= (need + held) * MILLI;
  }

  /** ms until the bucket holds `need + held` tokens; Infinity when that exceeds the capacity. */
  waitMs(now: number, need: number, held = 0): number {
    const want = (need + held) * MILLI;
    if (want > this.capacity * MILLI) return Number.POSITIVE_INFINITY;
    const short = want - this.milli(now);
    return short <= 0 ? 0 : Math.ceil(short / this.rate);
  }

  /** ms of refill until `want` tokens have come in, even beyond the capacity (several requests
   *  spending them as they come): a prediction, not an admission test. */
  refillMs(now: number, want: number): number {
    const short = want * MILLI - this.milli(now);
    return short <= 0 ? 0 : Math.ceil(short / this.rate);
  }

  /** Spends `tokens` at `now` (the caller checked `has`, or accepts an overdraw). */
  take(now: number, tokens: number): void {
    this.refill(now);
    this.balance -= tokens * MILLI;
    if (this.floorAtZero && this.balance < 0) this.balance = 0;
  }

  /** Lowers the balance to at most `tokens` (never raises it): the exchange reported less. */
  capAt(now: number, tokens: number): boolean {
    this.refill(now);
    const m = Math.floor(tokens) * MILLI;
    if (m >= this.balance) return false;
    this.balance = m;
    return true;
  }

  /** New rate and capacity (a tier change); the balance is kept, clamped to the new capacity. */
  resize(now: number, rate: number, capacity: number, floorAtZero = this.floorAtZero): void {
    this.refill(now);
    if (!Number.isSafeInteger(rate) || rate < 1 || !Number.isSafeInteger(capacity) || capacity < 1) {
      throw new RateLimitConfigError(
        `token bucket rate and capacity must be positive integers, got ${rate} and ${capacity}`,
      );
    }
    this.rate = rate;
    this.capacity = capacity;
    this.floorAtZero = floorAtZero;
    if (this.balance > capacity * MILLI) this.balance = capacity * MILLI;
  }

  private refill(now: number): void {
    const t = Math.floor(now);
    if (t <= this.at) return;
    const cap = this.capacity * MILLI;
    if (this.balance < cap) {
      // (t - at) * rate can exceed 2^53 only after ~7 000 years at the largest rate: exact.
      const next = this.balance + (t - this.at) * this.rate;
      this.balance = next > cap ? cap : next;
    }
    this.at = t;
  }
}
