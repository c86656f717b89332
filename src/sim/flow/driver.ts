// The synthetic order flow's driver: the API the simulator venue (and paper mode, and tests) use.
// It owns the flow's clock of its own ("flow time"), the agenda of tasks, the registry of resting
// flow orders and one order-update listener on the engine.
//
// Time. Flow time starts at the clock's now. `start()` sets one clock interval (tickMs); each
// tick advances flow time by the clock time elapsed since the previous tick, unless frozen (time
// that passes while frozen is skipped, not caught up). `step(ms)` advances flow time by ms without
// the clock (tests, /_sim/ routes). Advancing runs every task due, in (time, sequence) order, each
// at its own scheduled time; the engine stamps orders with the clock's now.
//
// Invariants kept:
// - deterministic: the same seed, parameters, markets and the same external engine calls at the
//   same points between ticks give the same flow orders and the same trades; how flow time was
//   cut into ticks or steps changes nothing (tasks run at their own times, in order), and reading
//   `latent()` never moves the latent past the flow time already run;
// - `none` (or any silent parameters) creates no account, schedules no task, submits nothing;
// - a tick costs the tasks that are due, not the number of markets;
// - the listener only updates the flow's own bookkeeping and schedules tasks: it never calls the
//   engine, so it is safe inside any engine operation, including other people's orders.
import type { Clock, TimerId } from '../../core/clock.js';
import { OddsmakerError } from '../../core/errors.js';
import { fromFloat, type Price } from '../../core/money.js';
import type { MatchingEngine } from '../engine/engine.js';
import type { OrderUpdate } from '../engine/types.js';
import { Rng, type Seed } from '../world/rng.js';
import { newCounters, type FlowContext, type FlowCounters, type TrackedOrder } from './context.js';
import { EventQueue } from './event-queue.js';
import { MarketFlow, type FlowAccount, type FlowMarket } from './market-flow.js';
import { isSilent, resolveFlowParams, type FlowIntensity, type FlowOverrides, type FlowParams } from './params.js';

/** Misuse of the flow's API (an unknown market, a market added twice). */
export class FlowError extends OddsmakerError {
  constructor(message: string) {
    super('SIM_FLOW', message, false);
  }
}

export interface FlowOptions {
  readonly engine: MatchingEngine;
  readonly clock: Clock;
  readonly seed: Seed;
  /** Default `normal`. */
  readonly intensity?: FlowIntensity;
  /** Applied on top of the preset (validated; may come from JSON). */
  readonly overrides?: FlowOverrides | unknown;
  /** Already resolved parameters: used as they are, instead of intensity and overrides. */
  readonly params?: FlowParams;
  /** Markets to run from the start (they must exist in the engine). */
  readonly markets?: readonly FlowMarket[];
  /** Prefix of the flow's order ids (default `flow-`); give two drivers on one engine different ones. */
  readonly idPrefix?: string;
}

export interface FlowStats extends FlowCounters {
  readonly intensity: FlowIntensity;
  readonly flowTimeMs: number;
  readonly markets: number;
  readonly accounts: number;
  readonly restingOrders: number;
  readonly pendingTasks: number;
  readonly running: boolean;
  readonly frozen: boolean;
}

export class FlowDriver {
  readonly params: FlowParams;
  private readonly engine: MatchingEngine;
  private readonly clock: Clock;
  private readonly root: Rng;
  private readonly idPrefix: string;
  private readonly silent: boolean;
  private readonly queue = new EventQueue();
  private readonly counters = newCounters();
  private readonly markets = new Map<string, MarketFlow>();
  private readonly live = new Map<string, TrackedOrder>();
  private readonly owners = new Set<string>();
  private readonly ctx: FlowContext;
  private readonly unsubscribe: () => void;
  private flowTime: number;
  private current: number;
  private lastClock: number;
  private timer: TimerId | null = null;
  private isFrozen = false;
  private advancing = false;
  private seq = 0;

  constructor(opts: FlowOptions) {
    this.params = opts.params ?? resolveFlowParams(opts.intensity ?? 'normal', opts.overrides ?? {});
    this.engine = opts.engine;
    this.clock = opts.clock;
    this.root = new Rng(opts.seed).fork('flow');
    this.idPrefix = opts.idPrefix ?? 'flow-';
    this.silent = isSilent(this.params);
    this.flowTime = this.clock.now();
    this.current = this.flowTime;
    this.lastClock = this.flowTime;
    this.ctx = {
      engine: this.engine,
      queue: this.queue,
      params: this.params,
      counters: this.counters,
      now: () => this.current,
      nextOrderId: () => `${this.idPrefix}${++this.seq}`,
      track: (o) => {
        this.live.set(o.id, o);
      },
    };
    this.unsubscribe = this.silent ? () => undefined : this.engine.onOrderUpdate((u) => this.onUpdate(u));
    for (const m of opts.markets ?? []) this.addMarket(m);
  }

  // ---------------------------------------------------------------- markets

  /** Starts the flow of a market that exists in the engine; its traders act from the next tick. */
  addMarket(m: FlowMarket): void {
    if (this.markets.has(m.conditionId)) throw new FlowError(`market ${m.conditionId} already has flow`);
    const s = this.engine.market(m.conditionId);
    if (s === undefined) throw new FlowError(`unknown market ${m.conditionId}`);
    const mf = new MarketFlow(this.ctx, m, s.tokens, this.root.fork(`market:${m.conditionId}`), this.flowTime);
    this.markets.set(m.conditionId, mf);
    for (const a of mf.accounts) this.owners.add(a.owner);
    mf.start(this.flowTime);
  }

