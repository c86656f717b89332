// The daemon's scheduled positions check: on its schedule (config `ledger.positionsCheckCron`,
// node-cron in the real runtime, the injected clock in tests) it compares the ledger's positions
// with the exchange's (GET /positions of the account, through the gateway) and logs every
// difference. It only reads and reports: nothing is corrected. Invariants kept:
// - runs never overlap: a run asked for while one is in flight joins it (the scheduler skips too);
// - a difference must be seen twice to be reported: the exchange knows of a fill before the order
//   manager's next lookup records it in the ledger, so a first look that differs is repeated after
//   `confirmDelayMs` (the daemon gives two order-lookup intervals) and the second look is the
//   result; what only the first look showed is counted (`unconfirmed`), not reported;
// - each difference is one warn line with its kind, token, asset and both sizes (decimal shares);
//   when the two sides agree, one info line; the last run's result is kept for the daemon status;
// - an error (exchange unreachable, a market's tokens unavailable, ...) is logged and recorded as
//   the run's result, never thrown;
// - the domain Position carries millionths; the portfolio API sent float shares, and diffPositions
//   takes them as such (it converts once, exactly): sizes go back through toFloat;
// - a `<condition_id>:<outcome_index>` asset is resolved from the market's token list in outcome
//   order: a universe market holding both tokens of its binary pair (the universe keeps outcome
//   order, but a market configured by one token id lists only that one, so its index says nothing),
//   else the market's settings (GET /clob-markets/{id}), fetched once per market and kept, since a
//   market's tokens never change. A position that still cannot be tied to a token is reported;
// - stop() is final: the schedule ends, an in-flight request is aborted, and a run finishing after
//   stop touches neither the ledger (it may be closed) nor the log.
import type { Clock } from '../core/clock.js';
import type { Position } from '../core/market.js';
import { formatMicros, toFloat } from '../core/money.js';
import type { AccountPort, MarketDataPort } from '../exchange/gateway.js';
import {
  diffPositions,
  tokenResolver,
  type ExchangePositionLike,
  type LedgerPositionLike,
  type PositionDiff,
  type TokenResolver,
} from '../ledger/positions-diff.js';
import type { RefreshScheduler } from '../marketdata/refresh-scheduler.js';
import type { UniverseMarket } from '../marketdata/types.js';
import type { Logger } from './logger.js';
import { StoppedError } from '../core/errors.js';

/** What the check needs of the venue: the account's positions, and a market's tokens. */
export type PositionsPort = AccountPort & Pick<MarketDataPort, 'getMarketSettings'>;

export interface PositionsCheckResult {
  /** When the run started (clock epoch ms). */
  readonly atMs: number;
  readonly durationMs: number;
  readonly outcome: 'agree' | 'differ' | 'error';
  /** Tokens the ledger holds (nonzero size). */
  readonly ledgerPositions: number;
  /** Positions the exchange listed (0 on error). */
  readonly exchangePositions: number;
  readonly differences: readonly PositionDiff[];
  /** Differences of a first look that the confirming look no longer showed (fills in flight). */
  readonly unconfirmed: number;
  /** Why the run failed; null when it ran. */
  readonly error: string | null;
}

export interface PositionsCheckStatus {
  readonly schedule: string;
  /** The account whose positions are checked. */
  readonly address: string;
  /** Completed runs. */
  readonly runs: number;
  readonly running: boolean;
  readonly last: PositionsCheckResult | null;
}

export interface PositionsCheckOptions {
  readonly port: PositionsPort;
  readonly address: string;
  readonly ledger: { positions(opts?: { openOnly?: boolean }): readonly LedgerPositionLike[] };
  /** The current universe (its markets' token lists resolve most assets without a request). */
  readonly markets: () => readonly UniverseMarket[];
  readonly scheduler: RefreshScheduler;
  readonly clock: Clock;
  readonly log: Logger;
  /** Wait before a look that differed is repeated; 0: report the first look (default). */
  readonly confirmDelayMs?: number;
}

interface Look {
  readonly ledgerPositions: number;
  readonly exchangePositions: number;
  readonly differences: readonly PositionDiff[];
}

const diffKey = (d: PositionDiff): string => `${d.kind} ${d.tokenId ?? d.asset ?? ''}`;

/** The exchange position as diffPositions takes it: float shares, every name the token may go by. */
export function exchangeSide(p: Position): ExchangePositionLike {
  return {
    asset: p.asset,
    conditionId: p.conditionId,
    outcomeIndex: p.outcomeIndex,
    size: toFloat(p.size),
    redeemable: p.redeemable,
  };
}

/** A universe market's tokens when they are its whole binary pair, in outcome order; else null. */
function completeTokens(m: UniverseMarket): string[] | null {
  const [a, b] = m.tokens;
  if (m.tokens.length !== 2 || a === undefined || b === undefined) return null;
  return a.complementTokenId === b.tokenId && b.complementTokenId === a.tokenId ? [a.tokenId, b.tokenId] : null;
}

/** The condition id a position names its token by, when it does so by index. */
function indexedCondition(p: Position): string | null {
  const m = /^(.+):(\d+)$/.exec(p.asset);
  if (m !== null) return m[1] ?? null;
  return p.asset === '' && p.conditionId !== '' ? p.conditionId : null;
}

export class PositionsCheck {
  private readonly opts: PositionsCheckOptions;
  private readonly log: Logger;
  /** Token ids by condition id (lower case), from market settings fetched earlier. */
  private readonly fetchedTokens = new Map<string, readonly string[]>();
  private inFlight: Promise<PositionsCheckResult | null> | null = null;
  private abort: AbortController | null = null;
  private started = false;
  private stopped = false;
  private runs = 0;
  private last: PositionsCheckResult | null = null;

