// An in-memory order executor for the daemon and cycle tests: plans are applied at once (cancels
// remove, placements rest as live orders), every call is logged in order, fills are scripted and
// written to a real ledger (as the order manager does), cancelAll halts placements until resume().
// It can be told to hang in cancelAll (shutdown deadline) or to throw in apply.
import type { Clock } from '../../src/core/clock.js';
import type { Micros, Shares } from '../../src/core/money.js';
import type { LiveOrder } from '../../src/core/order.js';
import type { CircuitState } from '../../src/execution/circuit-breaker.js';
import type {
  ApplyReport,
  CancelAllReport,
  MarketsByToken,
  OrphanPolicy,
  PollReport,
  ResolveReport,
  StartupReport,
} from '../../src/execution/order-manager-types.js';
import type { ReconcilePlan } from '../../src/execution/types.js';
import type { Ledger } from '../../src/ledger/index.js';
import type { OrderExecutor } from '../../src/runtime/executor.js';

export class FakeExecutor implements OrderExecutor {
  readonly events: string[] = [];
  readonly plans: ReconcilePlan[] = [];
  readonly markets: MarketsByToken[] = [];
  circuitState: CircuitState = 'closed';
  halted = false;
  hangCancelAll = false;
  failApply = 0;
  startupOrphanPolicy: OrphanPolicy | null = null;
  private readonly orders = new Map<string, LiveOrder>();
  private readonly conditionOf = new Map<string, string>();
  private nextId = 1;

  /** Write orders to the ledger as the order manager does (off: a benchmark's memory profile). */
  recordInLedger = true;
  /** Keep every plan, market map and call (off: a long benchmark run). */
  keepHistory = true;

  constructor(
    private readonly clock: Clock,
    private readonly ledger: Ledger,
    private readonly trace?: string[],
  ) {}

  private log(e: string): void {
    if (this.keepHistory) this.events.push(e);
    this.trace?.push(`executor.${e}`);
  }

  async startupReconcile(opts: { orphanPolicy: OrphanPolicy; markets?: MarketsByToken }): Promise<StartupReport> {
    this.log('startupReconcile');
    this.startupOrphanPolicy = opts.orphanPolicy;
    return {
      lookedUp: 0,
      live: 0,
      adopted: 0,
      cancelled: 0,
      closed: 0,
      notFound: 0,
      foreign: 0,
      listed: null,
      unresolved: [],
      fills: [],
    };
  }

  async apply(plan: ReconcilePlan, markets: MarketsByToken): Promise<ApplyReport> {
    this.log('apply');
    if (this.failApply > 0) {
      this.failApply--;
      throw new Error('exchange unavailable');
    }
    if (this.keepHistory) {
      this.plans.push(plan);
      this.markets.push(markets);
    }
    let cancelled = 0;
    for (const c of plan.cancels) {
      if (!this.orders.delete(c.orderId)) continue;
      this.conditionOf.delete(c.orderId);
      if (this.recordInLedger) this.ledger.markCanceled(c.orderId, 'canceled by us');
      cancelled++;
    }
    let accepted = 0;
    const dropped: Array<{ key: string; reason: 'halted' | 'no-market' }> = [];
    for (const p of plan.placements) {
      const m = markets.get(p.quote.tokenId);
      if (this.halted) {
        dropped.push({ key: p.key, reason: 'halted' });
        continue;
      }
      if (m === undefined) {
        dropped.push({ key: p.key, reason: 'no-market' });
        continue;
      }
      const id = `0x${(this.nextId++).toString(16).padStart(64, '0')}`;
      if (this.recordInLedger) {
        // Written to the ledger before "sending", then accepted, as the order manager does.
        this.ledger.recordSignedOrder({
          id,
          tokenId: p.quote.tokenId,
          conditionId: m.conditionId,
          side: p.quote.side,
          price: p.quote.price,
          size: p.quote.size,
          orderType: 'GTC',
          salt: String(this.nextId),
          createdAtMs: this.clock.now(),
        });
        this.ledger.markSent(id);
        this.ledger.markAccepted(id, { status: 'live', makingAmount: null, takingAmount: null });
      }
      this.conditionOf.set(id, m.conditionId);
      this.orders.set(id, {
        id,
        tokenId: p.quote.tokenId,
        side: p.quote.side,
        price: p.quote.price,
        originalSize: p.quote.size,
        sizeMatched: 0 as Shares,
        state: 'live',
        createdAtMs: this.clock.now(),
        ...(p.quote.tag !== undefined ? { tag: p.quote.tag } : {}),
      });
      accepted++;
    }
    return {
      superseded: false,
      cancelsSent: plan.cancels.length,
      cancelled,
      cancelsFailed: plan.cancels.length - cancelled,
      placementsSent: accepted,
      accepted,
      rejected: [],
      unknown: 0,
      dropped,
      fills: [],
    };
  }

  async pollFills(): Promise<PollReport> {
    this.log('pollFills');
    return { lookedUp: 0, closed: 0, failed: 0, fills: [] };
  }

  async resolveUnknown(): Promise<ResolveReport> {
    this.log('resolveUnknown');
    return { lookedUp: 0, live: 0, closed: 0, notFound: 0, failed: 0, fills: [] };
  }

  liveOrders(): LiveOrder[] {
    return [...this.orders.values()];
  }

  async cancelAll(): Promise<CancelAllReport> {
    this.log('cancelAll');
    this.halted = true;
    if (this.hangCancelAll) await new Promise<never>(() => undefined);
    const cancelled = this.orders.size;
    if (this.recordInLedger) for (const id of this.orders.keys()) this.ledger.markCanceled(id, 'cancelAll');
    this.orders.clear();
    this.conditionOf.clear();
    return {
      cancelled,
      remaining: [],
      finalReadsOwed: [],
      fillsRecorded: 0,
      fillSharesRecorded: 0 as Shares,
      timedOut: false,
    };
  }

  resume(): void {
    this.log('resume');
    this.halted = false;
  }

  async close(): Promise<void> {
    this.log('close');
  }

  /** Fills `size` of an order at its price, recorded in the ledger; removes it when complete. */
  fill(orderId: string, size: number, feeMicros = 0): void {
    const o = this.orders.get(orderId);
    if (o === undefined) throw new Error(`fake executor: no order ${orderId}`);
    const matched = o.sizeMatched + size;
    this.ledger.recordFill({
      orderId,
      tokenId: o.tokenId,
      conditionId: this.conditionOf.get(orderId) ?? '',
      side: o.side,
      price: o.price,
      size: size as Shares,
      feeMicros: feeMicros as Micros,
      liquidity: 'maker',
      timeMs: this.clock.now(),
      source: 'sim',
      dedupKey: `${orderId}:${matched}`,
    });
    if (matched >= o.originalSize) {
      this.orders.delete(orderId);
      this.conditionOf.delete(orderId);
      this.ledger.markMatched(orderId);
    } else this.orders.set(orderId, { ...o, sizeMatched: matched as Shares });
  }

  /** Every live order of a token. */
  ordersOf(tokenId: string): LiveOrder[] {
    return this.liveOrders().filter((o) => o.tokenId === tokenId);
  }
}
