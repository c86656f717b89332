// The fields of a fill's (and a reversed fill's) log line, in human units: prices and sizes as
// exact decimal strings ("0.83", "1.52": formatMicros, never a float) and the market by its short
// name (core/market-label.ts), so a line reads as a trade without a calculator or a token table.
// The token id stays for tools that join on it; the raw integers of millionths are not logged.
// Pure; no I/O.
import { formatMicros } from '../core/money.js';
import type { FillReversal } from '../ledger/types.js';
import type { FillEvent } from './fill-tracker.js';

/** A token's market name for logs; undefined while its market is not known yet. */
export type MarketNameOf = (tokenId: string) => string | undefined;

export function fillLogFields(f: FillEvent, market: string | undefined): Record<string, unknown> {
  return {
    market: market ?? null,
    orderId: f.orderId,
    tokenId: f.tokenId,
    side: f.side,
    price: formatMicros(f.price),
    size: formatMicros(f.size),
    fee: formatMicros(f.feeMicros),
    liquidity: f.liquidity,
  };
}

export function reversalLogFields(r: FillReversal, market: string | undefined): Record<string, unknown> {
  return {
    market: market ?? null,
    tradeId: r.tradeId,
    orderId: r.orderId,
    tokenId: r.tokenId,
    side: r.side,
    size: formatMicros(r.size),
    notional: formatMicros(r.notional),
    feeRefund: formatMicros(r.feeMicros),
    realized: formatMicros(r.realizedDelta),
  };
}
