// A deterministic generator of realistic recordings (binary markets, 20-level books moving by
// deltas, trades at the touch), written through RecordingWriter, for backtest benchmarks and tests.
// Invariants:
// - the same options give a byte-identical file: one mulberry32 stream, markets interleaved by a
//   heap ordered on (local time, market index), ids derived from the seed and the market index;
// - a YES book never crosses or locks: bids fill [b − levels + 1, b] and asks [a, a + levels − 1]
//   on the tick grid (clipped to (0, 1)), with a − b the market's fixed spread; a mid move shifts
//   both ranges by one tick inside one delta, and the mid stays in [0.05, 0.95];
// - the NO book is the YES book mirrored at the same instant (a NO bid at 1 − p is the YES ask at
//   p, same size), so every YES delta is followed by its mirror on NO;
// - a trade happens at the touch of the book it is reported on, for less than the touch's size,
//   and the same update's delta takes its size off that level;
// - records are written in non-decreasing local time across markets; per market, exchange time
//   is local time minus a fixed latency, so both clocks are monotonic per token.
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { OptionError } from '../../core/errors.js';
import { SCALE, type Price, type Shares } from '../../core/money.js';
import { mulberry32 } from '../../core/random.js';
import { SIZE_LOT, type LevelChange, type RecordedMarketSettings } from './format.js';
import { RecordingWriter } from './writer.js';

export interface SynthOptions {
  readonly markets: number;
  readonly durationMs: number;
  /** Local time of the first records, epoch ms. */
  readonly startMs: number;
  readonly seed: number;
  /** Mean gap between two updates of one market (exponentially distributed, ≥ 1 ms). */
  readonly updateEveryMs: number;
  /** Levels per side of a full book. Default 20. */
  readonly levels?: number;
  /** Levels whose size changes per update (a mid move or a trade adds its own). Default 3. */
  readonly changesPerUpdate?: number;
  /** Mean number of updates between two trades of a market. Default 10; 0 = no trades. */
  readonly tradeEvery?: number;
  /** Tick, price µ; must divide 1 (1_000_000). Default 10_000 (0.01). */
  readonly tickSize?: number;
  /** Chance that an update moves the mid one tick. Default 0.1. */
  readonly moveChance?: number;
  /**
   * The writer's chunk size (uncompressed bytes). Default 1 MiB, not the writer's 64 KiB: a chunk
   * restates the settings and book of every token it mentions, and with 100 interleaved tokens
   * 64 KiB chunks spend about half their bytes on restatements (twice the bytes to inflate and
   * decode on replay).
   */
  readonly chunkBytes?: number;
}

export interface SynthStats {
  /** Records RecordingReader yields by default: settings, books, deltas and trades. */
  readonly events: number;
  readonly bookEvents: number;
  readonly deltaEvents: number;
  readonly trades: number;
  readonly markets: number;
  readonly tokens: number;
}

