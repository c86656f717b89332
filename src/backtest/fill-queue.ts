// The `queue` fill models of the backtester, behind the paper venue's FillModel interface (the
// venue and its `cross` model are unchanged). This is the models' reference: the delta venue the
// replay runs on (src/backtest/venue/) implements the same rules on typed arrays and is proven to
// fill exactly as the paper venue with this model (test/backtest/venue/). Our resting order joins the BACK of its price level:
// - the queue ahead of it is the recorded size at its price on its side in the book fed just
//   before the order arrived (the book it was placed against); 0 when it improved the book;
// Two regimes per market: book-driven (the recording has no trades of the market: every rule below
// about decreases) and trade-driven (from the market's first recorded trade on: see "trades").
// - each later book: a decrease d of the recorded size at our price is counted as d shares traded
//   at that level, ahead of us first. They shrink the queue ahead; only what is left of d once the
//   queue ahead is exhausted trades with us (at our price, as maker), up to our remaining size.
//   Conservative: a decrease is never worth more than itself to us, an increase (orders joining
//   behind us) is never worth anything, and we are filled only by volume in excess of everything
//   that stood ahead of us when we joined;
// - `queue-probabilistic`: each decrease is, with probability p (seeded draw), a trade as above,
//   else a cancel by someone behind us (the queue ahead and our order are untouched);
// - the opposite side AT our price (a recorded ask at our bid's price: the book shows the level
//   locked, i.e. sellers there) is volume offered at our level: its increases count like the
//   decreases above (queue ahead first, the excess to us), and it is not posted against our order,
//   so touching our price does not fill us as it does under `cross` (those levels are missing as
//   taker liquidity for our own new orders at that price until the book moves, stated);
// - an opposite side strictly THROUGH our price (an ask below our bid) fills us as under `cross`
//   (the real book is posted as external liquidity after the queue fills).
// - trades (recorded public trades, "trades first"): once a market has a recorded trade, only
//   trades fill our orders there. A trade of size s at YES price p whose taker SOLD meets our bids
//   priced ≥ p, best price first (then oldest first); at each of our orders it first consumes the
//   queue still ahead of it, then fills it (lot-truncated, up to its remaining size), and the rest
//   of s moves on to the next order: a trade's size is used once. A taker BUY meets our asks priced
//   ≤ p likewise. Book decreases then fill nothing (the trades that caused them are in the
//   recording; counting the decrease too would count one share twice, and a trade print may reach
//   the recording after the book that shows it, the data API being polled): they only bound the
//   queue ahead by the level's recorded size (orders that left the level are not ahead of us any
//   more, whoever they were). `queue` counts the rest of a decrease as cancels behind us (the queue
//   ahead shrinks only by trades and by that bound: conservative); `queue-probabilistic` counts
//   each decrease, with probability 1 − p, as a cancel ahead of us (the queue ahead shrinks by it).
//   Trade fills go through desk.sweep (the external book is left as it was);
// Mechanics: queue fills are executed through the desk as synthetic external orders at our price
// (asks at our bid prices, bids at our ask prices), each side posted alone so that no external
// order meets another, then the real book replaces them. Limits, stated: sizes are truncated to
// the engine's 0.01-share lot; when a lower-priced bid of ours is due while a higher one is not,
// the engine's price priority gives the fill to the higher one (likewise for asks).
// Deterministic: the only randomness is the injected seeded generator.
import type { Level } from '../core/book.js';
import { InvariantError, OptionError } from '../core/errors.js';
import { SCALE, type Price, type Shares } from '../core/money.js';
import { LOT } from '../sim/engine/index.js';
import type { ExternalBook, ExternalDesk, ExternalTrade, FillModel, PaperVenue } from '../sim/paper/index.js';

/** One of our resting orders in the external book's (YES) terms. */
export interface RestingOrder {
  readonly id: string;
  readonly side: 'BUY' | 'SELL';
  readonly price: Price;
  /** Size still open, share millionths. */
  readonly remaining: Shares;
}

export type RestingSource = (conditionId: string) => readonly RestingOrder[];

interface QueueState {
  /** The order's market: a book of one market prunes the states of that market only. */
  readonly conditionId: string;
  /** Shares still ahead of us at our level. */
  ahead: number;
  /** The recorded size at our level in the last book seen. */
  level: number;
  /** The recorded opposite-side size at exactly our price in the last book seen. */
  opposite: number;
}

