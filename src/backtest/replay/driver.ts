// The daemon's cycle discipline, synchronously, for the replay: what Daemon.start/onSnapshot/stop
// do around a cycle (src/runtime/daemon.ts), over the same cycle (beginCycle → apply →
// fill reads when due → finishCycle, src/runtime/cycle.ts) and the same parts
// (cycle-parts.ts). Kept identical: the strategy starts on an input with the universe and no
// books; a cycle reads fills when `orderLookupIntervalMs` has passed since the last read; fills
// reach the strategy once each, in ledger order; a strategy error halts quoting (quotes pulled);
// a kill switch tripped by risk cancels every order; stop() cancels everything and reads every
// cancelled order once more. Not modelled, because a backtest has none of them: the market-data
// circuit (the recording never fails), the exchange's heartbeat and balance, operator pauses.
// Cycles never overlap: a cycle whose plan still waits on the clock (latency, limiter) makes the
// next tick a skip, as the poller skips a tick while a cycle runs; a skipped tick takes no
// snapshot (the poller polls nothing on it), so its books are never built.
import type { VirtualClock } from '../../core/clock.js';
import type { Shares } from '../../core/money.js';
import { KILL_SWITCH_ARMED, type KillSwitchState } from '../../execution/risk.js';
import type { MarketSnapshot } from '../../marketdata/types.js';
import {
  beginCycle,
  buildStrategyInput,
  collateral,
  finishCycle,
  lastFillSeq,
  marketsByToken,
  mayHaveFilled,
  type CycleContext,
  type CycleReport,
} from '../../runtime/cycle.js';
import type { BacktestExecutor } from './executor.js';

export interface CycleDriverOptions {
  readonly clock: VirtualClock;
  readonly ctx: CycleContext<BacktestExecutor>;
  readonly orderLookupIntervalMs: number;
  /** Every cycle's report, once its plan is done. */
  readonly onCycle: (r: CycleReport) => void;
}

export class CycleDriver {
  private fillSeq = 0;
  private lastFillPollAtMs = Number.NEGATIVE_INFINITY;
  private killSwitch: KillSwitchState = KILL_SWITCH_ARMED;
  private halted = false;
  private inCycle = false;
  private stopped = false;

  constructor(private readonly o: CycleDriverOptions) {}

  /** The strategy starts (after the universe is in the cache, before the first cycle). */
  start(): void {
    const { ctx } = this.o;
    this.fillSeq = lastFillSeq(ctx.ledger);
    ctx.runner.start(this.input());
  }

  /** Whether a cycle is running (its plan waits on the clock). */
  get running(): boolean {
    return this.inCycle || this.o.ctx.executor.busy;
  }

  /** Runs one cycle on the snapshot `take` returns, unless one is running (then a skip: not taken). */
  cycle(take: () => MarketSnapshot): void {
    if (this.stopped) return;
    if (this.running) return;
    const snapshot = take();
    const { clock, ctx } = this.o;
    const now = clock.now();
    const pollFills = now - this.lastFillPollAtMs >= this.o.orderLookupIntervalMs;
    if (pollFills) this.lastFillPollAtMs = now;
    const ks0 = this.killSwitch;
    const control = { quoting: !this.halted, killSwitch: ks0, pollFills, fillSeq: this.fillSeq };
    const started = beginCycle(ctx, control, snapshot);
    this.inCycle = true;
    ctx.executor.apply(started.planned.plan, marketsByToken(ctx.cache), (done) => {
      if (pollFills) {
        ctx.executor.pollNow({ mayHaveFilled: mayHaveFilled(ctx.cache) });
        ctx.executor.resolveNow();
      }
      const report = finishCycle(ctx, control, snapshot, started, done);
      this.inCycle = false;
      this.fillSeq = report.fillSeq;
      const tripped = !ks0.tripped && report.killSwitch.tripped;
      this.killSwitch = report.killSwitch;
      this.o.onCycle(report);
      if (report.strategyError !== null) this.halted = true;
      if (tripped) ctx.executor.cancelAll(() => undefined);
    });
  }

  /** Stops cycling, then (once the running plan is done) cancels every order; `done` after the final reads. */
  stop(done: () => void): void {
    this.stopped = true;
    this.o.ctx.runner.stop(this.input());
    this.o.ctx.executor.cancelAll(done);
  }

  private input(): ReturnType<typeof buildStrategyInput> {
    const { clock, ctx } = this.o;
    const positions = ctx.ledger.positions();
    const held = new Map<string, Shares>();
    for (const p of positions) if (p.size > 0) held.set(p.tokenId, p.size);
    const open = ctx.executor.liveOrders();
    return buildStrategyInput(ctx.cache, clock.now(), held, open, collateral(ctx.capital, positions, open).free);
  }
}