export interface SynthMarket {
  readonly index: number;
  /** 0x + 64 hex digits. */
  readonly conditionId: string;
  /** Decimal token ids of Polymarket's length (~77 digits). */
  readonly yesTokenId: string;
  readonly noTokenId: string;
  readonly question: string;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The ids of synthetic market `index` of a seed (the same ones synthesizeRecording writes). */
export function synthMarket(seed: number, index: number): SynthMarket {
  const base = `oddsmaker-synth:${seed}:${index}`;
  return {
    index,
    conditionId: `0x${sha256(`${base}:condition`)}`,
    yesTokenId: BigInt(`0x${sha256(`${base}:yes`)}`).toString(10),
    noTokenId: BigInt(`0x${sha256(`${base}:no`)}`).toString(10),
    question: `Synthetic market ${index + 1} (seed ${seed})`,
  };
}

function check(ok: boolean, what: string): void {
  if (!ok) throw new OptionError('MARKETDATA_OPTION', `synthesize: ${what}`);
}

/** One market's YES ladder by tick index (size 0 = empty), its touch and its clocks. */
class Market {
  readonly size: Float64Array;
  /** Best bid tick index; the best ask is b + spread. */
  b: number;
  next = 0;
  constructor(
    readonly ids: SynthMarket,
    ticks: number,
    b: number,
    readonly spread: number,
    readonly latency: number,
  ) {
    this.size = new Float64Array(ticks + 1);
    this.b = b;
  }
}

/** A min-heap of market indices ordered by (next update time, index): the merge of all markets' timelines. */
class Schedule {
  private readonly heap: Int32Array;
  private n = 0;
  constructor(private readonly markets: readonly Market[]) {
    this.heap = new Int32Array(markets.length);
  }
  private less(i: number, j: number): boolean {
    const a = this.markets[i] as Market;
    const b = this.markets[j] as Market;
    return a.next < b.next || (a.next === b.next && i < j);
  }
  push(m: number): void {
    let at = this.n++;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      const p = this.heap[parent] as number;
      if (!this.less(m, p)) break;
      this.heap[at] = p;
      at = parent;
    }
    this.heap[at] = m;
  }
  /** Removes and returns the earliest market, or -1 when empty. */
  pop(): number {
    if (this.n === 0) return -1;
    const top = this.heap[0] as number;
    const last = this.heap[--this.n] as number;
    let at = 0;
    for (;;) {
      const l = 2 * at + 1;
      if (l >= this.n) break;
      const r = l + 1;
      const c = r < this.n && this.less(this.heap[r] as number, this.heap[l] as number) ? r : l;
      if (!this.less(this.heap[c] as number, last)) break;
      this.heap[at] = this.heap[c] as number;
      at = c;
    }
    if (this.n > 0) this.heap[at] = last;
    return top;
  }
}

/**
 * Writes a synthetic recording to `path` (an existing file there is replaced) and returns what it
 * holds. Throws OptionError (MARKETDATA_OPTION) on an option out of range.
 */
