// The per-market state of the DeltaVenue (delta-venue.ts), in flat typed arrays indexed by YES price
// on the engine's finest grid (index = price / 100, 0..10_000), one slot range per side: key
// `i` is the bid side at index i, key `SLOTS + i` the ask side. Invariants kept here:
// - `raw` holds each token's recorded book as last received (fed or not), in YES terms: token 1's
//   bid at q is a YES ask at 1 − q (external-book.ts's mirror); `fed` holds the book last FED
//   (PaperVenue's slot.last), so the queue model's "book before the order arrived" is `fed`;
// - the external orders PaperVenue would have resting are mirrored by key: `xPosted` the size the
//   level was posted at (0: none held, −1: touched by a trade, so never kept by the next book),
//   `xRem` what rests of it (0 once fully traded), `xSeq` the number of its `ext-` id;
// - after every feed, at every key outside the `dirty` list, the held external order is exactly
//   what the fed book asks for (posted at the effective size, untouched), so the next feed only
//   needs to look at the keys its delta changed plus the dirty ones;
// - `ours` lists our live orders of the market in placement order (the engine's time priority).
import type { FeeModel } from '../../core/fees.js';
import type { PaperMarket } from '../../sim/paper/index.js';

/** Price slots per side: 0..1 in steps of 0.0001. */
export const SLOTS = 10_001;
/** The finest price step (0.0001) in millionths. */
export const GRID = 100;

/**
 * A queue model's state of one order id (fill-queue.ts QueueState), kept by id exactly as
 * QueueFillModel keeps it: created at the first book or trade that sees the order, dropped at the
 * first book of ITS market (`cid`) that does not list the id among that market's resting orders.
 * An id placed again before that inherits it, as there.
 */
export class QState {
  deleted = false;
  constructor(
    readonly id: string,
    readonly cid: string,
    public ahead: number,
    public level: number,
    public opposite: number,
  ) {}
}

/** One of our resting (or just placed) orders. */
export class OurNode {
  remaining: number;
  matched = 0;
  /** BUY: collateral still reserved (engine rule 8). */
  reserved = 0;
  live = true;
  /** Queue models: its state (valid unless `deleted`), looked up by id like QueueFillModel's. */
  qs: QState | null = null;
  /** Queue models: the sizes at its price in the last book fed (the next book's `previous`). */
  pNow = 0;
  pOpp = 0;

  constructor(
    readonly id: string,
    readonly mk: MarketState,
    readonly outcome: 0 | 1,
    readonly isBuy: boolean,
    /** Own token terms. */
    readonly price: number,
    /** YES-terms price index. */
    readonly yesIdx: number,
    /** A bid in YES terms (BUY YES or SELL NO). */
    readonly isBid: boolean,
    readonly size: number,
    readonly tokenId: string,
    readonly expiresAtMs: number,
  ) {
    this.remaining = size;
  }
}

export class MarketState {
  readonly cid: string;
  readonly yes: string;
  readonly fees: FeeModel;
  tick: number;
  minSize: number;
  readonly raw = new Float64Array(4 * SLOTS);
  /**
   * Keys where the two tokens' raw books (YES terms) differ: 0 exactly when one is the other's
   * mirror. Kept by setRaw, so the mirror check costs nothing.
   */
  rawDiff = 0;
  /** Expand-only bounds of each raw side (token·2 + ask), for scans on a token switch. */
  readonly rawLo = new Int32Array(4).fill(SLOTS);
  readonly rawHi = new Int32Array(4).fill(-1);
  readonly fed = new Float64Array(2 * SLOTS);
  /** Exact bounds of the fed sides' non-empty levels (lo SLOTS / hi −1 when empty). */
  readonly fedLo = new Int32Array(2).fill(SLOTS);
  readonly fedHi = new Int32Array(2).fill(-1);
  readonly fedCount = new Int32Array(2);
  /**
   * Σ of the fed sides' level sizes capped at maxLevelSize, not cut to the lot: an upper bound of
   * what sanitizeSide sums, so "≤ maxSideSize" still proves the side cap cannot bind (no division).
   */
  readonly fedSum = new Float64Array(2);
  readonly xPosted = new Float64Array(2 * SLOTS);
  readonly xRem = new Float64Array(2 * SLOTS);
  readonly xSeq = new Float64Array(2 * SLOTS);
  /** Expand-only bounds of held external orders per side. */
  readonly xLo = new Int32Array(2).fill(SLOTS);
  readonly xHi = new Int32Array(2).fill(-1);
  /** Token (0/1) of the last fed book; −1 before the first. */
  active = -1;
  /** Exchange time of the last fed book; NaN when it had none (never stale against it). */
  lastTs = Number.NaN;
  lastToken = '';
  lastHash = '';
  /** The active token's raw book changed without being fed (stale/unchanged): resync in full. */
  needSync = false;
  /** Best effective external ask index at the last feed (SLOTS: none). */
  bestAskE = SLOTS;
  /** The side caps (ExternalLimits) cut the book at the last feed. */
  cutPrev = false;
  /** Keys to look at on the next feed, deduplicated by `mark`. */
  dirty = new Int32Array(16);
  dirtyN = 0;
  readonly mark = new Uint8Array(2 * SLOTS);
  /** Queue models: keys filtered at the last feed (asks at our bids' prices, bids at our asks'). */
  filt = new Int32Array(8);
  filtN = 0;
  readonly ours: OurNode[] = [];
  ourBestBid = -1;
  ourBestAsk = SLOTS;
  /** gcd of the price indices in use (see seen()); 0 before the first. */
  step = 0;
  /** Queue models: states of this market whose order finished, to drop at its next book. */
  staleQ: QState[] = [];
  /** Resolved (resolveMarket): no orders, no feeds. */
  resolved = false;
  /** Queue models: the market has had a recorded trade (trade-driven from then on). */
  tradeDriven = false;