export interface QueueModelOptions {
  /** Probability a decrease is a trade (the probabilistic variant); absent: every decrease is. */
  readonly tradeProbability?: number;
  /** Uniform [0, 1) draws, seeded; required with tradeProbability. */
  readonly random?: () => number;
}

function sizeAt(levels: readonly Level[], price: number): number {
  for (const l of levels) if (l.price === price) return l.size;
  return 0;
}

export class QueueFillModel implements FillModel {
  readonly name: 'queue' | 'queue-probabilistic';
  private source: RestingSource | null = null;
  private readonly states = new Map<string, QueueState>();
  /** Markets with at least one recorded trade: trade-driven from then on. */
  private readonly tradedMarkets = new Set<string>();
  private readonly p: number;
  private readonly random: () => number;
  /** Shares filled through the queue (not by crossing), for the stats; recorded trades included. */
  queueFilled = 0;
  /** Shares of queueFilled that recorded trades filled. */
  tradeFilled = 0;

  constructor(opts: QueueModelOptions = {}) {
    if (opts.tradeProbability === undefined) {
      this.name = 'queue';
      this.p = 1;
      this.random = () => 0;
    } else {
      const p = opts.tradeProbability;
      if (!(p >= 0 && p <= 1))
        throw new OptionError('BACKTEST_OPTION', `queue trade probability must be in [0, 1], got ${String(p)}`);
      if (opts.random === undefined)
        throw new OptionError('BACKTEST_OPTION', 'the probabilistic queue model needs a seeded random source');
      this.name = 'queue-probabilistic';
      this.p = p;
      this.random = opts.random;
    }
  }

  /** Where our resting orders come from (the venue is built after its model). */
  attach(source: RestingSource): void {
    this.source = source;
  }

  onBook(desk: ExternalDesk, book: ExternalBook, previous: ExternalBook | null): void {
    if (this.source === null) throw new InvariantError('queue fill model used before attach()');
    const ours = this.source(book.conditionId);
    const tradeDriven = this.tradedMarkets.has(book.conditionId);
    const dueBids = new Map<number, number>(); // our bid price → shares due (filled by synthetic asks)
    const dueAsks = new Map<number, number>();
    const live = new Set<string>();
    const touchedBids = new Set<number>(); // prices of our bids: asks there are not posted
    const touchedAsks = new Set<number>();
    for (const o of ours) {
      live.add(o.id);
      const now = sizeAt(o.side === 'BUY' ? book.bids : book.asks, o.price);
      const opp = sizeAt(o.side === 'BUY' ? book.asks : book.bids, o.price);
      (o.side === 'BUY' ? touchedBids : touchedAsks).add(o.price);
      let st = this.states.get(o.id);
      if (st === undefined) {
        const joined = previous === null ? now : sizeAt(o.side === 'BUY' ? previous.bids : previous.asks, o.price);
        const oppJoined = previous === null ? opp : sizeAt(o.side === 'BUY' ? previous.asks : previous.bids, o.price);
        st = { conditionId: book.conditionId, ahead: joined, level: joined, opposite: oppJoined };
        this.states.set(o.id, st);
      }
      if (tradeDriven) {
        const fall = Math.max(0, st.level - now);
        if (fall > 0 && this.name === 'queue-probabilistic' && !(this.random() < this.p))
          st.ahead = Math.max(0, st.ahead - fall);
        st.ahead = Math.min(st.ahead, now);
        st.level = now;
        st.opposite = opp;
        continue;
      }
      const dec = Math.max(0, st.level - now) + Math.max(0, opp - st.opposite);
      st.level = now;
      st.opposite = opp;
      if (dec <= 0) continue;
      if (this.name === 'queue-probabilistic' && !(this.random() < this.p)) continue; // a cancel behind us
      const through = dec - st.ahead;
      st.ahead = Math.max(0, st.ahead - dec);
      if (through <= 0) continue;
      let fill = Math.min(through, o.remaining);
      fill -= fill % LOT;
      if (fill <= 0) continue;
      const due = o.side === 'BUY' ? dueBids : dueAsks;
      due.set(o.price, (due.get(o.price) ?? 0) + fill);
    }
    for (const [id, st] of this.states)
      if (st.conditionId === book.conditionId && !live.has(id)) this.states.delete(id);

    const cid = book.conditionId;
    if (dueBids.size > 0) {
      // Highest first: each synthetic ask meets our bids at or above its price, best first.
      const asks = [...dueBids]
        .sort((a, b) => b[0] - a[0])
        .map(([price, size]) => ({ price: price as Price, size: size as Shares }));
      desk.replace(cid, [], asks);
      for (const l of asks) this.queueFilled += l.size;
    }
    if (dueAsks.size > 0) {
      const bids = [...dueAsks]
        .sort((a, b) => a[0] - b[0])
        .map(([price, size]) => ({ price: price as Price, size: size as Shares }));
      desk.replace(cid, bids, []);
      for (const l of bids) this.queueFilled += l.size;
    }
    const asks = touchedBids.size === 0 ? book.asks : book.asks.filter((l) => !touchedBids.has(l.price));
    const bids = touchedAsks.size === 0 ? book.bids : book.bids.filter((l) => !touchedAsks.has(l.price));
    desk.replace(cid, bids, asks);
  }

