// Parameters of the synthetic order flow: the intensity presets (`--flow none|low|normal|high`),
// explicit overrides on top of a preset, and their validation (zod), which names every bad path and
// value at once in one FlowConfigError. Invariants kept: a resolved FlowParams is complete, valid
// and frozen; `none` has no population at all, so a driver built from it submits nothing.
//
// Units: prices, spreads and edges are Price millionths (5_000 = 0.005), sizes Shares millionths,
// funding Micros; rates are per minute of flow time, durations ms of flow time; the latent's
// volatility and jumps are in logit units (signal math, floats).
import { z } from 'zod';
import { OddsmakerError } from '../../core/errors.js';
import type { Micros, Price, Shares } from '../../core/money.js';

export type FlowIntensity = 'none' | 'low' | 'normal' | 'high';
export const FLOW_INTENSITIES: readonly FlowIntensity[] = ['none', 'low', 'normal', 'high'];

export interface LatentParams {
  /** The walk moves on a grid of this many ms of flow time. */
  readonly stepMs: number;
  /** Each market draws its diffusion volatility (logit units per √hour) in [volMin, volMax]. */
  readonly volMin: number;
  readonly volMax: number;
  /** News: jumps arrive as a Poisson process of this rate, sizes normal(0, jumpSd) in logit. */
  readonly jumpsPerHour: number;
  readonly jumpSd: number;
  /** The walk is reflected at these probabilities. */
  readonly pMin: number;
  readonly pMax: number;
}

/** One background liquidity provider per market and profile. */
export interface LpProfile {
  /** Distance from the provider's fair price to its first bid and ask, at least. */
  readonly halfSpread: Price;
  /** Distance between ladder levels (rounded up to a multiple of the market's tick). */
  readonly step: Price;
  readonly levels: number;
  /** Size of the first level, drawn uniformly in [sizeMin, sizeMax]; deeper levels grow. */
  readonly sizeMin: Shares;
  readonly sizeMax: Shares;
  /** Size multiplier per level deeper. */
  readonly levelGrowth: number;
  /** Mean time between requotes (Poisson). */
  readonly requoteMs: number;
  /** Time constant of the provider's fair price chasing the latent (0: it knows the latent). */
  readonly lagMs: number;
  /** Noise (logit sd) added to the fair price at each requote. */
  readonly fairNoise: number;
  /** Delay before refilling a level that was filled. */
  readonly refillMs: number;
  /** Probability per resting order and requote of a cancel/replace even when nothing moved. */
  readonly churn: number;
}

export interface NoiseParams {
  /** Arrivals per minute per market (times the market's activity factor); 0 turns them off. */
  readonly perMinute: number;
  readonly accounts: number;
  /** Pareto sizes: minimum, tail exponent, cap. */
  readonly sizeMin: Shares;
  readonly sizeAlpha: number;
  readonly sizeMax: Shares;
  /** FAK/FOK limits go up to this many ticks through the touch. */
  readonly slippageTicks: number;
  /** Order type mix: FAK, FOK and marketable limit (GTC at the touch, remainder rests). */
  readonly fakWeight: number;
  readonly fokWeight: number;
  readonly limitWeight: number;
  /** A resting remainder is cancelled after a time drawn in [restMinMs, restMaxMs]. */
  readonly restMinMs: number;
  readonly restMaxMs: number;
}

export interface InformedParams {
  /** Looks per minute per market (times the activity factor); 0 turns them off. */
  readonly perMinute: number;
  readonly accounts: number;
  /** Acts when |latent − mid| is at least this much (in the direction of the latent). */
  readonly threshold: Price;
  /** Pays at most latent − edge (sells at least at latent + edge): the profit it insists on. */
  readonly edge: Price;
  /** Size at a gap of one threshold; it grows with the gap, up to sizeMax. */
  readonly sizeBase: Shares;
  readonly sizeMax: Shares;
}

export interface FundingParams {
  /** Collateral deposited into every flow account when its market starts. */
  readonly collateral: Micros;
  /** Complete sets minted into every flow account when its market starts. */
  readonly sets: Shares;
  /** When an account runs short, it is topped up by at least this much. */
  readonly topUp: Micros;
}

