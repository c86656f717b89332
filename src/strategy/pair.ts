// One binary market as one book: a token and its complement are two expressions of one exposure
// (a bid on YES at p is an ask on NO at 1 − p), so a strategy can compute its quotes once, in the
// terms of one token (the "primary"), and express each of them with the cheaper token. Invariants:
// - a pair's book, mid and net position are in primary terms: the complement's book is the exact
//   mirror of the primary's (the exchange keeps one book per market), net = q(primary) − q(compl.);
// - `Expresser` turns "buy s of primary exposure at p" into SELL complement at 1 − p out of the
//   complement held, then BUY primary at p for the rest (and "sell" the other way round): shares
//   held are offered back before any collateral is spent on the opposite token, so it never adds to
//   both sides of one exposure while it holds one (a sale needs no collateral; the purchase it
//   replaces would lock some). A piece below the minimum order size is left out (dust);
// - every quote it emits is on the tick, inside [tick, 1 − tick] (1 − p is on every tick p is on),
//   at least the minimum size, a whole 0.01 share, and sells never exceed what is held;
// - our own orders are removed from the book before a strategy reads depth or a reference price
//   off it (`externalBook`), so our quotes do not chase themselves.
// Pure: views in, values out.
import { truncateSize } from '../core/amounts.js';
import { mid as bookMid, type Book, type Level } from '../core/book.js';
import { SCALE, type Price, type Shares } from '../core/money.js';
import { remainingSize, type LiveOrder, type Side } from '../core/order.js';
import { MergedQuotes, type DesiredQuote } from '../core/quote.js';
import { hasRecentMids, type MarketView, type TokenView } from './context.js';

export interface Pair {
  readonly market: MarketView;
  /** The token quotes are computed in: the first of the pair in the market's token order. */
  readonly primary: TokenView;
  /** Its complement when it is in the same market view, else null (a lone token). */
  readonly complement: TokenView | null;
}

/** The market's tokens grouped into pairs (a token with its complement), in token order. */
export function pairsOf(market: MarketView): Pair[] {
  const used = new Set<string>();
  const out: Pair[] = [];
  for (const t of market.tokens) {
    if (used.has(t.tokenId)) continue;
    used.add(t.tokenId);
    const c =
      t.complementTokenId === null
        ? undefined
        : market.tokens.find((x) => x.tokenId === t.complementTokenId && !used.has(x.tokenId));
    if (c !== undefined) used.add(c.tokenId);
    out.push({ market, primary: t, complement: c ?? null });
  }
  return out;
}

/** The mirror of a book: bids at p become asks at 1 − p and the reverse (best-first kept). */
export function mirrorBook(b: Book, assetId: string): Book {
  const flip = (ls: readonly Level[]): Level[] => ls.map((l) => ({ price: (SCALE - l.price) as Price, size: l.size }));
  return {
    market: b.market,
    assetId,
    timestampMs: b.timestampMs,
    hash: '',
    bids: flip(b.asks),
    asks: flip(b.bids),
    minOrderSize: b.minOrderSize,
    tickSize: b.tickSize,
    negRisk: b.negRisk,
    lastTradePrice: b.lastTradePrice === null ? null : ((SCALE - b.lastTradePrice) as Price),
  };
}

/** The pair's book in primary terms: the primary's, else the mirror of the complement's. */
export function pairBook(p: Pair): Book | null {
  if (p.primary.book !== null) return p.primary.book;
  if (p.complement?.book != null) return mirrorBook(p.complement.book, p.primary.tokenId);
  return null;
}

/** When the pair's book was received (the one pairBook uses); null without one. */
export function pairBookAtMs(p: Pair): number | null {
  if (p.primary.book !== null) return p.primary.bookAtMs;
  return p.complement?.book != null ? p.complement.bookAtMs : null;
}

/** The mid in primary terms: the primary's, else 1 − the complement's. */
export function pairMid(p: Pair): Price | null {
  if (p.primary.mid !== null) return p.primary.mid;
  if (p.primary.book !== null) return bookMid(p.primary.book, 'half-even');
  const c = p.complement;
  if (c === null) return null;
  const m = c.mid ?? (c.book === null ? null : bookMid(c.book, 'half-even'));
  return m === null ? null : ((SCALE - m) as Price);
}

/**
 * The token whose recent mids stand for the pair's: the primary's, or the complement's (mirrored
 * into primary terms) when the primary has none.
 */
export function pairMidsToken(p: Pair): TokenView {
  return hasRecentMids(p.primary) || p.complement === null ? p.primary : p.complement;
}

/** Recent mids in primary terms, oldest first. */
export function pairRecentMids(p: Pair): readonly { readonly atMs: number; readonly mid: Price }[] {
  const t = pairMidsToken(p);
  if (t === p.primary) return t.recentMids;
  return t.recentMids.map((s) => ({ atMs: s.atMs, mid: (SCALE - s.mid) as Price }));
}

/** The pair's current tick: its book's (it changes near 0 and 1), else the market record's. */
export function pairTick(p: Pair): Price {
  return pairBook(p)?.tickSize ?? p.market.settings.tickSize;
}

/** The pair's current minimum order size: its book's, else the market record's. */
export function pairMinSize(p: Pair): Shares {
  return pairBook(p)?.minOrderSize ?? p.market.settings.minOrderSize;
}

