// The venue's view of the synthetic order flow (engineer K's FlowDriver in src/sim/flow): a small
// control surface the venue and the /_sim/ routes drive, the adapter over the FlowDriver, and the
// do-nothing flow of `--flow none`. Invariants kept here:
// - `none` builds no traders at all: NoFlow only keeps the state the /_sim/ routes report;
// - state: stopped (no ticks), running (ticking with the clock), frozen (ticks come, flow time
//   stands still); `step(ms)` advances flow time now in any state;
// - when a market resolves the flow stops trading it (its resting orders were cancelled by the
//   engine's resolution already).
import type { Clock } from '../../core/clock.js';
import type { MatchingEngine } from '../engine/index.js';
import { FLOW_INTENSITIES, FlowDriver, flowMarketsFromWorld, type FlowIntensity } from '../flow/index.js';
import type { World } from '../world/index.js';
import { OptionError } from '../../core/errors.js';

export { FLOW_INTENSITIES, type FlowIntensity };

export function isFlowIntensity(s: string): s is FlowIntensity {
  return (FLOW_INTENSITIES as readonly string[]).includes(s);
}

export type FlowState = 'stopped' | 'running' | 'frozen';

export interface FlowControl {
  readonly intensity: FlowIntensity;
  readonly state: FlowState;
  start(): void;
  stop(): void;
  freeze(): void;
  unfreeze(): void;
  /** Advances the flow by `ms` of its own time (due tasks run now, whatever the clock says). */
  step(ms: number): void;
  /** The latent probability of YES of a market, when the flow models one. */
  latent(conditionId: string): number | null;
  /** The market resolved or closed: its traders stop. */
  marketClosed(conditionId: string): void;
  /** Stops ticking and detaches from the engine. */
  dispose(): void;
}

export interface FlowContext {
  readonly engine: MatchingEngine;
  readonly world: World;
  readonly clock: Clock;
  readonly seed: string | number;
  readonly intensity: FlowIntensity;
}

export type FlowFactory = (ctx: FlowContext) => FlowControl;

/** The flow of `--flow none`: no traders; the state is tracked for /_sim/ answers. */
export class NoFlow implements FlowControl {
  readonly intensity: FlowIntensity = 'none';
  private s: FlowState = 'stopped';

  get state(): FlowState {
    return this.s;
  }
  start(): void {
    if (this.s === 'stopped') this.s = 'running';
  }
  stop(): void {
    this.s = 'stopped';
  }
  freeze(): void {
    if (this.s === 'running') this.s = 'frozen';
  }
  unfreeze(): void {
    if (this.s === 'frozen') this.s = 'running';
  }
  step(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0)
      throw new OptionError('SIM_OPTION', `flow step must be a non-negative number of ms, got ${String(ms)}`);
  }
  latent(): number | null {
    return null;
  }
  marketClosed(): void {}
  dispose(): void {
    this.s = 'stopped';
  }
}

/** The synthetic traders of engineer K over every open market of the world. */
export class DriverFlow implements FlowControl {
  readonly intensity: FlowIntensity;
  readonly driver: FlowDriver;

  constructor(ctx: FlowContext) {
    this.intensity = ctx.intensity;
    this.driver = new FlowDriver({
      engine: ctx.engine,
      clock: ctx.clock,
      seed: ctx.seed,
      intensity: ctx.intensity,
      markets: flowMarketsFromWorld(ctx.world),
    });
  }

  get state(): FlowState {
    if (!this.driver.running) return 'stopped';
    return this.driver.frozen ? 'frozen' : 'running';
  }
  start(): void {
    this.driver.start();
  }
  stop(): void {
    this.driver.stop();
  }
  freeze(): void {
    this.driver.freeze();
  }
  unfreeze(): void {
    this.driver.unfreeze();
  }
  step(ms: number): void {
    this.driver.step(ms);
  }
  latent(conditionId: string): number | null {
    return this.driver.conditionIds().includes(conditionId) ? this.driver.latent(conditionId) : null;
  }
  marketClosed(conditionId: string): void {
    if (this.driver.conditionIds().includes(conditionId)) this.driver.removeMarket(conditionId);
  }
  dispose(): void {
    this.driver.dispose();
  }
}

export const driverFlowFactory: FlowFactory = (ctx) => new DriverFlow(ctx);
