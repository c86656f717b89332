// Price history and last trade prices of the simulated venue. PriceHistory keeps, per token, a ring
// of (t Unix seconds, midpoint) samples the venue records on its clock, and answers
// GET /prices-history and POST /batch-prices-history; LastTrades keeps each token's last trade for
// POST /last-trades-prices and the book's `last_trade_price`. Invariants kept here:
// - a ring holds the newest `capacityPerToken` samples in time order; a sample older than the
//   newest is refused (HistoryError), one in the same second replaces the newest;
// - window: `interval` (1h, 6h, 1d, 1w, 1m = 30 days, max/all = everything) ends at the caller's
//   `nowMs`; or `startTs`/`endTs` (either may be absent; both inclusive); interval together with
//   startTs/endTs is invalid; neither means everything. `fidelity` (minutes, 1–525600, default 1)
//   keeps the last sample of each fidelity-long bucket of time;
// - errors use the {error} shape with data-style texts, status 400: `missing_field: market`,
//   `unknown_field: <name>`, `invalid_field: <name>`; more than 20 batch markets or 500 last-trade
//   tokens → `Payload exceeds the limit` (docs/protocol.md §5); a token never sampled has an empty history.
import { OddsmakerError, OptionError } from '../../core/errors.js';
import { formatMicros, SCALE, type Price } from '../../core/money.js';
import type {
  PriceHistoryInterval,
  WireLastTradePrice,
  WirePriceHistory,
  WirePriceHistoryBatch,
  WirePricePoint,
  WireSide,
} from '../../exchange/wire.js';
import { microsToNumber } from './numbers.js';
import type { PriceFn } from './portfolio.js';
import { DATA_STYLE, dataError, fail, Params, runQuery, type QueryResult, type RawQuery } from './query.js';
import type { World } from './world.js';

export class HistoryError extends OddsmakerError {
  constructor(code: string, message: string) {
    super(code, message, false);
  }
}

export const INTERVALS: readonly PriceHistoryInterval[] = ['max', 'all', '1m', '1w', '1d', '6h', '1h'];
const INTERVAL_SECONDS: Record<PriceHistoryInterval, number | null> = {
  max: null,
  all: null,
  '1m': 30 * 86_400,
  '1w': 7 * 86_400,
  '1d': 86_400,
  '6h': 6 * 3_600,
  '1h': 3_600,
};
export const MAX_BATCH_MARKETS = 20;
export const MAX_TOKENS_PER_CALL = 500;

class Ring {
  private readonly t: number[] = [];
  private readonly p: number[] = [];
  private start = 0;

  constructor(private readonly cap: number) {}

  get length(): number {
    return this.t.length;
  }
  private phys(i: number): number {
    return (this.start + i) % this.t.length;
  }
  timeAt(i: number): number {
    return this.t[this.phys(i)] ?? 0;
  }
  priceAt(i: number): number {
    return this.p[this.phys(i)] ?? 0;
  }

  push(t: number, price: number): void {
    const n = this.t.length;
    if (n > 0) {
      const last = this.timeAt(n - 1);
      if (t < last) throw new HistoryError('HISTORY_OUT_OF_ORDER', `sample at ${t} is older than the newest (${last})`);
      if (t === last) {
        this.p[this.phys(n - 1)] = price;
        return;
      }
    }
    if (n < this.cap) {
      this.t.push(t);
      this.p.push(price);
      return;
    }
    this.t[this.start] = t;
    this.p[this.start] = price;
    this.start = (this.start + 1) % this.cap;
  }