  constructor(
    readonly market: PaperMarket,
    fees: FeeModel,
  ) {
    this.cid = market.conditionId;
    this.yes = market.tokens[0];
    this.fees = fees;
    this.tick = market.tick;
    this.minSize = market.minSize;
  }

  get hasLast(): boolean {
    return this.active !== -1;
  }

  addDirty(k: number): void {
    if (this.mark[k] === 1) return;
    this.mark[k] = 1;
    if (this.dirtyN === this.dirty.length) {
      const d = new Int32Array(this.dirty.length * 2);
      d.set(this.dirty);
      this.dirty = d;
    }
    this.dirty[this.dirtyN++] = k;
  }

  /** Our best bid / ask indices, after our orders changed. */
  recomputeOurBest(): void {
    let bb = -1;
    let ba = SLOTS;
    for (const o of this.ours) {
      if (o.isBid) {
        if (o.yesIdx > bb) bb = o.yesIdx;
      } else if (o.yesIdx < ba) ba = o.yesIdx;
    }
    this.ourBestBid = bb;
    this.ourBestAsk = ba;
  }

  /** Sets token `outcome`'s raw book at key k (side·SLOTS + index), keeping rawDiff. */
  setRaw(outcome: 0 | 1, k: number, v: number): void {
    const at = outcome * 2 * SLOTS + k;
    const old = this.raw[at] as number;
    if (old === v) return;
    const other = this.raw[(1 - outcome) * 2 * SLOTS + k] as number;
    if (old === other) this.rawDiff++;
    else if (v === other) this.rawDiff--;
    this.raw[at] = v;
  }

  /** Sets one fed level, keeping count, capped sum and exact bounds; true when it changed. */
  setFed(k: number, v: number, maxLevelSize: number): boolean {
    const old = this.fed[k] as number;
    if (old === v) return false;
    const side = k >= SLOTS ? 1 : 0;
    const i = side === 1 ? k - SLOTS : k;
    if (old > 0) {
      this.fedCount[side] = (this.fedCount[side] as number) - 1;
      this.fedSum[side] = (this.fedSum[side] as number) - (old < maxLevelSize ? old : maxLevelSize);
    }
    this.fed[k] = v;
    if (v > 0) {
      this.fedCount[side] = (this.fedCount[side] as number) + 1;
      this.fedSum[side] = (this.fedSum[side] as number) + (v < maxLevelSize ? v : maxLevelSize);
      if (i < (this.fedLo[side] as number)) this.fedLo[side] = i;
      if (i > (this.fedHi[side] as number)) this.fedHi[side] = i;
    } else if (this.fedCount[side] === 0) {
      this.fedLo[side] = SLOTS;
      this.fedHi[side] = -1;
    } else {
      const base = side * SLOTS;
      if (i === this.fedLo[side]) {
        let j = i + this.step;
        while ((this.fed[base + j] as number) <= 0) j += this.step;
        this.fedLo[side] = j;
      }
      if (i === this.fedHi[side]) {
        let j = i - this.step;
        while ((this.fed[base + j] as number) <= 0) j -= this.step;
        this.fedHi[side] = j;
      }
    }
    return true;
  }

  /**
   * Notes a price index in use: `step` stays the gcd of every index ever held in raw, fed or the
   * external orders, so scans between two used indices visit only possible levels (a 0.01 book:
   * every 100th slot).
   */
  seen(i: number): void {
    let a = this.step;
    if (a !== 0 && i % a === 0) return;
    let b = i;
    while (b !== 0) {
      const t = a % b;
      a = b;
      b = t;
    }
    this.step = a;
  }

  /** Widens a held-order side's bounds to include index i. */
  holdAt(side: number, i: number): void {
    this.seen(i);
    if (i < (this.xLo[side] as number)) this.xLo[side] = i;
    if (i > (this.xHi[side] as number)) this.xHi[side] = i;
  }
}