/** Is p (in the terms of q's token) a price q may rest at: valid on the pair's tick, bids below the token's mid and asks above? */
export function passiveAt(p: Pair, q: Pick<DesiredQuote, 'tokenId' | 'side'>, price: number): boolean {
  const m = pairMid(p);
  if (m === null) return false;
  const tick = pairTick(p);
  if (price % tick !== 0 || price < tick || price > SCALE - tick) return false;
  let tokenMid: number;
  if (q.tokenId === p.primary.tokenId) tokenMid = m;
  else if (p.complement !== null && q.tokenId === p.complement.tokenId) tokenMid = SCALE - m;
  else return false;
  return q.side === 'BUY' ? price < tokenMid : price > tokenMid;
}

/** The price of a quote in primary terms (a complement's price p is 1 − p). */
export function primaryPrice(p: Pair, q: Pick<DesiredQuote, 'tokenId' | 'price'>): number {
  return q.tokenId === p.primary.tokenId ? q.price : SCALE - q.price;
}

/** Net position in primary shares: q(primary) − q(complement). */
export function netPosition(p: Pair): number {
  return p.primary.position - (p.complement?.position ?? 0);
}

/** One of our orders as it sits in the pair's book: its side and price in primary terms. */
export interface OwnLevel {
  readonly side: 'bid' | 'ask';
  readonly price: Price;
  readonly remaining: Shares;
  readonly order: LiveOrder;
}

/** Our orders on either token, in primary terms (BUY complement at q is an ask at 1 − q). */
export function ownLevels(p: Pair): OwnLevel[] {
  const out: OwnLevel[] = [];
  for (const o of p.primary.openOrders) {
    const r = remainingSize(o);
    if (r > 0) out.push({ side: o.side === 'BUY' ? 'bid' : 'ask', price: o.price, remaining: r as Shares, order: o });
  }
  for (const o of p.complement?.openOrders ?? []) {
    const r = remainingSize(o);
    if (r > 0)
      out.push({
        side: o.side === 'BUY' ? 'ask' : 'bid',
        price: (SCALE - o.price) as Price,
        remaining: r as Shares,
        order: o,
      });
  }
  return out;
}

/**
 * The pair's book without our own orders: what the rest of the market shows. Our remaining size
 * is taken off the level at its price (never below 0; emptied levels are dropped). Orders still
 * in flight may not be in the book yet; taking them off anyway errs toward a thinner book.
 */
export function externalBook(p: Pair): Book | null {
  const b = pairBook(p);
  if (b === null) return null;
  const own = ownLevels(p);
  if (own.length === 0) return b;
  const less = (levels: readonly Level[], side: 'bid' | 'ask'): Level[] => {
    const mine = new Map<number, number>();
    for (const o of own) if (o.side === side) mine.set(o.price, (mine.get(o.price) ?? 0) + o.remaining);
    const out: Level[] = [];
    for (const l of levels) {
      const left = l.size - (mine.get(l.price) ?? 0);
      if (left > 0) out.push({ price: l.price, size: left as Shares });
    }
    return out;
  };
  return { ...b, bids: less(b.bids, 'bid'), asks: less(b.asks, 'ask') };
}

/**
 * Expresses primary-terms quotes with the cheaper token (see the header). Holdings are consumed
 * as quotes are added, so the quotes added first (the inner ones) get the shares held.
 */
export class Expresser {
  private primaryLeft: number;
  private complementLeft: number;
  private readonly out = new MergedQuotes();

  constructor(
    private readonly pair: Pair,
    private readonly minSize: number,
  ) {
    this.primaryLeft = Math.max(0, pair.primary.position);
    this.complementLeft = pair.complement === null ? 0 : Math.max(0, pair.complement.position);
  }

  /**
   * Buy `size` of primary exposure at `price` (primary terms, on tick, in range): sell the
   * complement held at 1 − price first, buy the primary for the rest. Returns the size expressed.
   */
  bid(price: Price, size: number, tag?: string): number {
    return this.express('bid', price, size, tag);
  }

  /** Sell `size` of primary exposure at `price`: sell the primary held, buy the complement for the rest. */
  ask(price: Price, size: number, tag?: string): number {
    return this.express('ask', price, size, tag);
  }

  /** Every quote so far, one per (token, side, price), in the order first added. */
  quotes(): DesiredQuote[] {
    return this.out.toArray();
  }

  private express(side: 'bid' | 'ask', price: Price, size: number, tag: string | undefined): number {
    const want = truncateSize(size);
    if (want <= 0) return 0;
    const c = this.pair.complement;
    // The held token that reduces this exposure, and the one bought otherwise.
    const heldLeft = side === 'bid' ? this.complementLeft : this.primaryLeft;
    const sellToken = side === 'bid' ? c : this.pair.primary;
    const sellPrice = (side === 'bid' ? SCALE - price : price) as Price;
    const buyToken = side === 'bid' ? this.pair.primary : c;
    const buyPrice = (side === 'bid' ? price : SCALE - price) as Price;

    let done = 0;
    const fromHeld = truncateSize(Math.min(want, heldLeft));
    if (sellToken !== null && fromHeld > 0 && fromHeld >= this.minSize) {
      this.add(sellToken.tokenId, 'SELL', sellPrice, fromHeld, tag);
      if (side === 'bid') this.complementLeft -= fromHeld;
      else this.primaryLeft -= fromHeld;
      done += fromHeld;
    }
    const rest = want - done;
    if (buyToken !== null && rest > 0 && rest >= this.minSize) {
      this.add(buyToken.tokenId, 'BUY', buyPrice, rest, tag);
      done += rest;
    }
    return done;
  }

  private add(tokenId: string, side: Side, price: Price, size: number, tag: string | undefined): void {
    this.out.add(
      tag !== undefined
        ? { tokenId, side, price, size: size as Shares, tag }
        : { tokenId, side, price, size: size as Shares },
    );
  }
}