export interface FlowParams {
  readonly intensity: FlowIntensity;
  /** Period of the driver's clock timer. */
  readonly tickMs: number;
  readonly latent: LatentParams;
  readonly lp: readonly LpProfile[];
  readonly noise: NoiseParams;
  readonly informed: InformedParams;
  readonly funding: FundingParams;
  /** Spread (log-normal σ) of the per-market activity factor scaling taker rates; 0: all equal. */
  readonly activitySd: number;
}

type Mutable<T> = { -readonly [K in keyof T]?: T[K] };
export interface FlowOverrides {
  readonly tickMs?: number;
  readonly latent?: Mutable<LatentParams>;
  /** Replaces the preset's list of providers. */
  readonly lp?: readonly LpProfile[];
  readonly noise?: Mutable<NoiseParams>;
  readonly informed?: Mutable<InformedParams>;
  readonly funding?: Mutable<FundingParams>;
  readonly activitySd?: number;
}

export class FlowConfigError extends OddsmakerError {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super('SIM_FLOW_CONFIG', `invalid flow settings:\n  - ${problems.join('\n  - ')}`, false);
    this.problems = problems;
  }
}

const P = (v: number): Price => v as Price;
const S = (shares: number): Shares => (shares * 1_000_000) as Shares;
const USD = (v: number): Micros => (v * 1_000_000) as Micros;

const LATENT: LatentParams = {
  stepMs: 1_000,
  volMin: 0.3,
  volMax: 0.7,
  jumpsPerHour: 2,
  jumpSd: 0.3,
  pMin: 0.03,
  pMax: 0.97,
};
const FUNDING: FundingParams = { collateral: USD(20_000), sets: S(2_000), topUp: USD(20_000) };
const NO_NOISE: NoiseParams = {
  perMinute: 0,
  accounts: 1,
  sizeMin: S(5),
  sizeAlpha: 1.6,
  sizeMax: S(1_000),
  slippageTicks: 2,
  fakWeight: 0.5,
  fokWeight: 0.15,
  limitWeight: 0.35,
  restMinMs: 20_000,
  restMaxMs: 180_000,
};
const NO_INFORMED: InformedParams = {
  perMinute: 0,
  accounts: 1,
  threshold: P(5_000),
  edge: P(2_000),
  sizeBase: S(20),
  sizeMax: S(300),
};

/** A narrow provider near the touch and a deeper, slower one behind it. */
const TIGHT: LpProfile = {
  halfSpread: P(5_000),
  step: P(10_000),
  levels: 2,
  sizeMin: S(20),
  sizeMax: S(60),
  levelGrowth: 1.5,
  requoteMs: 3_000,
  lagMs: 30_000,
  fairNoise: 0.01,
  refillMs: 1_500,
  churn: 0.05,
};
const DEEP: LpProfile = {
  halfSpread: P(15_000),
  step: P(10_000),
  levels: 6,
  sizeMin: S(50),
  sizeMax: S(200),
  levelGrowth: 1.3,
  requoteMs: 8_000,
  lagMs: 60_000,
  fairNoise: 0.02,
  refillMs: 4_000,
  churn: 0.03,
};