  /** First logical index with time >= t. */
  lowerBound(t: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.timeAt(mid) < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

interface Window {
  fromSec: number;
  toSec: number;
  fidelitySec: number;
}

export class PriceHistory {
  private readonly rings = new Map<string, Ring>();

  constructor(private readonly capacityPerToken = 10_080) {
    if (!Number.isSafeInteger(capacityPerToken) || capacityPerToken < 1)
      throw new OptionError('SIM_OPTION', `bad capacity: ${String(capacityPerToken)}`);
  }

  record(tokenId: string, timeMs: number, mid: Price): void {
    if (!Number.isSafeInteger(mid) || mid < 0 || mid > SCALE)
      throw new HistoryError('HISTORY_BAD_PRICE', `bad midpoint: ${String(mid)}`);
    let r = this.rings.get(tokenId);
    if (r === undefined) {
      r = new Ring(this.capacityPerToken);
      this.rings.set(tokenId, r);
    }
    r.push(Math.floor(timeMs / 1000), mid);
  }

  /** Samples every token of every open market whose midpoint is known. */
  sampleMids(world: World, mid: PriceFn, timeMs: number): void {
    for (const m of world.markets) {
      if (m.state.closed) continue;
      for (const t of m.tokenIds) {
        const p = mid(t);
        if (p !== null) this.record(t, timeMs, p);
      }
    }
  }

  private points(tokenId: string, w: Window): WirePricePoint[] {
    const r = this.rings.get(tokenId);
    if (r === undefined) return [];
    const out: WirePricePoint[] = [];
    let lastBucket = Number.NaN;
    for (let i = r.lowerBound(w.fromSec); i < r.length; i++) {
      const t = r.timeAt(i);
      if (t > w.toSec) break;
      const bucket = Math.floor(t / w.fidelitySec);
      const point = { t, p: microsToNumber(r.priceAt(i)) };
      // Keep the last sample of each bucket.
      if (bucket === lastBucket) out[out.length - 1] = point;
      else out.push(point);
      lastBucket = bucket;
    }
    return out;
  }

  /** GET /prices-history?market=&startTs=&endTs=&interval=&fidelity= */
  query(q: RawQuery, nowMs: number): QueryResult<WirePriceHistory> {
    return runQuery(() => {
      const p = new Params(q, DATA_STYLE).only(['market', 'startTs', 'endTs', 'interval', 'fidelity']);
      const market = p.required('market');
      const w = window(
        p.int('startTs', { min: 0 }),
        p.int('endTs', { min: 0 }),
        p.oneOf('interval', INTERVALS),
        p.int('fidelity', { min: 1, max: 525_600 }, 1),
        nowMs,
        ['startTs', 'endTs'],
      );
      return { history: this.points(market, w) };
    });
  }

  /** POST /batch-prices-history with a parsed JSON body. */
  batch(body: unknown, nowMs: number): QueryResult<WirePriceHistoryBatch> {
    return runQuery(() => {
      if (typeof body !== 'object' || body === null || Array.isArray(body)) fail(dataError(400, 'Invalid payload'));
      const b = body as Record<string, unknown>;
      for (const k of Object.keys(b)) {
        if (!['markets', 'start_ts', 'end_ts', 'interval', 'fidelity'].includes(k)) fail(DATA_STYLE.unknown(k));
      }
      const markets = b['markets'];
      if (markets === undefined) fail(DATA_STYLE.missing('markets'));
      if (
        !Array.isArray(markets) ||
        markets.length === 0 ||
        !markets.every((m): m is string => typeof m === 'string' && m !== '')
      ) {
        fail(DATA_STYLE.invalid('markets', 'non-empty array of token ids'));
      }
      if (markets.length > MAX_BATCH_MARKETS) fail(dataError(400, 'Payload exceeds the limit'));
      const num = (k: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined => {
        const v = b[k];
        if (v === undefined) return undefined;
        if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max)
          fail(DATA_STYLE.invalid(k, 'integer'));
        return v;
      };
      const iv = b['interval'];
      if (iv !== undefined && (typeof iv !== 'string' || !(INTERVALS as readonly string[]).includes(iv)))
        fail(DATA_STYLE.invalid('interval', 'interval'));
      const w = window(
        num('start_ts', 0),
        num('end_ts', 0),
        iv as PriceHistoryInterval | undefined,
        num('fidelity', 1, 525_600) ?? 1,
        nowMs,
        ['start_ts', 'end_ts'],
      );
      const history: Record<string, WirePricePoint[]> = {};
      for (const m of markets) history[m] = this.points(m, w);
      return { history };
    });
  }
}

function window(
  startTs: number | undefined,
  endTs: number | undefined,
  interval: PriceHistoryInterval | undefined,
  fidelityMin: number,
  nowMs: number,
  names: readonly [string, string],
): Window {
  const fidelitySec = fidelityMin * 60;
  if (interval !== undefined) {
    if (startTs !== undefined || endTs !== undefined)
      fail(DATA_STYLE.invalid('interval', `not with ${names[0]}/${names[1]}`));
    const dur = INTERVAL_SECONDS[interval];
    const nowSec = Math.floor(nowMs / 1000);
    return { fromSec: dur === null ? -Infinity : nowSec - dur, toSec: nowSec, fidelitySec };
  }
  if (startTs !== undefined && endTs !== undefined && startTs > endTs)
    fail(DATA_STYLE.invalid(names[0], `after ${names[1]}`));
  return { fromSec: startTs ?? -Infinity, toSec: endTs ?? Infinity, fidelitySec };
}

export interface LastTrade {
  readonly price: Price;
  readonly side: WireSide;
  readonly timeMs: number;
}

export class LastTrades {
  private readonly last = new Map<string, LastTrade>();

  /** Records a trade; an older trade than the one kept does not replace it. */
  record(tokenId: string, price: Price, side: WireSide, timeMs: number): void {
    if (!Number.isSafeInteger(price) || price < 0 || price > SCALE)
      throw new HistoryError('HISTORY_BAD_PRICE', `bad trade price: ${String(price)}`);
    const prev = this.last.get(tokenId);
    if (prev !== undefined && prev.timeMs > timeMs) return;
    this.last.set(tokenId, { price, side, timeMs });
  }

  get(tokenId: string): LastTrade | undefined {
    return this.last.get(tokenId);
  }

  /** The book's `last_trade_price`: decimal text, "" before the first trade. */
  priceText(tokenId: string): string {
    const t = this.last.get(tokenId);
    return t === undefined ? '' : formatMicros(t.price);
  }

  /**
   * POST /last-trades-prices with a parsed JSON body (array of {token_id}, at most 500): one item
   * per distinct token that has traded, in request order; tokens without trades are left out.
   */
  lastTradesPrices(body: unknown): QueryResult<WireLastTradePrice[]> {
    return runQuery(() => {
      if (
        !Array.isArray(body) ||
        !body.every(
          (x) => typeof x === 'object' && x !== null && typeof (x as Record<string, unknown>)['token_id'] === 'string',
        )
      ) {
        fail(dataError(400, 'Invalid payload'));
      }
      if (body.length > MAX_TOKENS_PER_CALL) fail(dataError(400, 'Payload exceeds the limit'));
      const seen = new Set<string>();
      const out: WireLastTradePrice[] = [];
      for (const item of body as { token_id: string }[]) {
        if (seen.has(item.token_id)) continue;
        seen.add(item.token_id);
        const t = this.last.get(item.token_id);
        if (t !== undefined) out.push({ token_id: item.token_id, price: formatMicros(t.price), side: t.side });
      }
      return out;
    });
  }
}