  /** Stops a market's flow and cancels its resting flow orders; returns how many were cancelled. */
  removeMarket(conditionId: string): number {
    const mf = this.must(conditionId);
    const n = mf.end();
    this.counters.canceled += n;
    this.markets.delete(conditionId);
    for (const a of mf.accounts) this.owners.delete(a.owner);
    return n;
  }

  conditionIds(): string[] {
    return [...this.markets.keys()];
  }

  // ---------------------------------------------------------------- time

  /** Ticks with the clock every `tickMs`. Idempotent. */
  start(): void {
    if (this.timer !== null) return;
    this.lastClock = this.clock.now();
    this.timer = this.clock.setInterval(() => this.onTimer(), this.params.tickMs);
  }

  /** Stops ticking. Resting flow orders stay; `withdraw()` cancels them. */
  stop(): void {
    if (this.timer === null) return;
    this.clock.clearInterval(this.timer);
    this.timer = null;
  }

  /** Ticks keep coming but flow time stands still (the clock time that passes is skipped). */
  freeze(): void {
    this.isFrozen = true;
  }

  unfreeze(): void {
    if (!this.isFrozen) return;
    this.isFrozen = false;
    this.lastClock = this.clock.now();
  }

  get running(): boolean {
    return this.timer !== null;
  }

  get frozen(): boolean {
    return this.isFrozen;
  }

  /** Advances flow time by `ms` now, without the clock (works while frozen or stopped). */
  step(ms: number): void {
    if (!(ms >= 0) || !Number.isFinite(ms))
      throw new FlowError(`step must be a finite number of ms ≥ 0, got ${String(ms)}`);
    this.advance(ms);
  }

  /** Flow time, epoch ms. */
  now(): number {
    return this.flowTime;
  }

  // ---------------------------------------------------------------- latent

  /** The latent probability of YES of a market, as of the flow time run so far. */
  latent(conditionId: string): number {
    const mf = this.must(conditionId);
    mf.latent.advanceTo(this.flowTime);
    return mf.latent.value();
  }

  /** The latent as a price in millionths (half-even), for views. */
  latentPrice(conditionId: string): Price {
    return fromFloat(this.latent(conditionId), 'half-even') as Price;
  }

  /** Moves a market's latent now (news from a /_sim/ route or a test); clamped to [pMin, pMax]. */
  setLatent(conditionId: string, probability: number): void {
    const mf = this.must(conditionId);
    mf.latent.advanceTo(this.flowTime);
    mf.latent.set(probability);
  }

  // ---------------------------------------------------------------- accounts and orders

  /** The flow's engine accounts (of one market, or all). */
  accounts(conditionId?: string): FlowAccount[] {
    if (conditionId !== undefined) return [...this.must(conditionId).accounts];
    const out: FlowAccount[] = [];
    for (const mf of this.markets.values()) out.push(...mf.accounts);
    return out;
  }

  isFlowAccount(owner: string): boolean {
    return this.owners.has(owner);
  }

  /** Cancels every resting flow order (of one market, or all); returns how many. */
  withdraw(conditionId?: string): number {
    let n = 0;
    if (conditionId !== undefined) n = this.must(conditionId).withdraw();
    else for (const mf of this.markets.values()) n += mf.withdraw();
    this.counters.canceled += n;
    return n;
  }

  stats(): FlowStats {
    let accounts = 0;
    for (const mf of this.markets.values()) accounts += mf.accounts.length;
    return {
      ...structuredClone(this.counters),
      intensity: this.params.intensity,
      flowTimeMs: this.flowTime,
      markets: this.markets.size,
      accounts,
      restingOrders: this.live.size,
      pendingTasks: this.queue.size,
      running: this.timer !== null,
      frozen: this.isFrozen,
    };
  }

  /** Stops ticking and detaches from the engine (resting orders stay unless withdrawn first). */
  dispose(): void {
    this.stop();
    this.unsubscribe();
  }

  // ---------------------------------------------------------------- internals

  private must(conditionId: string): MarketFlow {
    const mf = this.markets.get(conditionId);
    if (mf === undefined) throw new FlowError(`no flow for market ${conditionId}`);
    return mf;
  }

  private onTimer(): void {
    const now = this.clock.now();
    const dt = now - this.lastClock;
    this.lastClock = now;
    if (this.isFrozen || dt <= 0) return;
    this.advance(dt);
  }

  private advance(ms: number): void {
    // A task cannot advance time (it would run tasks inside a task); the engine's listeners run
    // synchronously, so guard against re-entry from a caller's listener.
    if (this.advancing) throw new FlowError('the flow cannot be advanced from inside one of its own tasks');
    this.advancing = true;
    const target = this.flowTime + ms;
    try {
      while (this.queue.peekTime() <= target) {
        const e = this.queue.pop();
        if (e === undefined) break;
        this.current = e.at;
        e.task.run(e.at);
      }
    } finally {
      this.advancing = false;
      this.flowTime = target;
      this.current = target;
    }
  }

  private onUpdate(u: OrderUpdate): void {
    const o = this.live.get(u.orderId);
    if (o === undefined) return;
    o.remaining = u.originalSize - u.sizeMatched;
    const fill = u.reason === 'fill';
    if (fill) this.counters.makerFills++;
    if (u.status !== 'LIVE') {
      this.live.delete(u.orderId);
      o.live = false;
      o.holder.onGone(o);
    } else if (fill) {
      o.holder.onPartial(o);
    }
  }
}
