// The trade feed: our trades from the exchange's trades route (GET /data/trades, the gateway's
// `accountTrades`), the main source of fills where the exchange has one; order lookups (the order
// manager) stay the fallback. Each poll reads the account's trades matched since a cursor, books
// our legs of them in the ledger (Ledger.recordTradeLeg: shares lookups booked already are claimed,
// never counted twice; CONFIRMED makes shares final; FAILED reverses them once) and tells every
// new fill as a FillEvent (source 'trade') and every reversal to its listeners and the log.
// Invariants kept:
// - re-reading is harmless: the ledger keys legs by (trade id, order id) and only moves their
//   status, so the cursor may overlap; in memory, a leg whose status is unchanged is not written;
// - the cursor: every poll reads from the oldest leg not yet final (its status still moves) or
//   the latest match seen minus `overlapMs` (`after` is in whole seconds, inclusive), whichever
//   is older, never further back than `maxLookbackMs`; the first poll starts from the ledger's
//   legs (or `startLookbackMs` ago when it has none);
// - a read budget: at most `maxTradesPerPoll` records per poll. A poll cut short continues from
//   the last record it read, so a backlog is worked through in turns instead of being re-read;
// - only legs of orders the ledger knows are booked; another's (a second process, a pruned order)
//   is logged once per order and skipped; a leg the ledger refuses (contents that contradict it)
//   is logged and skipped, the rest of the poll goes on;
// - fees: what the exchange charges for the leg's role, from the market's fee model (core/fees.ts
//   through fill-tracker.ts feeModelOfRates: the `fd` curve on the public exchange, makers pay
//   none); a market whose fees are unknown is booked at the trade's own base rate (fee_rate_bps),
//   the figure the record carries;
// - poll() never throws: a failed read is logged and reported (`error`), the next poll retries;
//   a trades route the exchange does not have (404) turns the feed off for good, said once;
//   polls never overlap (a call while one runs joins it); close() aborts the running read.
import type { TradeRecord } from '../core/account.js';
import type { Clock, TimerId } from '../core/clock.js';
import { ExchangeError } from '../exchange/errors.js';
import type { AccountLifecyclePort } from '../exchange/gateway.js';
import type { FillReversal, LedgerOrder, TradeLegInput, TradeLegOutcome } from '../ledger/types.js';
import { fillFee } from '../core/fees.js';
import { feeMicros, feeModelOfRates, type FeeRates, type FillEvent } from './fill-tracker.js';
import { fillLogFields, reversalLogFields, type MarketNameOf } from './fill-log.js';
import { SILENT_LOGGER, type ManagerLogger } from './order-manager-types.js';
import { OptionError } from '../core/errors.js';

/** What the feed needs of the ledger (the Ledger class satisfies it). */
export interface TradeFeedLedger {
  order(id: string): Pick<LedgerOrder, 'sizeMatched'> | null;
  recordTradeLeg(leg: TradeLegInput): TradeLegOutcome;
  oldestUnsettledTradeMs(): number | null;
  latestTradeMs(): number | null;
}

export interface TradeFeedOptions {
  readonly gateway: Pick<AccountLifecyclePort, 'accountTrades'>;
  readonly ledger: TradeFeedLedger;
  readonly clock: Clock;
  readonly logger?: ManagerLogger;
  /** Told each new fill (after it is logged); an exception is logged, never thrown. */
  readonly onFill?: (f: FillEvent) => void;
  /** Told each reversal of a FAILED leg. */
  readonly onReversal?: (r: FillReversal) => void;
  /** The fee rates of a token's market (the order manager's market settings); undefined: unknown. */
  readonly fees?: (tokenId: string) => FeeRates | undefined;
  /** A token's market by its short name, for the fill lines (fill-log.ts); undefined: unknown. */
  readonly marketName?: MarketNameOf;
  /** How far behind the latest match seen each poll starts again (default 2000 ms). */
  readonly overlapMs?: number;
  /** Trade records one poll reads at most (default 2000: four pages of 500). */
  readonly maxTradesPerPoll?: number;
  /** First poll with no leg in the ledger: read from this long ago (default 10 min). */
  readonly startLookbackMs?: number;
  /** Never read further back than this (default 1 h): a leg pending longer stops being re-read. */
  readonly maxLookbackMs?: number;
  /** A poll's read is aborted after this long (default 10 s). */
  readonly timeoutMs?: number;
}

