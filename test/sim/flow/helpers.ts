// Factories and instruments for the flow tests: an engine on a virtual clock with a few markets and
// a flow driver over them; a sampler of the books (two-sidedness, mids, latent gaps); and a passive
// market maker (a test account resting one bid and one ask near the touch, requoting on a timer)
// whose fills are marked out against the mid 60 s later.
import { VirtualClock } from '../../../src/core/clock.js';
import { SCALE, type Micros, type Price, type Shares } from '../../../src/core/money.js';
import { MatchingEngine } from '../../../src/sim/engine/engine.js';
import type { Trade } from '../../../src/sim/engine/types.js';
import { FlowDriver } from '../../../src/sim/flow/driver.js';
import type { FlowIntensity, FlowOverrides } from '../../../src/sim/flow/params.js';

export interface TestMarket {
  readonly conditionId: string;
  readonly yes: string;
  readonly no: string;
  readonly tick: Price;
  readonly probability: number;
}

export interface MarketSpec {
  readonly id: string;
  readonly probability: number;
  readonly tick?: number;
  readonly minSize?: number;
  readonly takerFeeBps?: number;
}

export const DEFAULT_MARKETS: readonly MarketSpec[] = [
  { id: 'm-even', probability: 500_000 },
  { id: 'm-fav', probability: 780_000, takerFeeBps: 100 },
  { id: 'm-long', probability: 120_000, tick: 1_000, minSize: 15_000_000 },
];

export interface Harness {
  readonly clock: VirtualClock;
  readonly engine: MatchingEngine;
  readonly flow: FlowDriver;
  readonly markets: readonly TestMarket[];
}

export function makeHarness(opts: {
  seed: number | string;
  intensity?: FlowIntensity;
  overrides?: FlowOverrides;
  markets?: readonly MarketSpec[];
  start?: boolean;
}): Harness {
  const clock = new VirtualClock(Date.UTC(2026, 0, 1));
  const engine = new MatchingEngine({ clock, retainFinishedMs: 120_000 });
  const markets: TestMarket[] = [];
  for (const m of opts.markets ?? DEFAULT_MARKETS) {
    const tick = (m.tick ?? 10_000) as Price;
    engine.addMarket({
      conditionId: m.id,
      tokens: [`${m.id}-yes`, `${m.id}-no`],
      tick,
      minSize: (m.minSize ?? 5_000_000) as Shares,
      makerFeeBps: 0,
      takerFeeBps: m.takerFeeBps ?? 0,
      negRisk: false,
      acceptingOrders: true,
    });
    markets.push({ conditionId: m.id, yes: `${m.id}-yes`, no: `${m.id}-no`, tick, probability: m.probability });
  }
  const flow = new FlowDriver({
    engine,
    clock,
    seed: opts.seed,
    intensity: opts.intensity ?? 'normal',
    overrides: opts.overrides ?? {},
    markets: markets.map((m) => ({ conditionId: m.conditionId, probability: m.probability })),
  });
  if (opts.start !== false) flow.start();
  return { clock, engine, flow, markets };
}

/** Every trade of the engine, in order. */
export function recordTrades(engine: MatchingEngine): Trade[] {
  const out: Trade[] = [];
  engine.onTrade((t) => {
    out.push(t);
  });
  return out;
}

export interface BookSamples {
  /** Samples per market. */
  n: number[];
  twoSided: number[];
  /** Samples where both tokens had a mid; and of those, where they summed to exactly 1. */
  bothMids: number[];
  midsSumToOne: number[];
  /** Σ |mid − latent| (millionths) and the pairs for correlation, over two-sided samples. */
  absGap: number[];
  mids: number[][];
  latents: number[][];
}

/** Samples every market's book every `everyMs` of clock time. */
export function sampleBooks(h: Harness, everyMs = 1_000): BookSamples {
  const k = h.markets.length;
  const s: BookSamples = {
    n: Array<number>(k).fill(0),
    twoSided: Array<number>(k).fill(0),
    bothMids: Array<number>(k).fill(0),
    midsSumToOne: Array<number>(k).fill(0),
    absGap: Array<number>(k).fill(0),
    mids: h.markets.map(() => []),
    latents: h.markets.map(() => []),
  };
  h.clock.setInterval(() => {
    h.markets.forEach((m, i) => {
      s.n[i] = (s.n[i] ?? 0) + 1;
      const my = h.engine.midpoint(m.yes);
      const mn = h.engine.midpoint(m.no);
      if (my === null || my === undefined) return;
      s.twoSided[i] = (s.twoSided[i] ?? 0) + 1;
      if (mn !== null && mn !== undefined) {
        s.bothMids[i] = (s.bothMids[i] ?? 0) + 1;
        if (my + mn === SCALE) s.midsSumToOne[i] = (s.midsSumToOne[i] ?? 0) + 1;
      }
      const lat = h.flow.latent(m.conditionId) * SCALE;
      s.absGap[i] = (s.absGap[i] ?? 0) + Math.abs(my - lat);
      s.mids[i]?.push(my);
      s.latents[i]?.push(lat);
    });
  }, everyMs);
  return s;
}

