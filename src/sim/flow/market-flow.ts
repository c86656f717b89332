// The flow of one market: its latent, its traders (one liquidity provider per profile, the noise
// takers, the informed takers) and their engine accounts. Invariants kept:
// - every random stream is forked from the market's own stream by a fixed label, so markets (and
//   populations within a market) never shift each other's draws, whatever order they were added in;
// - accounts are funded once, at the market's first task while it takes orders (collateral plus
//   complete sets through the engine's mint), and redeemed once when it resolves, after which the
//   market's tasks stop;
// - a silent configuration (no population) creates no account and schedules nothing.
import { SCALE } from '../../core/money.js';
import type { MatchingEngine } from '../engine/engine.js';
import type { MarketState } from '../engine/types.js';
import type { Rng } from '../world/rng.js';
import type { FlowContext, FlowRole } from './context.js';
import { InformedTrader } from './informed.js';
import { LatentProcess } from './latent.js';
import { LiquidityProvider } from './liquidity.js';
import type { MarketView } from './market-view.js';
import { NoiseTrader } from './noise.js';
import type { FlowParams } from './params.js';
import { meanOneLogNormal, uniform } from './sampling.js';
import { OptionError } from '../../core/errors.js';

/** A market handed to the flow. */
export interface FlowMarket {
  readonly conditionId: string;
  /** Initial latent probability of the YES outcome (millionths), e.g. the world's latentProbability. */
  readonly probability: number;
  /** Diffusion volatility in logit units per √hour; drawn in [latent.volMin, latent.volMax] if absent. */
  readonly volatility?: number;
  /** Taker-rate multiplier; drawn (mean one, σ = activitySd) if absent. */
  readonly activity?: number;
}

/** One engine account run by the flow. */
export interface FlowAccount {
  readonly owner: string;
  readonly conditionId: string;
  readonly role: FlowRole;
  /** Index within its role (the provider profile index for `lp`). */
  readonly index: number;
}

export class MarketFlow implements MarketView {
  readonly conditionId: string;
  readonly yesToken: string;
  readonly noToken: string;
  readonly latent: LatentProcess;
  readonly activity: number;
  readonly volatility: number;
  readonly accounts: FlowAccount[] = [];
  readonly providers: LiquidityProvider[] = [];
  readonly noise: NoiseTrader | null = null;
  readonly informed: InformedTrader | null = null;
  private funded = false;
  private done = false;
  private readonly engine: MatchingEngine;

  constructor(
    private readonly ctx: FlowContext,
    m: FlowMarket,
    tokens: readonly [string, string],
    stream: Rng,
    originMs: number,
  ) {
    const p: FlowParams = ctx.params;
    this.engine = ctx.engine;
    this.conditionId = m.conditionId;
    [this.yesToken, this.noToken] = tokens;
    if (!(m.probability > 0 && m.probability < SCALE))
      throw new OptionError(
        'SIM_OPTION',
        `probability of ${m.conditionId} must be in (0, 1): ${String(m.probability)}`,
      );
    const setup = stream.fork('setup');
    // Both draws always happen, so giving one explicitly does not shift the other.
    const vol = uniform(setup, p.latent.volMin, p.latent.volMax);
    const activity = meanOneLogNormal(setup, p.activitySd);
    this.volatility = m.volatility ?? vol;
    this.activity = m.activity ?? activity;
    if (!(this.volatility >= 0) || !(this.activity > 0))
      throw new OptionError('SIM_OPTION', `bad volatility or activity for ${m.conditionId}`);
    this.latent = new LatentProcess(stream.fork('latent'), m.probability / SCALE, originMs, this.volatility, p.latent);

    const addr = (): string => `0x${setup.hex(40)}`;
    p.lp.forEach((profile, i) => {
      const owner = addr();
      this.accounts.push({ owner, conditionId: m.conditionId, role: 'lp', index: i });
      this.providers.push(new LiquidityProvider(ctx, this, owner, profile, stream.fork(`lp:${i}`)));
    });
    if (p.noise.perMinute > 0) {
      const owners = this.makeOwners(p.noise.accounts, 'noise', addr);
      this.noise = new NoiseTrader(ctx, this, owners, p.noise, stream.fork('noise'));
    }
    if (p.informed.perMinute > 0) {
      const owners = this.makeOwners(p.informed.accounts, 'informed', addr);
      this.informed = new InformedTrader(ctx, this, owners, p.informed, stream.fork('informed'));
    }
  }

  get finished(): boolean {
    return this.done;
  }

  /** Schedules the first task of every trader. */
  start(at: number): void {
    for (const lp of this.providers) lp.start(at);
    this.noise?.start(at);
    this.informed?.start(at);
  }

  ready(at: number): MarketState | null {
    if (this.done) return null;
    this.latent.advanceTo(at);
    const s = this.engine.market(this.conditionId);
    if (s === undefined) return null;
    if (s.winner !== null) {
      this.redeem();
      this.done = true;
      return null;
    }
    if (s.closed || !s.acceptingOrders) return null;
    if (!this.funded) this.fund();
    return s;
  }

  /** Cancels every resting order of the market's flow accounts; returns how many. */
  withdraw(): number {
    let n = 0;
    for (const a of this.accounts) n += this.engine.cancelAll(a.owner, this.conditionId).length;
    return n;
  }

  /** Ends the market's flow: its resting orders are cancelled and its tasks stop. */
  end(): number {
    this.done = true;
    return this.withdraw();
  }

  private makeOwners(n: number, role: FlowRole, addr: () => string): string[] {
    const owners: string[] = [];
    for (let i = 0; i < n; i++) {
      const owner = addr();
      owners.push(owner);
      this.accounts.push({ owner, conditionId: this.conditionId, role, index: i });
    }
    return owners;
  }

  private fund(): void {
    this.funded = true;
    const f = this.ctx.params.funding;
    for (const a of this.accounts) {
      if (f.collateral > 0) this.engine.deposit(a.owner, f.collateral);
      if (f.sets > 0) this.engine.mint(a.owner, this.conditionId, f.sets);
    }
  }

  private redeem(): void {
    if (!this.funded) return;
    for (const a of this.accounts) this.engine.redeem(a.owner, this.conditionId);
  }
}