export interface TradeFeedReport {
  /** Trade records read. */
  readonly read: number;
  /** Legs booked for the first time, and known legs whose status moved. */
  readonly recorded: number;
  readonly updated: number;
  readonly fills: readonly FillEvent[];
  readonly reversals: readonly FillReversal[];
  /** Legs of orders the ledger does not know (skipped). */
  readonly unknown: number;
  /** Legs the ledger refused (logged). */
  readonly refused: number;
  /** The read failed (logged); what was read before it is booked. */
  readonly error: unknown;
  /** The poll read up to the newest trade (false: budget spent, aborted or failed). */
  readonly complete: boolean;
}

export interface TradeFeedStatus {
  readonly enabled: boolean;
  /** Where the next poll reads from (epoch ms), null before the first. */
  readonly cursorMs: number | null;
  readonly lastPollAtMs: number | null;
  readonly polls: number;
}

const DEFAULTS = {
  overlapMs: 2_000,
  maxTradesPerPoll: 2_000,
  startLookbackMs: 600_000,
  maxLookbackMs: 3_600_000,
  timeoutMs: 10_000,
};
/** Bound of the in-memory sets (known leg statuses, orders logged as unknown). */
const MEMORY_CAP = 50_000;

const EMPTY: TradeFeedReport = Object.freeze({
  read: 0,
  recorded: 0,
  updated: 0,
  fills: [],
  reversals: [],
  unknown: 0,
  refused: 0,
  error: null,
  complete: true,
});

export class TradeFeed {
  private readonly o: Required<Omit<TradeFeedOptions, 'onFill' | 'onReversal' | 'logger' | 'marketName'>>;
  private readonly log: ManagerLogger;
  /** Last status written per `tradeId orderId`, with the leg's match time (pruned behind the cursor). */
  private readonly known = new Map<string, { status: string; matchMs: number }>();
  private readonly unknownOrders = new Set<string>();
  private readonly aborts = new AbortController();
  private running: Promise<TradeFeedReport> | null = null;
  /** The next poll's start (null: not computed yet). */
  private resumeFromMs: number | null = null;
  private latestMs: number | null = null;
  private enabled = true;
  private closed = false;
  private lastPollAtMs: number | null = null;
  private polls = 0;
  private cursorMs: number | null = null;
  /** Match time of the pending leg last warned about as beyond the look-back (warned once). */
  private staleWarnedMs: number | null = null;

  constructor(private readonly opts: TradeFeedOptions) {
    this.o = {
      gateway: opts.gateway,
      ledger: opts.ledger,
      clock: opts.clock,
      fees: opts.fees ?? (() => undefined),
      overlapMs: opts.overlapMs ?? DEFAULTS.overlapMs,
      maxTradesPerPoll: opts.maxTradesPerPoll ?? DEFAULTS.maxTradesPerPoll,
      startLookbackMs: opts.startLookbackMs ?? DEFAULTS.startLookbackMs,
      maxLookbackMs: opts.maxLookbackMs ?? DEFAULTS.maxLookbackMs,
      timeoutMs: opts.timeoutMs ?? DEFAULTS.timeoutMs,
    };
    for (const k of ['overlapMs', 'maxTradesPerPoll', 'startLookbackMs', 'maxLookbackMs', 'timeoutMs'] as const) {
      const v = this.o[k];
      if (!Number.isSafeInteger(v) || v < (k === 'maxTradesPerPoll' || k === 'timeoutMs' ? 1 : 0))
        throw new OptionError('EXECUTION_OPTION', `tradeFeed.${k} must be a non-negative integer, got ${String(v)}`);
    }
    this.log = opts.logger ?? SILENT_LOGGER;
    this.latestMs = opts.ledger.latestTradeMs();
  }

  /** Reads and books the trades since the cursor (see the header). Never throws. */
  poll(signal?: AbortSignal): Promise<TradeFeedReport> {
    if (!this.enabled || this.closed) return Promise.resolve(EMPTY);
    if (this.running !== null) return this.running;
    const p = this.doPoll(signal).finally(() => {
      this.running = null;
    });
    this.running = p;
    return p;
  }

