// Mark to market of a set of positions (pnl.ts PositionState per token): THE one rule every PnL
// reader applies, so the ledger's report, the backtest report, the strategy comparison and the
// status view agree to the millionth. Invariants kept:
// - realized and fees sum over every position, flat ones included; realized is net of fees (fees
//   are shown beside it, never subtracted twice); total = realized + unrealized;
// - a held token is marked at the price `markOf` gives (value = size × mark rounded down, minus
//   its cost basis: unrealizedPnl). A held token without a mark is `unmarked`: listed, left out of
//   unrealized and total, never marked at a made-up price (0, the cost, the last fill);
// - sums run in the positions' order; the result lists marked and unmarked tokens in that order.
import type { Micros, Price } from './money.js';
import { mulMicros } from './money.js';
import { unrealizedPnl, type PositionState } from './pnl.js';

export interface MarkedPnl<P> {
  readonly position: P;
  readonly mark: Price;
  /** size × mark, rounded down. */
  readonly value: Micros;
  readonly unrealized: Micros;
}

export interface MarkToMarketPnl<P> {
  /** Held tokens with a mark, in input order. */
  readonly marked: readonly MarkedPnl<P>[];
  /** Held tokens without one (left out of unrealized and total), in input order. */
  readonly unmarked: readonly P[];
  /** Net of fees. */
  readonly realized: Micros;
  readonly unrealized: Micros;
  readonly fees: Micros;
  /** realized + unrealized. */
  readonly total: Micros;
}

/** Marks `positions` at `markOf(tokenId)` (undefined or null: none known, see the header). */
export function markToMarket<P extends PositionState & { readonly tokenId: string }>(
  positions: Iterable<P>,
  markOf: (tokenId: string) => Price | null | undefined,
): MarkToMarketPnl<P> {
  let realized = 0;
  let fees = 0;
  let unrealized = 0;
  const marked: MarkedPnl<P>[] = [];
  const unmarked: P[] = [];
  for (const p of positions) {
    realized += p.realized;
    fees += p.fees;
    if (p.size === 0) continue;
    const mark = markOf(p.tokenId);
    if (mark === undefined || mark === null) {
      unmarked.push(p);
      continue;
    }
    const u = unrealizedPnl(p, mark);
    unrealized += u;
    marked.push({ position: p, mark, value: mulMicros(mark, p.size, 'floor') as Micros, unrealized: u });
  }
  return {
    marked,
    unmarked,
    realized: realized as Micros,
    unrealized: unrealized as Micros,
    fees: fees as Micros,
    total: (realized + unrealized) as Micros,
  };
}
