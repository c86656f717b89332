// The latent probability of one market: a random walk in logit space on a fixed time grid
// (`stepMs`), normal increments of sd vol × √(step / 1 h), plus news jumps arriving as a Poisson
// process, reflected at logit(pMin) and logit(pMax). Invariants kept:
// - the path is a pure function of the market's stream, its start and any `set` calls: steps are
//   applied lazily but always in order, each drawing from the stream in a fixed sequence, so when
//   (or how often) the value is read changes nothing;
// - the value never goes backwards in time: advanceTo earlier than the last step is a no-op;
// - the probability stays in [pMin, pMax].
import type { Rng } from '../world/rng.js';
import { logit, sigmoid } from './detmath.js';
import type { LatentParams } from './params.js';
import { exponential } from './sampling.js';
import { OptionError } from '../../core/errors.js';

const HOUR_MS = 3_600_000;

export class LatentProcess {
  private x: number;
  private steps = 0;
  /** Time of the next jump, ms after the origin. */
  private nextJumpAt: number;
  private readonly stepSd: number;
  private readonly jumpMeanMs: number;
  private readonly lo: number;
  private readonly hi: number;
  private cached: number;
  private cachedX: number;

  constructor(
    private readonly rng: Rng,
    initial: number,
    private readonly originMs: number,
    /** Diffusion volatility, logit units per √hour. */
    readonly vol: number,
    private readonly p: LatentParams,
  ) {
    this.lo = logit(p.pMin);
    this.hi = logit(p.pMax);
    this.x = this.clampLogit(logit(clampProb(initial, p)));
    // √ is correctly rounded by IEEE 754 (unlike exp/log), so it is deterministic.
    this.stepSd = vol * Math.sqrt(p.stepMs / HOUR_MS);
    this.jumpMeanMs = p.jumpsPerHour > 0 ? HOUR_MS / p.jumpsPerHour : Number.POSITIVE_INFINITY;
    this.nextJumpAt = p.jumpsPerHour > 0 ? exponential(rng, this.jumpMeanMs) : Number.POSITIVE_INFINITY;
    this.cachedX = this.x;
    this.cached = sigmoid(this.x);
  }

  /** Applies every grid step up to time `t` (epoch ms of flow time). */
  advanceTo(t: number): void {
    const target = Math.floor((t - this.originMs) / this.p.stepMs);
    while (this.steps < target) this.step();
  }

  /** The latent in logit units, as of the last step applied. */
  logit(): number {
    return this.x;
  }

  /** The latent probability, as of the last step applied. */
  value(): number {
    if (this.cachedX !== this.x) {
      this.cachedX = this.x;
      this.cached = sigmoid(this.x);
    }
    return this.cached;
  }

  /** Moves the latent to `prob` (news injected from outside), clamped to [pMin, pMax]. */
  set(prob: number): void {
    if (!(prob > 0 && prob < 1))
      throw new OptionError('SIM_OPTION', `latent probability must be in (0, 1), got ${String(prob)}`);
    this.x = this.clampLogit(logit(clampProb(prob, this.p)));
  }

  private step(): void {
    this.steps++;
    let x = this.x + this.rng.normal(0, this.stepSd);
    const t = this.steps * this.p.stepMs;
    while (t >= this.nextJumpAt) {
      x += this.rng.normal(0, this.p.jumpSd);
      this.nextJumpAt += exponential(this.rng, this.jumpMeanMs);
    }
    this.x = this.reflect(x);
  }

  private reflect(x: number): number {
    let v = x;
    // Each bounce moves the excess by the width of the band, so this ends.
    for (;;) {
      if (v > this.hi) v = 2 * this.hi - v;
      else if (v < this.lo) v = 2 * this.lo - v;
      else return v;
    }
  }

  private clampLogit(x: number): number {
    return x < this.lo ? this.lo : x > this.hi ? this.hi : x;
  }
}

function clampProb(v: number, p: LatentParams): number {
  return v < p.pMin ? p.pMin : v > p.pMax ? p.pMax : v;
}