  /** Stops the feed: the running read is aborted, later polls do nothing. */
  close(): void {
    this.closed = true;
    this.aborts.abort();
  }

  status(): TradeFeedStatus {
    return {
      enabled: this.enabled && !this.closed,
      cursorMs: this.cursorMs,
      lastPollAtMs: this.lastPollAtMs,
      polls: this.polls,
    };
  }

  private startMs(now: number): number {
    const { ledger, overlapMs, startLookbackMs, maxLookbackMs } = this.o;
    const unsettled = ledger.oldestUnsettledTradeMs();
    const latest = this.latestMs === null ? null : this.latestMs - overlapMs;
    let from: number;
    if (this.resumeFromMs !== null) from = this.resumeFromMs;
    else if (unsettled !== null || latest !== null)
      from = Math.min(unsettled ?? Number.POSITIVE_INFINITY, latest ?? Number.POSITIVE_INFINITY);
    else from = now - startLookbackMs;
    const floor = now - maxLookbackMs;
    if (from < floor && unsettled !== null && unsettled < floor && unsettled !== this.staleWarnedMs) {
      this.staleWarnedMs = unsettled;
      this.log.warn(
        { oldestPendingMatchMs: unsettled, maxLookbackMs },
        'trades pending for longer than the look-back are no longer re-read; lookups and the positions check cover them',
      );
    }
    return Math.max(from, floor);
  }

  private async doPoll(signal: AbortSignal | undefined): Promise<TradeFeedReport> {
    const { clock, gateway, maxTradesPerPoll, timeoutMs } = this.o;
    const now = clock.now();
    this.lastPollAtMs = now;
    this.polls++;
    const fromMs = this.startMs(now);
    this.cursorMs = fromMs;
    const ac = new AbortController();
    const abort = (): void => {
      ac.abort();
    };
    const timer: TimerId = clock.setTimeout(abort, timeoutMs);
    this.aborts.signal.addEventListener('abort', abort);
    signal?.addEventListener('abort', abort);
    if (signal?.aborted === true) abort();
    const acc = {
      read: 0,
      recorded: 0,
      updated: 0,
      unknown: 0,
      refused: 0,
      fills: [] as FillEvent[],
      reversals: [] as FillReversal[],
    };
    let lastMatchMs: number | null = null;
    let error: unknown = null;
    let cut = false;
    try {
      for await (const t of gateway.accountTrades(fromMs, ac.signal)) {
        acc.read++;
        lastMatchMs = t.matchTimeMs;
        if (this.latestMs === null || t.matchTimeMs > this.latestMs) this.latestMs = t.matchTimeMs;
        this.book(t, acc);
        if (acc.read >= maxTradesPerPoll) {
          cut = true;
          break;
        }
      }
    } catch (err) {
      error = err;
      if (err instanceof ExchangeError && err.status === 404) {
        this.enabled = false;
        this.log.warn({ err }, 'the exchange has no trades route (404): order lookups stay the only fill source');
      } else if (!this.closed) {
        this.log.warn({ err, fromMs, read: acc.read }, 'reading our trades failed; retried at the next poll');
      }
    } finally {
      clock.clearTimeout(timer);
      this.aborts.signal.removeEventListener('abort', abort);
      signal?.removeEventListener('abort', abort);
    }
    // Where the next poll starts: after a cut, from the last record read (a backlog is worked
    // through in turns; the same second again if need be, moving on when one second alone is
    // more than the budget); else from the ledger's pending legs and the latest match seen.
    if (cut && lastMatchMs !== null) {
      const stuck = Math.floor(lastMatchMs / 1000) <= Math.floor(fromMs / 1000);
      if (stuck)
        this.log.warn(
          { atMs: lastMatchMs, maxTradesPerPoll },
          'more trades in one second than a poll reads: the rest of that second is left to order lookups',
        );
      this.resumeFromMs = stuck ? lastMatchMs + 1000 : lastMatchMs;
    } else if (error === null) {
      this.resumeFromMs = null;
    }
    this.prune(fromMs);
    this.emit(acc.fills, acc.reversals);
    return { ...acc, error, complete: !cut && error === null };
  }

