// Periodic midpoint sampling on the injected Clock: every `intervalMs` the midpoint of every token
// of every open market goes into the price history (GET /prices-history) and becomes the token's
// displayed price in the market records (§2.8 tokens[].price). Invariants kept here:
// - only the Clock schedules samples (setInterval), so a VirtualClock drives them in tests;
// - a token without a two-sided book keeps its last displayed price and gets no history point;
// - start/stop are idempotent.
import type { Clock, TimerId } from '../../core/clock.js';
import type { Price } from '../../core/money.js';
import type { MatchingEngine } from '../engine/index.js';
import type { PriceHistory, World } from '../world/index.js';
import { OptionError } from '../../core/errors.js';

export const DEFAULT_SAMPLE_INTERVAL_MS = 60_000;

export class MidSampler {
  private timer: TimerId | null = null;
  samples = 0;

  constructor(
    private readonly clock: Clock,
    private readonly engine: MatchingEngine,
    private readonly world: World,
    private readonly history: PriceHistory,
    readonly intervalMs: number = DEFAULT_SAMPLE_INTERVAL_MS,
  ) {
    if (!Number.isSafeInteger(intervalMs) || intervalMs < 1)
      throw new OptionError('SIM_OPTION', `bad sample interval: ${String(intervalMs)}`);
  }

  start(): void {
    if (this.timer !== null) return;
    this.timer = this.clock.setInterval(() => this.sample(), this.intervalMs);
  }

  stop(): void {
    if (this.timer === null) return;
    this.clock.clearInterval(this.timer);
    this.timer = null;
  }

  /** Samples now (also called by the interval). */
  sample(): void {
    const now = this.clock.now();
    const mids = new Map<string, Price>();
    for (const m of this.world.markets) {
      if (m.state.closed) continue;
      for (const t of m.tokenIds) {
        const p = this.engine.midpoint(t);
        if (p === null || p === undefined) continue;
        mids.set(t, p);
        this.world.setTokenPrice(t, p);
      }
    }
    this.history.sampleMids(this.world, (token) => mids.get(token) ?? null, now);
    this.samples++;
  }
}
