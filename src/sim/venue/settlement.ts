// Simulated on-chain settlement of the venue's trades, for GET /data/trades: every trade with a
// party the venue serves over HTTP (a wallet it issued a key to or funded) moves, on the injected
// clock, MATCHED → MINED (after `minedAfterMs`) → CONFIRMED (after `confirmedAfterMs`), as the
// public exchange reports its trades; a drawn fraction instead goes MATCHED → RETRYING → FAILED,
// and a failed trade is undone: the engine gives both legs back what they paid (rule 13 of
// engine.ts) and the PositionBook takes the fills back, so GET /positions and the balances no
// longer show it, as when an on-chain settlement fails.
//
// Invariants kept here:
// - deterministic: one uniform draw per tracked trade, in match order, from a generator forked
//   from the venue's seed, whatever the configuration (so changing the fraction mid-run does not
//   shift later draws); `failNext(n)` makes the next n tracked trades fail regardless;
// - a trade whose undo is impossible when its failure comes due (a party already spent what the
//   trade gave it beyond what cancelling its resting orders frees, or the market resolved) ends
//   CONFIRMED instead, as a retried settlement that went through, and is counted;
// - only the clock's timers move a trade on; close() clears them; records are kept up to
//   `capacity` (oldest dropped first).
import type { Clock, TimerId } from '../../core/clock.js';
import type { TradeStatus } from '../../core/market.js';
import type { MatchingEngine, Trade } from '../engine/index.js';
import { Rng, type PositionBook, type Seed } from '../world/index.js';
import type { FillRecorder, RecordedLegs } from './fills.js';
import { OptionError } from '../../core/errors.js';

export interface SettlementConfig {
  /** Match → MINED (RETRYING for a trade that fails), ms of clock time. */
  readonly minedAfterMs: number;
  /** Match → CONFIRMED (FAILED for a trade that fails); at least minedAfterMs. */
  readonly confirmedAfterMs: number;
  /** Fraction of tracked trades whose settlement fails, in [0, 1]. */
  readonly failFraction: number;
}

/** About one Polygon block to MINED, a few more to CONFIRMED; no failures unless asked. */
export const DEFAULT_SETTLEMENT: SettlementConfig = Object.freeze({
  minedAfterMs: 2_000,
  confirmedAfterMs: 10_000,
  failFraction: 0,
});

export const DEFAULT_SETTLEMENT_CAPACITY = 200_000;

/** A settlement setting is unknown or out of range (`--settlement`: exit 2; the /_sim/ route: 400). */
export class SettlementConfigError extends OptionError {
  constructor(message: string) {
    super('SIM_SETTLEMENT_CONFIG', message);
  }
}

const KEYS: readonly (keyof SettlementConfig)[] = ['minedAfterMs', 'confirmedAfterMs', 'failFraction'];

/** Validates a partial config over `base` (an unknown key is an error: a typo would do nothing). */
export function settlementConfig(
  input: Partial<SettlementConfig>,
  base: SettlementConfig = DEFAULT_SETTLEMENT,
): SettlementConfig {
  for (const k of Object.keys(input)) {
    if (!(KEYS as readonly string[]).includes(k))
      throw new SettlementConfigError(`unknown settlement setting ${JSON.stringify(k)}: expected ${KEYS.join(', ')}`);
  }
  const c: SettlementConfig = { ...base, ...input };
  for (const k of ['minedAfterMs', 'confirmedAfterMs'] as const) {
    if (!Number.isSafeInteger(c[k]) || c[k] < 0)
      throw new SettlementConfigError(`${k} must be a non-negative integer, got ${String(c[k])}`);
  }
  if (c.confirmedAfterMs < c.minedAfterMs)
    throw new SettlementConfigError(
      `confirmedAfterMs (${c.confirmedAfterMs}) must be >= minedAfterMs (${c.minedAfterMs})`,
    );
  if (typeof c.failFraction !== 'number' || !(c.failFraction >= 0 && c.failFraction <= 1)) {
    throw new SettlementConfigError(`failFraction must be in [0, 1], got ${String(c.failFraction)}`);
  }
  return Object.freeze(c);
}

const SPEC_KEYS: Readonly<Record<string, keyof SettlementConfig>> = {
  mined_ms: 'minedAfterMs',
  confirmed_ms: 'confirmedAfterMs',
  fail: 'failFraction',
};

/** Parses the CLI form `mined_ms=2000,confirmed_ms=10000,fail=0.01` (any subset) over the defaults. */
export function parseSettlementSpec(spec: string): SettlementConfig {
  const out: Record<string, number> = {};
  for (const part of spec
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '')) {
    const m = /^([a-z_]+)=([0-9]+(?:\.[0-9]+)?)$/.exec(part);
    const key = m === null ? undefined : SPEC_KEYS[m[1] as string];
    if (m === null || key === undefined) {
      throw new SettlementConfigError(
        `bad settlement item ${JSON.stringify(part)}: expected one of ${Object.keys(SPEC_KEYS).join(', ')} = a number`,
      );
    }
    out[key] = Number(m[2]);
  }
  return settlementConfig(out);
}

/** One tracked trade and where its settlement stands. */
export interface SettledTrade {
  readonly trade: Trade;
  readonly status: TradeStatus;
  /** When the status last changed (the match time at first), epoch ms. */
  readonly lastUpdateMs: number;
}

interface Tracked {
  readonly trade: Trade;
  status: TradeStatus;
  lastUpdateMs: number;
  readonly fails: boolean;
  readonly legs: RecordedLegs;
}

export interface SettlementStats {
  tracked: number;
  confirmed: number;
  failed: number;
  /** Drawn (or forced) to fail, but the undo was impossible: confirmed instead. */
  unrevertable: number;
  /** Portfolio fills the PositionBook could not take back (should stay 0). */
  positionErrors: number;
}