export function correlation(a: readonly number[], b: readonly number[]): number {
  const n = a.length;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i] ?? 0;
    mb += b[i] ?? 0;
  }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    const x = (a[i] ?? 0) - ma;
    const y = (b[i] ?? 0) - mb;
    sab += x * y;
    saa += x * x;
    sbb += y * y;
  }
  return sab / Math.sqrt(saa * sbb);
}

export interface MakerFill {
  readonly timeMs: number;
  /** True when the maker bought YES exposure (its bid was hit). */
  readonly bought: boolean;
  readonly yesPrice: number;
  readonly size: number;
  /** (mid 60 s later − fill price) × (+1 bought, −1 sold), millionths; null until known. */
  markout: number | null;
  /** (mid 60 s later − mid when the maker quoted) × side: the move alone, without the spread. */
  drift: number | null;
}

/**
 * A passive market maker in one market: every `requoteMs` it cancels its orders and rests one bid
 * and one ask of `size` one tick inside the touch when the spread allows, else at the touch.
 */
export function passiveMaker(
  h: Harness,
  m: TestMarket,
  opts: { owner?: string; size?: number; requoteMs?: number; horizonMs?: number } = {},
): MakerFill[] {
  const owner = opts.owner ?? `maker-${m.conditionId}`;
  const size = (opts.size ?? 20_000_000) as Shares;
  const horizon = opts.horizonMs ?? 60_000;
  const fills: MakerFill[] = [];
  h.engine.deposit(owner, 10_000_000_000 as Micros);
  h.engine.mint(owner, m.conditionId, 100_000_000_000 as Shares);
  let seq = 0;
  let quoteMid = 0;
  h.engine.onTrade((t) => {
    if (t.makerOwner !== owner) return;
    const bought = (t.makerTokenId === m.yes) === (t.makerSide === 'BUY');
    const f: MakerFill = { timeMs: t.timeMs, bought, yesPrice: t.yesPrice, size: t.size, markout: null, drift: null };
    const atQuote = quoteMid;
    fills.push(f);
    h.clock.setTimeout(() => {
      const mid = h.engine.midpoint(m.yes);
      if (mid === null || mid === undefined) return;
      f.markout = bought ? mid - f.yesPrice : f.yesPrice - mid;
      f.drift = bought ? mid - atQuote : atQuote - mid;
    }, horizon);
  });
  h.clock.setInterval(() => {
    h.engine.cancelAll(owner, m.conditionId);
    const top = h.engine.topOfBook(m.yes);
    if (top?.bid == null || top.ask == null) return;
    quoteMid = (top.bid + top.ask) / 2;
    const tick = m.tick as number;
    const inside = top.ask - top.bid >= 3 * tick;
    const bid = inside ? top.bid + tick : top.bid;
    const ask = inside ? top.ask - tick : top.ask;
    h.engine.submit({
      id: `${owner}-${++seq}`,
      owner,
      tokenId: m.yes,
      side: 'BUY',
      price: bid as Price,
      size,
      orderType: 'GTC',
      postOnly: true,
    });
    h.engine.submit({
      id: `${owner}-${++seq}`,
      owner,
      tokenId: m.yes,
      side: 'SELL',
      price: ask as Price,
      size,
      orderType: 'GTC',
      postOnly: true,
    });
  }, opts.requoteMs ?? 5_000);
  return fills;
}

/**
 * Per share filled (size-weighted), millionths: `markout` is the maker's PnL per share 60 s on
 * (spread earned included), `drift` the move of the mid against it (spread excluded).
 */
export function meanMarkout(fills: readonly MakerFill[]): { n: number; mean: number; drift: number } {
  let n = 0;
  let shares = 0;
  let sum = 0;
  let drift = 0;
  for (const f of fills) {
    if (f.markout === null || f.drift === null) continue;
    n++;
    shares += f.size;
    sum += f.markout * f.size;
    drift += f.drift * f.size;
  }
  return { n, mean: shares === 0 ? 0 : sum / shares, drift: shares === 0 ? 0 : drift / shares };
}

export const HOUR = 3_600_000;