const PRESETS: Record<FlowIntensity, FlowParams> = {
  none: {
    intensity: 'none',
    tickMs: 250,
    latent: LATENT,
    lp: [],
    noise: NO_NOISE,
    informed: NO_INFORMED,
    funding: FUNDING,
    activitySd: 0.5,
  },
  low: {
    intensity: 'low',
    tickMs: 250,
    latent: LATENT,
    lp: [{ ...DEEP, halfSpread: P(20_000), levels: 4, requoteMs: 15_000, lagMs: 60_000, refillMs: 8_000 }],
    noise: { ...NO_NOISE, perMinute: 1.5, accounts: 2, sizeMax: S(300) },
    informed: { ...NO_INFORMED, perMinute: 4, threshold: P(10_000), edge: P(5_000), sizeMax: S(200) },
    funding: FUNDING,
    activitySd: 0.5,
  },
  normal: {
    intensity: 'normal',
    tickMs: 250,
    latent: LATENT,
    lp: [TIGHT, DEEP],
    noise: { ...NO_NOISE, perMinute: 4, accounts: 4 },
    informed: { ...NO_INFORMED, perMinute: 20, accounts: 2 },
    funding: FUNDING,
    activitySd: 0.5,
  },
  high: {
    intensity: 'high',
    tickMs: 250,
    latent: LATENT,
    lp: [
      { ...TIGHT, requoteMs: 1_500, lagMs: 15_000, refillMs: 750 },
      { ...DEEP, requoteMs: 4_000, lagMs: 30_000, refillMs: 2_000 },
      {
        ...DEEP,
        halfSpread: P(30_000),
        step: P(20_000),
        levels: 5,
        sizeMin: S(200),
        sizeMax: S(800),
        requoteMs: 20_000,
        lagMs: 90_000,
      },
    ],
    noise: { ...NO_NOISE, perMinute: 20, accounts: 8, sizeMax: S(3_000) },
    informed: { ...NO_INFORMED, perMinute: 60, accounts: 3, sizeMax: S(1_000) },
    funding: { ...FUNDING, collateral: USD(100_000), sets: S(10_000), topUp: USD(100_000) },
    activitySd: 0.5,
  },
};

// ---------------------------------------------------------------- validation

const nonNeg = z.number().nonnegative().finite();
const posInt = z.number().int().positive();
const nonNegInt = z.number().int().nonnegative();
const priceAmount = z.number().int().min(100).max(500_000); // 0.0001 .. 0.5
const shareAmount = z
  .number()
  .int()
  .min(10_000)
  .max(1e12)
  .refine((v) => v % 10_000 === 0, 'must be a multiple of 0.01 share (10000)');
const prob = z.number().gt(0).lt(1);

const latentSchema = z.strictObject({
  stepMs: posInt.min(10).max(60_000),
  volMin: nonNeg.max(20),
  volMax: nonNeg.max(20),
  jumpsPerHour: nonNeg.max(3_600),
  jumpSd: nonNeg.max(10),
  pMin: prob,
  pMax: prob,
});
const lpSchema = z.strictObject({
  halfSpread: z.number().int().min(0).max(500_000),
  step: priceAmount,
  levels: posInt.max(50),
  sizeMin: shareAmount,
  sizeMax: shareAmount,
  levelGrowth: z.number().min(1).max(10),
  requoteMs: posInt.min(10),
  lagMs: nonNegInt,
  fairNoise: nonNeg.max(5),
  refillMs: nonNegInt,
  churn: nonNeg.max(1),
});
const noiseSchema = z.strictObject({
  perMinute: nonNeg.max(60_000),
  accounts: posInt.max(1_000),
  sizeMin: shareAmount,
  sizeAlpha: z.number().gt(0).max(10),
  sizeMax: shareAmount,
  slippageTicks: nonNegInt.max(100),
  fakWeight: nonNeg,
  fokWeight: nonNeg,
  limitWeight: nonNeg,
  restMinMs: posInt,
  restMaxMs: posInt,
});
const informedSchema = z.strictObject({
  perMinute: nonNeg.max(60_000),
  accounts: posInt.max(1_000),
  threshold: priceAmount,
  edge: z.number().int().min(0).max(500_000),
  sizeBase: shareAmount,
  sizeMax: shareAmount,
});
const fundingSchema = z.strictObject({ collateral: nonNegInt, sets: nonNegInt, topUp: posInt });

