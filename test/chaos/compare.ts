// Chaos harness: ledger against exchange. Owns the comparison of the two sides' truth (truth.ts)
// and the ledger-lag sampler. Pure functions over integer millionths, except LagSampler, which
// polls both sides while the daemon runs. Definitions (issue 12):
// - orphan: an order LIVE on the exchange for our account that the ledger does not hold open
//   (no row, or a row in a final state); it would never be cancelled nor looked up again;
// - unknown order: an exchange order of our account (any status) with no ledger row at all;
// - lost fill: an order whose matched size on the exchange exceeds the ledger's Σ fills of it;
//   duplicated fill: the ledger's Σ fills of an order exceeds the exchange's matched size;
// - matched-size mismatch: the ledger's orders.size_matched differs from the exchange's;
// - position mismatch: a token whose ledger positions.size differs from the exchange's position;
// - ledger lag, sampled while running (exchange first, then the ledger, read-only): in shares, the
//   largest Σ over tokens of |exchange − ledger| seen in one sample; in seconds, the longest time
//   one token's ledger position stayed different from the exchange's across consecutive samples
//   (resolution: the sampling interval).
import { existsSync } from 'node:fs';
import type { SimProcess } from './harness.js';
import { exchangeHoldings, isOpenState, LedgerReader, type ExchangeOrder, type LedgerSnapshot } from './truth.js';

export const SHARE = 1_000_000;

/** Millionths → shares, for figures. */
export function shares(micros: number): number {
  return micros / SHARE;
}

export interface OrderMismatch {
  readonly id: string;
  readonly exchange: number;
  readonly ledger: number;
  readonly ledgerState: string | null;
}
export interface PositionMismatch {
  readonly tokenId: string;
  readonly exchange: number;
  readonly ledger: number;
}

export interface Reconciliation {
  readonly exchangeOrders: number;
  readonly ledgerOrders: number;
  /** Orders of ours the exchange has filled something of. */
  readonly ordersWithFills: number;
  readonly liveOnExchange: number;
  readonly orphans: readonly string[];
  readonly unknownToLedger: readonly string[];
  readonly lost: readonly OrderMismatch[];
  readonly lostShares: number;
  readonly duplicated: readonly OrderMismatch[];
  readonly duplicatedShares: number;
  readonly matchedMismatch: readonly OrderMismatch[];
  readonly positionMismatch: readonly PositionMismatch[];
  readonly positionMismatchShares: number;
}

/** Orders LIVE on the exchange that the ledger does not hold open. */
export function orphansOf(exchange: readonly ExchangeOrder[], ledger: LedgerSnapshot): string[] {
  return exchange
    .filter((o) => {
      const row = ledger.orders.get(o.id);
      return o.status === 'LIVE' && (row === undefined || !isOpenState(row.state));
    })
    .map((o) => o.id);
}

/** Tokens whose sizes differ (a token absent on one side counts as 0 there). */
export function diffPositions(
  ledger: ReadonlyMap<string, number>,
  exchange: ReadonlyMap<string, number>,
): PositionMismatch[] {
  const out: PositionMismatch[] = [];
  for (const t of new Set([...ledger.keys(), ...exchange.keys()])) {
    const l = ledger.get(t) ?? 0;
    const e = exchange.get(t) ?? 0;
    if (l !== e) out.push({ tokenId: t, exchange: e, ledger: l });
  }
  return out;
}

