// Random draws of the synthetic flow on top of the world's seeded Rng (sfc32): exponential waiting
// times of Poisson processes, heavy-tailed (Pareto) order sizes, uniform ranges and mean-one
// log-normal activity factors. All go through detmath, so a seed gives the same draws everywhere.
import type { Rng } from '../world/rng.js';
import { dexp, dlog } from './detmath.js';

/** Waiting time of a Poisson process with the given mean (> 0): −mean × ln(1 − U). */
export function exponential(rng: Rng, mean: number): number {
  return -mean * dlog(1 - rng.float());
}

/**
 * Pareto(xmin, alpha): P(X > x) = (xmin / x)^alpha for x ≥ xmin, capped at `cap`. With alpha
 * between 1 and 2 the mean is finite and the variance is not: mostly small orders, sometimes a
 * very large one, as order sizes on real books are.
 */
export function pareto(rng: Rng, xmin: number, alpha: number, cap: number): number {
  const x = xmin * dexp(-dlog(1 - rng.float()) / alpha);
  return x < cap ? x : cap;
}

export function uniform(rng: Rng, lo: number, hi: number): number {
  return lo + (hi - lo) * rng.float();
}

/** exp(σZ − σ²/2), Z approximately standard normal: a positive factor with mean one. */
export function meanOneLogNormal(rng: Rng, sigma: number): number {
  if (sigma === 0) return 1;
  return dexp(rng.normal(0, sigma) - (sigma * sigma) / 2);
}