const paramsSchema = z
  .strictObject({
    intensity: z.enum(['none', 'low', 'normal', 'high']),
    tickMs: posInt.max(60_000),
    latent: latentSchema,
    lp: z.array(lpSchema).max(20),
    noise: noiseSchema,
    informed: informedSchema,
    funding: fundingSchema,
    activitySd: nonNeg.max(3),
  })
  .superRefine((p, ctx) => {
    const bad = (path: (string | number)[], message: string): void => {
      ctx.addIssue({ code: 'custom', message, path });
    };
    if (p.latent.pMin >= p.latent.pMax) bad(['latent', 'pMin'], 'must be below latent.pMax');
    if (p.latent.volMin > p.latent.volMax) bad(['latent', 'volMin'], 'must not exceed latent.volMax');
    p.lp.forEach((l, i) => {
      if (l.sizeMin > l.sizeMax) bad(['lp', i, 'sizeMin'], 'must not exceed sizeMax');
    });
    if (p.noise.sizeMin > p.noise.sizeMax) bad(['noise', 'sizeMin'], 'must not exceed noise.sizeMax');
    if (p.noise.restMinMs > p.noise.restMaxMs) bad(['noise', 'restMinMs'], 'must not exceed noise.restMaxMs');
    if (p.noise.fakWeight + p.noise.fokWeight + p.noise.limitWeight <= 0)
      bad(['noise', 'fakWeight'], 'the order type weights must not all be zero');
    if (p.informed.sizeBase > p.informed.sizeMax) bad(['informed', 'sizeBase'], 'must not exceed informed.sizeMax');
  });

const overridesSchema = z.strictObject({
  tickMs: posInt.max(60_000).optional(),
  latent: latentSchema.partial().optional(),
  lp: z.array(lpSchema).max(20).optional(),
  noise: noiseSchema.partial().optional(),
  informed: informedSchema.partial().optional(),
  funding: fundingSchema.partial().optional(),
  activitySd: nonNeg.max(3).optional(),
});

function pathText(path: readonly PropertyKey[]): string {
  let s = '';
  for (const k of path) s += typeof k === 'number' ? `[${k}]` : s === '' ? String(k) : `.${String(k)}`;
  return s === '' ? '(root)' : s;
}

function problemsOf(error: z.ZodError): string[] {
  const out = new Map<string, string>();
  for (const i of error.issues) {
    if (i.code === 'unrecognized_keys') {
      for (const k of i.keys) out.set(pathText([...i.path, k]), `${pathText([...i.path, k])}: unknown key`);
      continue;
    }
    const at = pathText(i.path);
    if (!out.has(at)) out.set(at, `${at}: ${i.message}`);
  }
  return [...out.values()];
}

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v as Record<string, unknown>)) deepFreeze(x);
  }
  return v;
}

/** Parses `--flow` text; throws FlowConfigError naming the value. */
export function parseFlowIntensity(text: string): FlowIntensity {
  const t = text.trim().toLowerCase();
  if ((FLOW_INTENSITIES as readonly string[]).includes(t)) return t as FlowIntensity;
  throw new FlowConfigError([`intensity: expected one of ${FLOW_INTENSITIES.join(', ')}, got ${JSON.stringify(text)}`]);
}

/** The preset itself (frozen). */
export function flowPreset(intensity: FlowIntensity): FlowParams {
  return deepFreeze(structuredClone(PRESETS[intensity]));
}

/**
 * A preset with overrides applied (objects merge field by field; `lp` replaces the list), checked
 * as a whole. `overrides` may come straight from JSON: unknown keys and bad values are reported.
 */
export function resolveFlowParams(intensity: FlowIntensity, overrides: FlowOverrides | unknown = {}): FlowParams {
  if (!(FLOW_INTENSITIES as readonly string[]).includes(intensity)) parseFlowIntensity(String(intensity));
  const o = overridesSchema.safeParse(overrides ?? {});
  if (!o.success) throw new FlowConfigError(problemsOf(o.error));
  const base = PRESETS[intensity];
  const v = o.data;
  const merged = {
    intensity,
    tickMs: v.tickMs ?? base.tickMs,
    latent: { ...base.latent, ...v.latent },
    lp: v.lp ?? base.lp,
    noise: { ...base.noise, ...v.noise },
    informed: { ...base.informed, ...v.informed },
    funding: { ...base.funding, ...v.funding },
    activitySd: v.activitySd ?? base.activitySd,
  };
  const r = paramsSchema.safeParse(merged);
  if (!r.success) throw new FlowConfigError(problemsOf(r.error));
  // The schema checked every field; the brands (Price, Shares, Micros) are what it cannot express.
  return deepFreeze(structuredClone(r.data) as unknown as FlowParams);
}

/** True when the parameters can never submit an order (no provider, no taker). */
export function isSilent(p: FlowParams): boolean {
  return p.lp.length === 0 && p.noise.perMinute === 0 && p.informed.perMinute === 0;
}