export interface SettlementOptions {
  clock: Clock;
  seed: Seed;
  engine: MatchingEngine;
  fills: FillRecorder;
  positions: PositionBook;
  /** Engine accounts whose trades are tracked (the venue's HTTP users). */
  tracked: (owner: string) => boolean;
  config?: Partial<SettlementConfig>;
  capacity?: number;
}

export class Settlement {
  private cfg: SettlementConfig;
  private readonly rng: Rng;
  private readonly records = new Map<string, Tracked>();
  private readonly fifo: string[] = [];
  private fifoHead = 0;
  private readonly byOwner = new Map<string, string[]>();
  private readonly timers = new Set<TimerId>();
  private forced = 0;
  private readonly capacity: number;
  readonly stats: SettlementStats = { tracked: 0, confirmed: 0, failed: 0, unrevertable: 0, positionErrors: 0 };

  constructor(private readonly opts: SettlementOptions) {
    this.cfg = settlementConfig(opts.config ?? {});
    this.rng = new Rng(opts.seed).fork('settlement');
    this.capacity = opts.capacity ?? DEFAULT_SETTLEMENT_CAPACITY;
    if (!Number.isSafeInteger(this.capacity) || this.capacity < 1)
      throw new SettlementConfigError(`bad capacity: ${String(this.capacity)}`);
    opts.fills.onRecorded = (t, legs) => this.onTrade(t, legs);
  }

  get config(): SettlementConfig {
    return this.cfg;
  }

  /** Replaces some settings (later trades use them; trades already tracked keep their schedule). */
  configure(input: Partial<SettlementConfig>): SettlementConfig {
    this.cfg = settlementConfig(input, this.cfg);
    return this.cfg;
  }

  /** The next `n` tracked trades fail, whatever the draw. */
  failNext(n = 1): void {
    if (!Number.isSafeInteger(n) || n < 0)
      throw new SettlementConfigError(`failNext must be a non-negative integer, got ${String(n)}`);
    this.forced += n;
  }

  /** Tracked trades still forced to fail. */
  get pendingForcedFailures(): number {
    return this.forced;
  }

  get(tradeId: string): SettledTrade | undefined {
    return this.records.get(tradeId);
  }

  /** The tracked trades of an engine account (as maker or taker), oldest first. */
  ofOwner(owner: string): SettledTrade[] {
    const ids = this.byOwner.get(owner);
    if (ids === undefined) return [];
    const out: SettledTrade[] = [];
    for (const id of ids) {
      const r = this.records.get(id);
      if (r !== undefined) out.push(r);
    }
    // Drop evicted ids once they are the majority of the list.
    if (out.length * 2 < ids.length)
      this.byOwner.set(
        owner,
        out.map((r) => r.trade.id),
      );
    return out;
  }

  /** Stops every pending transition (the venue is closing). */
  close(): void {
    for (const id of this.timers) this.opts.clock.clearTimeout(id);
    this.timers.clear();
  }

  private onTrade(t: Trade, legs: RecordedLegs): void {
    const { tracked } = this.opts;
    if (!tracked(t.makerOwner) && !tracked(t.takerOwner)) return;
    let fails = this.rng.float() < this.cfg.failFraction;
    if (this.forced > 0) {
      this.forced--;
      fails = true;
    }
    const rec: Tracked = { trade: t, status: 'MATCHED', lastUpdateMs: t.timeMs, fails, legs };
    this.add(rec);
    this.stats.tracked++;
    const { minedAfterMs, confirmedAfterMs } = this.cfg;
    this.after(minedAfterMs, () => this.move(rec, rec.fails ? 'RETRYING' : 'MINED'));
    this.after(confirmedAfterMs, () => this.finish(rec));
  }

  private add(rec: Tracked): void {
    const id = rec.trade.id;
    this.records.set(id, rec);
    this.fifo.push(id);
    for (const owner of new Set([rec.trade.makerOwner, rec.trade.takerOwner])) {
      if (!this.opts.tracked(owner)) continue;
      const list = this.byOwner.get(owner);
      if (list === undefined) this.byOwner.set(owner, [id]);
      else list.push(id);
    }
    while (this.records.size > this.capacity) {
      const old = this.fifo[this.fifoHead++] as string;
      this.records.delete(old);
    }
    if (this.fifoHead > 1024 && this.fifoHead * 2 > this.fifo.length) {
      this.fifo.splice(0, this.fifoHead);
      this.fifoHead = 0;
    }
  }

  private after(ms: number, fn: () => void): void {
    const id = this.opts.clock.setTimeout(() => {
      this.timers.delete(id);
      fn();
    }, ms);
    this.timers.add(id);
  }

  private move(rec: Tracked, status: TradeStatus): void {
    rec.status = status;
    rec.lastUpdateMs = this.opts.clock.now();
  }

  private finish(rec: Tracked): void {
    if (!rec.fails) {
      this.move(rec, 'CONFIRMED');
      this.stats.confirmed++;
      return;
    }
    const t = rec.trade;
    let undone = false;
    try {
      undone = this.opts.engine.revertTrade(t);
    } catch {
      undone = false;
    }
    if (!undone) {
      this.move(rec, 'CONFIRMED');
      this.stats.confirmed++;
      this.stats.unrevertable++;
      return;
    }
    const now = this.opts.clock.now();
    for (const role of ['maker', 'taker'] as const) {
      const released = rec.legs[role];
      if (released === null) continue;
      try {
        this.opts.positions.revertFill(this.opts.fills.fillOf(t, role), released, now);
      } catch {
        this.stats.positionErrors++;
      }
    }
    this.move(rec, 'FAILED');
    this.stats.failed++;
  }
}