/** Both sides after the daemon stopped (or was killed). */
export function reconcile(
  exchange: readonly ExchangeOrder[],
  ledger: LedgerSnapshot,
  exchangePositions: ReadonlyMap<string, number>,
): Reconciliation {
  const lost: OrderMismatch[] = [];
  const duplicated: OrderMismatch[] = [];
  const matchedMismatch: OrderMismatch[] = [];
  const unknownToLedger: string[] = [];
  const seen = new Set<string>();
  for (const o of exchange) {
    seen.add(o.id);
    const row = ledger.orders.get(o.id);
    if (row === undefined) unknownToLedger.push(o.id);
    const filled = ledger.fillsByOrder.get(o.id) ?? 0;
    const m = { id: o.id, exchange: o.sizeMatched, ledger: filled, ledgerState: row?.state ?? null };
    if (o.sizeMatched > filled) lost.push(m);
    if (filled > o.sizeMatched) duplicated.push(m);
    if (row !== undefined && row.sizeMatched !== o.sizeMatched) matchedMismatch.push({ ...m, ledger: row.sizeMatched });
  }
  // Fills the ledger holds for orders the exchange has never seen are duplicates too.
  for (const [id, filled] of ledger.fillsByOrder) {
    if (!seen.has(id) && filled > 0)
      duplicated.push({ id, exchange: 0, ledger: filled, ledgerState: ledger.orders.get(id)?.state ?? null });
  }
  const positionMismatch = diffPositions(ledger.positions, exchangePositions);
  return {
    exchangeOrders: exchange.length,
    ledgerOrders: ledger.orders.size,
    ordersWithFills: exchange.filter((o) => o.sizeMatched > 0).length,
    liveOnExchange: exchange.filter((o) => o.status === 'LIVE').length,
    orphans: orphansOf(exchange, ledger),
    unknownToLedger,
    lost,
    lostShares: lost.reduce((s, m) => s + m.exchange - m.ledger, 0),
    duplicated,
    duplicatedShares: duplicated.reduce((s, m) => s + m.ledger - m.exchange, 0),
    matchedMismatch,
    positionMismatch,
    positionMismatchShares: positionMismatch.reduce((s, p) => s + Math.abs(p.exchange - p.ledger), 0),
  };
}

// ------------------------------------------------------------------------------------ lag

export interface LagFigures {
  readonly samples: number;
  /** Largest Σ |exchange − ledger| over tokens in one sample, millionths. */
  readonly maxShares: number;
  /** Longest run of one token's disagreement, seconds. */
  readonly maxSeconds: number;
  /** Samples that failed (an exchange or ledger read error); reported, not hidden. */
  readonly errors: number;
}

/**
 * Samples ledger lag every intervalMs while the daemon runs: the exchange's holdings
 * (GET /_sim/balances, never throttled) first, then the ledger's positions (read-only). The interval
 * is a sampling cadence, not a wait for a state.
 */
export class LagSampler {
  private reader: LedgerReader | null = null;
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly since = new Map<string, number>();
  private figures = { samples: 0, maxShares: 0, maxSeconds: 0, errors: 0 };

  constructor(
    private readonly sim: SimProcess,
    private readonly ledgerPath: string,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.inFlight = this.sample().finally(() => this.schedule());
    }, this.intervalMs);
  }

  private async sample(): Promise<void> {
    try {
      const exchange = await exchangeHoldings(this.sim);
      if (this.reader === null) {
        if (!existsSync(this.ledgerPath)) return;
        this.reader = new LedgerReader(this.ledgerPath);
      }
      const ledger = this.reader.positions();
      const now = performance.now();
      const diffs = diffPositions(ledger, exchange);
      const total = diffs.reduce((s, d) => s + Math.abs(d.exchange - d.ledger), 0);
      const off = new Set(diffs.map((d) => d.tokenId));
      for (const t of [...this.since.keys()]) if (!off.has(t)) this.since.delete(t);
      for (const t of off) {
        const first = this.since.get(t) ?? now;
        this.since.set(t, first);
        this.figures.maxSeconds = Math.max(this.figures.maxSeconds, (now - first) / 1000);
      }
      this.figures.maxShares = Math.max(this.figures.maxShares, total);
      this.figures.samples++;
    } catch {
      this.figures.errors++;
    }
  }

  /** Stops sampling (after the sample in flight) and returns the figures. */
  async stop(): Promise<LagFigures> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    await this.inFlight;
    this.reader?.close();
    this.reader = null;
    return { ...this.figures };
  }
}