  /** Books our legs of one trade. */
  private book(
    t: TradeRecord,
    acc: {
      recorded: number;
      updated: number;
      unknown: number;
      refused: number;
      fills: FillEvent[];
      reversals: FillReversal[];
    },
  ): void {
    const { ledger } = this.o;
    const liquidity = t.traderSide === 'TAKER' ? 'taker' : 'maker';
    for (const leg of t.ownLegs) {
      const key = `${t.id} ${leg.orderId}`;
      if (this.known.get(key)?.status === t.status) continue;
      const model = feeModelOfRates(this.o.fees?.(leg.assetId));
      const bps =
        t.traderSide === 'TAKER'
          ? t.feeRateBps
          : (t.makerOrders.find((m) => m.orderId === leg.orderId)?.feeRateBps ?? t.feeRateBps);
      const fee = model !== null ? fillFee(model, liquidity, leg.price, leg.size) : feeMicros(bps, leg.price, leg.size);
      let out: TradeLegOutcome;
      try {
        out = ledger.recordTradeLeg({
          tradeId: t.id,
          orderId: leg.orderId,
          tokenId: leg.assetId,
          side: leg.side,
          price: leg.price,
          size: leg.size,
          feeMicros: fee,
          liquidity,
          status: t.status,
          matchTimeMs: t.matchTimeMs,
          lastUpdateMs: t.lastUpdateMs,
        });
      } catch (err) {
        acc.refused++;
        this.log.error(
          { err, tradeId: t.id, orderId: leg.orderId, status: t.status },
          'a trade leg the ledger refuses: not booked',
        );
        this.remember(key, t.status, t.matchTimeMs);
        continue;
      }
      if (out.result === 'unknown-order') {
        acc.unknown++;
        if (!this.unknownOrders.has(leg.orderId)) {
          if (this.unknownOrders.size >= MEMORY_CAP) this.unknownOrders.clear();
          this.unknownOrders.add(leg.orderId);
          this.log.info(
            { orderId: leg.orderId, tradeId: t.id },
            'trade of an order the ledger does not know: not booked',
          );
        }
        continue;
      }
      // The status as reported: the same report again is skipped (a contradiction is warned once).
      this.remember(key, t.status, t.matchTimeMs);
      if (out.result === 'recorded') acc.recorded++;
      else if (out.result === 'updated') acc.updated++;
      else if (out.result === 'ignored') {
        this.log.warn(
          { tradeId: t.id, orderId: leg.orderId, status: out.leg?.status, reported: t.status },
          'a final trade reported with another status: kept as it was',
        );
      }
      const f = out.fill;
      if (f !== null && f.orderId !== null) {
        acc.fills.push({
          orderId: f.orderId,
          tokenId: f.tokenId,
          conditionId: f.conditionId,
          side: f.side,
          price: f.price,
          size: f.size,
          cumulative: ledger.order(f.orderId)?.sizeMatched ?? f.size,
          feeMicros: f.feeMicros,
          feeKnown: true,
          liquidity: f.liquidity,
          source: 'trade',
          timeMs: f.timeMs,
        });
      }
      if (out.reversal !== null) acc.reversals.push(out.reversal);
    }
  }

  private remember(key: string, status: string, matchMs: number): void {
    if (this.known.size >= MEMORY_CAP) this.known.clear(); // only a cache: the ledger is the record
    this.known.set(key, { status, matchMs });
  }

  /** Forgets legs matched well before where reads start (they will not be read again). */
  private prune(fromMs: number): void {
    const before = fromMs - 60_000;
    for (const [k, v] of this.known) if (v.matchMs < before) this.known.delete(k);
  }

  private emit(fills: readonly FillEvent[], reversals: readonly FillReversal[]): void {
    for (const f of fills) {
      this.log.info({ ...fillLogFields(f, this.opts.marketName?.(f.tokenId)), source: 'trade' }, 'fill');
      try {
        this.opts.onFill?.(f);
      } catch (e) {
        this.log.error({ err: String(e) }, 'onFill handler threw');
      }
    }
    for (const r of reversals) {
      this.log.warn(
        reversalLogFields(r, this.opts.marketName?.(r.tokenId)),
        'trade failed on chain: its fill is reversed in the ledger',
      );
      try {
        this.opts.onReversal?.(r);
      } catch (e) {
        this.log.error({ err: String(e) }, 'onReversal handler threw');
      }
    }
  }
}