export async function synthesizeRecording(path: string, o: SynthOptions): Promise<SynthStats> {
  const levels = o.levels ?? 20;
  const perUpdate = o.changesPerUpdate ?? 3;
  const tradeEvery = o.tradeEvery ?? 10;
  const tick = o.tickSize ?? 10_000;
  const moveChance = o.moveChance ?? 0.1;
  check(Number.isSafeInteger(o.markets) && o.markets >= 1, `markets must be a positive integer, got ${o.markets}`);
  check(Number.isSafeInteger(o.durationMs) && o.durationMs >= 0, `durationMs must be ≥ 0, got ${o.durationMs}`);
  check(Number.isSafeInteger(o.startMs) && o.startMs >= 1000, `startMs must be an epoch ms time, got ${o.startMs}`);
  check(Number.isSafeInteger(o.seed), `seed must be an integer, got ${o.seed}`);
  check(o.updateEveryMs > 0 && Number.isFinite(o.updateEveryMs), `updateEveryMs must be > 0, got ${o.updateEveryMs}`);
  check(Number.isSafeInteger(levels) && levels >= 1, `levels must be a positive integer, got ${levels}`);
  check(Number.isSafeInteger(perUpdate) && perUpdate >= 1, `changesPerUpdate must be ≥ 1, got ${perUpdate}`);
  check(tradeEvery >= 0 && Number.isFinite(tradeEvery), `tradeEvery must be ≥ 0, got ${tradeEvery}`);
  check(
    Number.isSafeInteger(tick) && tick > 0 && SCALE % tick === 0 && SCALE / tick >= 40,
    `tickSize must divide 1 (µ) into at least 40 ticks, got ${tick}`,
  );
  check(moveChance >= 0 && moveChance <= 1, `moveChance must be in [0, 1], got ${moveChance}`);

  const rnd = mulberry32(o.seed);
  const ticks = SCALE / tick;
  // The mid (b + a) / 2 stays in [0.05, 0.95] of the tick range.
  const midLo = 0.05 * ticks * 2;
  const midHi = 0.95 * ticks * 2;
  const end = o.startMs + o.durationMs;
  const gap = (): number => Math.max(1, Math.round(-Math.log(1 - rnd()) * o.updateEveryMs));
  const lots = (): number => 500 + Math.floor(rnd() * 150_000); // 5 to 1505 shares, in 0.01 lots

  await rm(path, { force: true });
  const writer = await RecordingWriter.open(path, { chunkBytes: o.chunkBytes ?? 1024 * 1024 });
  let bookEvents = 0;
  let deltaEvents = 0;
  let trades = 0;
  let settingsEvents = 0;
  try {
    const markets: Market[] = [];
    for (let i = 0; i < o.markets; i++) {
      const spread = 1 + Math.floor(rnd() * 3);
      const b = Math.floor(ticks * 0.2 + rnd() * ticks * 0.6);
      const m = new Market(synthMarket(o.seed, i), ticks, b, spread, 5 + Math.floor(rnd() * 60));
      for (let k = 0; k < levels; k++) {
        if (b - k >= 1) m.size[b - k] = lots() * SIZE_LOT;
        if (b + spread + k <= ticks - 1) m.size[b + spread + k] = lots() * SIZE_LOT;
      }
      markets.push(m);
    }
    // Start: settings of both tokens, then full books, all at startMs.
    for (const m of markets) {
      const ex = o.startMs - m.latency;
      for (const tokenId of [m.ids.yesTokenId, m.ids.noTokenId]) {
        const s: RecordedMarketSettings = {
          tokenId,
          conditionId: m.ids.conditionId,
          tickSize: tick as Price,
          minOrderSize: 5_000_000 as Shares,
          negRisk: false,
          makerFeeBps: 0,
          takerFeeBps: 0,
          rewards: null,
        };
        writer.settings(s, ex, o.startMs);
        settingsEvents++;
      }
      const bids: { price: Price; size: Shares }[] = [];
      const asks: { price: Price; size: Shares }[] = [];
      const noBids: { price: Price; size: Shares }[] = [];
      const noAsks: { price: Price; size: Shares }[] = [];
      for (let i = 1; i < ticks; i++) {
        const sz = m.size[i] as number;
        if (sz === 0) continue;
        const side = i <= m.b ? bids : asks;
        side.push({ price: (i * tick) as Price, size: sz as Shares });
        const mirror = i <= m.b ? noAsks : noBids;
        mirror.push({ price: ((ticks - i) * tick) as Price, size: sz as Shares });
      }
      writer.book(m.ids.yesTokenId, ex, o.startMs, { bids, asks });
      writer.book(m.ids.noTokenId, ex, o.startMs, { bids: noBids, asks: noAsks });
      bookEvents += 2;
    }

    const schedule = new Schedule(markets);
    for (let i = 0; i < markets.length; i++) {
      const m = markets[i] as Market;
      m.next = o.startMs + gap();
      if (m.next < end) schedule.push(i);
    }
    // YES changes of the update being built: tick index, side, new size.
    let nChanges = 0;
    const cIdx = new Int32Array(perUpdate + 8);
    const cAsk = new Uint8Array(perUpdate + 8);
    const cSize = new Float64Array(perUpdate + 8);
    const change = (idx: number, isAsk: boolean, size: number): void => {
      cIdx[nChanges] = idx;
      cAsk[nChanges] = isAsk ? 1 : 0;
      cSize[nChanges] = size;
      nChanges++;
    };
    let written = 0;
    for (let mi = schedule.pop(); mi >= 0; mi = schedule.pop()) {
      const m = markets[mi] as Market;
      const local = m.next;
      const ex = local - m.latency;
      const size = m.size;
      const a = m.b + m.spread;
      nChanges = 0;
      const trade = tradeEvery > 0 && rnd() * tradeEvery < 1;
      // The taker lifts the best ask (BUY) or hits the best bid (SELL) for less than it shows
      // (a touch of a single lot cannot trade less than itself: no trade then).
      const buy = trade && rnd() < 0.5;
      const at = buy ? a : m.b;
      const touch = (size[at] as number) / SIZE_LOT;
      if (trade && touch >= 2) {
        const q = 1 + Math.floor(rnd() * rnd() * (touch - 1));
        const onNo = rnd() < 0.5;
        // A YES trade at p of one side is a NO trade at 1 − p of the other (FORMAT.md, TRADE).
        writer.trade(onNo ? m.ids.noTokenId : m.ids.yesTokenId, ex, local, {
          price: ((onNo ? ticks - at : at) * tick) as Price,
          size: (q * SIZE_LOT) as Shares,
          side: buy !== onNo ? 'BUY' : 'SELL',
        });
        trades++;
        size[at] = (touch - q) * SIZE_LOT;
        change(at, buy, size[at]);
      } else if (rnd() < moveChance) {
        const sum = m.b + a;
        const up = sum + 2 > midHi ? false : sum - 2 < midLo ? true : rnd() < 0.5;
        if (up) {
          // Asks [a, a+L-1] → [a+1, a+L]; bids [b-L+1, b] → [b-L+2, b+1].
          size[a] = 0;
          change(a, true, 0);
          if (a + levels <= ticks - 1) change(a + levels, true, (size[a + levels] = lots() * SIZE_LOT));
          if (m.b - levels + 1 >= 1) {
            size[m.b - levels + 1] = 0;
            change(m.b - levels + 1, false, 0);
          }
          m.b++;
          change(m.b, false, (size[m.b] = lots() * SIZE_LOT));
        } else {
          // Bids [b-L+1, b] → [b-L, b-1]; asks [a, a+L-1] → [a-1, a+L-2].
          size[m.b] = 0;
          change(m.b, false, 0);
          if (m.b - levels >= 1) change(m.b - levels, false, (size[m.b - levels] = lots() * SIZE_LOT));
          if (a + levels - 1 <= ticks - 1) {
            size[a + levels - 1] = 0;
            change(a + levels - 1, true, 0);
          }
          m.b--;
          change(m.b + m.spread, true, (size[m.b + m.spread] = lots() * SIZE_LOT));
        }
      }
      // Size changes of random levels, nearer the touch more often.
      const bidLo = Math.max(1, m.b - levels + 1);
      const askHi = Math.min(ticks - 1, m.b + m.spread + levels - 1);
      while (nChanges < perUpdate) {
        const bid = rnd() < 0.5;
        const depth = Math.floor(rnd() * rnd() * levels);
        const idx = bid ? Math.max(bidLo, m.b - depth) : Math.min(askHi, m.b + m.spread + depth);
        change(idx, !bid, (size[idx] = lots() * SIZE_LOT));
      }
      const yes = new Array<LevelChange>(nChanges);
      const no = new Array<LevelChange>(nChanges);
      for (let i = 0; i < nChanges; i++) {
        const idx = cIdx[i] as number;
        const isAsk = cAsk[i] === 1;
        const sz = cSize[i] as Shares;
        yes[i] = { side: isAsk ? 'asks' : 'bids', price: (idx * tick) as Price, size: sz };
        no[i] = { side: isAsk ? 'bids' : 'asks', price: ((ticks - idx) * tick) as Price, size: sz };
      }
      writer.delta(m.ids.yesTokenId, ex, local, yes);
      writer.delta(m.ids.noTokenId, ex, local, no);
      deltaEvents += 2;
      m.next = local + gap();
      if (m.next < end) schedule.push(mi);
      // Let sealed chunks reach the file now and then, so memory stays bounded (deterministic:
      // it depends on the count of updates only).
      if (++written % 131_072 === 0) await writer.flush();
    }
  } finally {
    await writer.close();
  }
  return {
    events: settingsEvents + bookEvents + deltaEvents + trades,
    bookEvents,
    deltaEvents,
    trades,
    markets: o.markets,
    tokens: 2 * o.markets,
  };
}