  /**
   * Fills our resting orders from one recorded trade (see the header): queue ahead first, then us,
   * best price first, each share of the trade used once.
   */
  onTrade(desk: ExternalDesk, t: ExternalTrade, book: ExternalBook | null): void {
    if (this.source === null) throw new InvariantError('queue fill model used before attach()');
    this.tradedMarkets.add(t.conditionId);
    const wantSide = t.side === 'SELL' ? 'BUY' : 'SELL';
    const reached = this.source(t.conditionId)
      .map((o, i) => ({ o, i }))
      .filter(({ o }) => o.side === wantSide && (wantSide === 'BUY' ? o.price >= t.price : o.price <= t.price))
      // Best price first, then oldest first (the source lists oldest first).
      .sort((x, y) => (wantSide === 'BUY' ? y.o.price - x.o.price : x.o.price - y.o.price) || x.i - y.i);
    let left: number = t.size;
    const due = new Map<number, number>();
    for (const { o } of reached) {
      if (left <= 0) break;
      let st = this.states.get(o.id);
      if (st === undefined) {
        // Placed since the last book: the queue ahead is that book's size at our price.
        const now = book === null ? 0 : sizeAt(o.side === 'BUY' ? book.bids : book.asks, o.price);
        const opp = book === null ? 0 : sizeAt(o.side === 'BUY' ? book.asks : book.bids, o.price);
        st = { conditionId: t.conditionId, ahead: now, level: now, opposite: opp };
        this.states.set(o.id, st);
      }
      const eaten = Math.min(left, st.ahead);
      st.ahead -= eaten;
      left -= eaten;
      let fill = Math.min(left, o.remaining);
      fill -= fill % LOT;
      if (fill > 0) {
        left -= fill;
        due.set(o.price, (due.get(o.price) ?? 0) + fill);
      }
    }
    if (due.size === 0) return;
    const levels = [...due]
      .sort((a, b) => (wantSide === 'BUY' ? b[0] - a[0] : a[0] - b[0]))
      .map(([price, size]) => ({ price: price as Price, size: size as Shares }));
    let total = 0;
    for (const l of levels) total += l.size;
    this.queueFilled += total;
    this.tradeFilled += total;
    if (wantSide === 'BUY') desk.sweep(t.conditionId, [], levels);
    else desk.sweep(t.conditionId, levels, []);
  }
}

/** Our resting orders of a market from the venue, in YES terms (a NO bid at q is a YES ask at 1 − q). */
export function restingFromVenue(venue: PaperVenue): RestingSource {
  return (conditionId) => {
    const out: RestingOrder[] = [];
    for (const r of venue.openOrders()) {
      if (r.market !== conditionId) continue;
      const ref = venue.marketOfToken(r.assetId);
      if (ref === undefined) continue;
      const remaining = (r.originalSize - r.sizeMatched) as Shares;
      if (ref.outcome === 0) out.push({ id: r.id, side: r.side, price: r.price, remaining });
      else
        out.push({ id: r.id, side: r.side === 'BUY' ? 'SELL' : 'BUY', price: (SCALE - r.price) as Price, remaining });
    }
    return out;
  };
}