  constructor(opts: PositionsCheckOptions) {
    this.opts = opts;
    this.log = opts.log;
  }

  /** Starts the schedule (the first run is the schedule's first tick, not now). */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.opts.scheduler.start(
      async () => {
        await this.run();
      },
      (err) => {
        this.log.warn({ err }, 'positions check failed');
      },
    );
    this.log.info(
      { schedule: this.opts.scheduler.describe(), address: this.opts.address },
      'positions check scheduled',
    );
  }

  /** Ends the schedule and aborts a run in flight; final. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.opts.scheduler.stop();
    this.abort?.abort(new StoppedError('positions check stopped'));
  }

  /** One run now (joins the one in flight); null when stopped before it finished. Never rejects. */
  run(): Promise<PositionsCheckResult | null> {
    if (this.stopped) return Promise.resolve(null);
    if (this.inFlight === null)
      this.inFlight = this.check().finally(() => {
        this.inFlight = null;
      });
    return this.inFlight;
  }

  status(): PositionsCheckStatus {
    return {
      schedule: this.opts.scheduler.describe(),
      address: this.opts.address,
      runs: this.runs,
      running: this.inFlight !== null,
      last: this.last,
    };
  }

  private async check(): Promise<PositionsCheckResult | null> {
    const { clock, address } = this.opts;
    const ac = new AbortController();
    this.abort = ac;
    const atMs = clock.now();
    const t0 = clock.monotonic();
    const confirmDelayMs = this.opts.confirmDelayMs ?? 0;
    let result: PositionsCheckResult;
    try {
      let look = await this.look(ac.signal);
      let unconfirmed = 0;
      if (look === null) return null;
      if (look.differences.length > 0 && confirmDelayMs > 0) {
        const first = look;
        this.log.debug(
          { differences: first.differences.length, confirmDelayMs },
          'positions differ: looking again before reporting',
        );
        await clock.sleep(confirmDelayMs, ac.signal);
        look = await this.look(ac.signal);
        if (look === null) return null;
        const still = new Set(look.differences.map(diffKey));
        unconfirmed = first.differences.filter((d) => !still.has(diffKey(d))).length;
      }
      result = {
        ...look,
        atMs,
        durationMs: clock.monotonic() - t0,
        outcome: look.differences.length === 0 ? 'agree' : 'differ',
        unconfirmed,
        error: null,
      };
      this.report(result);
    } catch (err) {
      if (this.stopped) return null;
      this.log.warn({ err, address }, 'positions check failed');
      result = {
        atMs,
        durationMs: clock.monotonic() - t0,
        outcome: 'error',
        ledgerPositions: 0,
        exchangePositions: 0,
        differences: [],
        unconfirmed: 0,
        error: errorText(err),
      };
    } finally {
      if (this.abort === ac) this.abort = null;
    }
    this.runs++;
    this.last = result;
    return result;
  }

  /** Both sides now; null when stopped meanwhile (the ledger may be closed). */
  private async look(signal: AbortSignal): Promise<Look | null> {
    const exchange = await this.opts.port.getPositions(this.opts.address, signal);
    const resolveToken = await this.resolver(exchange, signal);
    if (this.stopped) return null;
    const ledger = this.opts.ledger.positions({ openOnly: true }).filter((p) => p.size !== 0);
    const differences = diffPositions(ledger, exchange.map(exchangeSide), { resolveToken });
    return { ledgerPositions: ledger.length, exchangePositions: exchange.length, differences };
  }

  private report(r: PositionsCheckResult): void {
    if (r.outcome === 'agree') {
      this.log.info(
        {
          positions: r.ledgerPositions,
          exchangePositions: r.exchangePositions,
          unconfirmed: r.unconfirmed,
          ms: r.durationMs,
        },
        'positions agree with the exchange',
      );
      return;
    }
    for (const d of r.differences) {
      this.log.warn(
        {
          kind: d.kind,
          token: d.tokenId,
          asset: d.asset,
          ledgerSize: formatMicros(d.ledgerSize),
          exchangeSize: d.exchangeSize === null ? null : formatMicros(d.exchangeSize),
          diff: formatMicros(d.diff),
        },
        'position differs from the exchange',
      );
    }
  }

  /**
   * A resolver knowing every market the exchange's positions name by index: the universe's
   * complete markets first, then settings fetched (once per market) for the rest.
   */
  private async resolver(exchange: readonly Position[], signal: AbortSignal): Promise<TokenResolver> {
    const known = new Map<string, readonly string[]>(this.fetchedTokens);
    for (const m of this.opts.markets()) {
      const tokens = completeTokens(m);
      if (tokens !== null) known.set(m.conditionId.toLowerCase(), tokens);
    }
    const missing = new Set<string>();
    for (const p of exchange) {
      const c = indexedCondition(p);
      if (c !== null && !known.has(c.toLowerCase())) missing.add(c);
    }
    for (const c of missing) {
      try {
        const s = await this.opts.port.getMarketSettings(c, signal);
        const tokens = s.tokens.map((t) => t.tokenId);
        this.fetchedTokens.set(c.toLowerCase(), tokens);
        known.set(c.toLowerCase(), tokens);
      } catch (err) {
        if (signal.aborted) throw err;
        // Its positions stay unresolved and are reported as such.
        this.log.debug({ err, market: c }, "positions check: the market's tokens are unavailable");
      }
    }
    return tokenResolver([...known].map(([conditionId, tokenIds]) => ({ conditionId, tokenIds })));
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}
