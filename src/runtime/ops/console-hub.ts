// The live side of the ops console: one ticker on the injected clock (a second) that samples the
// equity and inventory series, reads the ledger's new fills, and pushes a fresh snapshot to every
// page connected to GET /events. Invariants kept:
// - it only reads the daemon (status, mids, book cache, live orders, ledger, limiter);
// - the series is sampled every tick whether or not a page is open (the chart has its history when
//   one opens), bounded by SeriesRing; a closed ledger (after the stop) adds no sample rather than a
//   made-up zero;
// - fills are read incrementally after the last sequence number seen, the newest FILLS_KEPT kept;
// - ticks never overlap (the limiter read is async): a tick due while one runs is skipped;
// - a failing read is logged once per kind of failure (warn) and never thrown into the timer;
// - close() stops the ticker and ends every stream, so the server can close at once.
import type { Clock, TimerId } from '../../core/clock.js';
import { toFloat } from '../../core/money.js';
import type { LiveOrder } from '../../core/order.js';
import type { LedgerFill } from '../../ledger/types.js';
import type { Logger } from '../logger.js';
import { buildConsoleView, type ConsoleView } from './console-view.js';
import type { LimiterView } from './metrics.js';
import { pnlReport, type PnlReport, type PnlSource } from './pnl.js';
import { SeriesRing, type SeriesColumns, type SeriesPoint } from './series.js';
import type { OpsDaemon } from './server.js';

/** Fills shown on the page. */
export const FILLS_KEPT = 50;
/** One snapshot (and one chart sample) a second. */
export const CONSOLE_TICK_MS = 1_000;

/** What the console reads of the ledger (the Ledger class satisfies it). */
export interface ConsoleLedger extends PnlSource {
  /** Fills in record order after sequence number afterSeq. */
  fills(afterSeq?: number, limit?: number): readonly LedgerFill[];
}

export interface ConsoleHubOptions {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly daemon: OpsDaemon;
  readonly executor: { liveOrders(): readonly LiveOrder[] };
  readonly ledger: ConsoleLedger;
  /** The limiter's routes and windows; absent: none shown. */
  readonly limiter?: () => Promise<LimiterView | null>;
  readonly tickMs?: number;
  /** Series samples kept (default two hours at one a tick). */
  readonly capacity?: number;
}

/** Receives one server-sent event (name and JSON data). */
export type ConsoleSink = (event: 'series' | 'snapshot', data: string) => void;

const FILL_PAGE = 1_000;

export class ConsoleHub {
  readonly series: SeriesRing;
  private readonly o: ConsoleHubOptions;
  private readonly log: Logger;
  private readonly sinks = new Set<ConsoleSink>();
  private readonly warned = new Set<string>();
  private fillCursor = 0;
  /** Newest last. */
  private recentFills: LedgerFill[] = [];
  private timer: TimerId | null = null;
  private busy = false;
  private closed = false;

  constructor(o: ConsoleHubOptions) {
    this.o = o;
    this.log = o.logger.child({ component: 'console' });
    this.series = new SeriesRing(o.capacity);
  }

  /** Starts the ticker and takes the first sample now. */
  start(): void {
    if (this.timer !== null || this.closed) return;
    this.timer = this.o.clock.setInterval(() => {
      void this.tick();
    }, this.o.tickMs ?? CONSOLE_TICK_MS);
    this.sample(this.readPnl());
  }

  /** Pages connected. */
  get subscribers(): number {
    return this.sinks.size;
  }

  /**
   * Connects a page: it is sent the whole series, then a snapshot now, then one every tick.
   * Returns the disconnect.
   */
  async subscribe(sink: ConsoleSink): Promise<() => void> {
    this.sinks.add(sink);
    const off = (): void => {
      this.sinks.delete(sink);
    };
    sink('series', JSON.stringify(this.seriesColumns()));
    const view = await this.snapshot();
    if (this.sinks.has(sink)) sink('snapshot', JSON.stringify(view));
    return off;
  }

  seriesColumns(): SeriesColumns {
    return this.series.columns();
  }

  /** The console's document as of now. */
  async snapshot(): Promise<ConsoleView> {
    return this.build(this.readPnl());
  }

  /** Stops the ticker and forgets every page (their streams are ended by the server). */
  close(): void {
    this.closed = true;
    if (this.timer !== null) this.o.clock.clearInterval(this.timer);
    this.timer = null;
    this.sinks.clear();
  }

  private async tick(): Promise<void> {
    if (this.busy || this.closed) return;
    this.busy = true;
    try {
      const pnl = this.readPnl();
      this.sample(pnl);
      if (this.sinks.size === 0) return;
      const data = JSON.stringify(await this.build(pnl));
      for (const s of [...this.sinks]) {
        try {
          s('snapshot', data);
        } catch (err) {
          this.sinks.delete(s);
          this.warnOnce('sink', err);
        }
      }
    } catch (err) {
      this.warnOnce('tick', err);
    } finally {
      this.busy = false;
    }
  }

  private readPnl(): PnlReport | null {
    try {
      return pnlReport(this.o.ledger, this.o.daemon.mids());
    } catch (err) {
      this.warnOnce('pnl', err);
      return null;
    }
  }

  private sample(pnl: PnlReport | null): void {
    if (pnl === null) return;
    let held = 0;
    for (const t of pnl.tokens) held += t.size;
    const p: SeriesPoint = { t: this.o.clock.now(), equity: toFloat(pnl.total), inventory: toFloat(held) };
    this.series.push(p);
  }

  private readFills(): void {
    const l = this.o.ledger;
    if (!l.isOpen) return;
    try {
      for (;;) {
        const page = l.fills(this.fillCursor, FILL_PAGE);
        const last = page[page.length - 1];
        if (last === undefined) break;
        this.fillCursor = last.seq;
        this.recentFills.push(...page.slice(-FILLS_KEPT));
        if (this.recentFills.length > FILLS_KEPT) this.recentFills = this.recentFills.slice(-FILLS_KEPT);
        if (page.length < FILL_PAGE) break;
      }
    } catch (err) {
      this.warnOnce('fills', err);
    }
  }

  private async build(pnl: PnlReport | null): Promise<ConsoleView> {
    this.readFills();
    let limiter: LimiterView | null = null;
    try {
      limiter = (await this.o.limiter?.()) ?? null;
    } catch (err) {
      this.warnOnce('limiter', err);
    }
    return buildConsoleView({
      nowMs: this.o.clock.now(),
      status: this.o.daemon.status(),
      orders: this.o.executor.liveOrders(),
      mids: this.o.daemon.mids(),
      pnl,
      marketData: this.o.daemon.marketData(),
      fills: [...this.recentFills].reverse(),
      limiter,
      point: this.series.last(),
    });
  }

  private warnOnce(what: string, err: unknown): void {
    if (this.warned.has(what)) return;
    this.warned.add(what);
    this.log.warn({ err, what }, 'ops console: a read failed (shown without it; logged once)');
  }
}
