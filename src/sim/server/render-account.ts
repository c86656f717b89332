// Venue values → the answers of the account-lifecycle routes (GET /data/orders, /data/trades,
// /balance-allowance, the batch cancels), in the public exchange's shapes (src/exchange/wire-account.ts
// names each source), served in both dialects. Invariants kept here:
// - keys in the order of the official clients' declarations; decimals printed by formatMicros;
//   times as the official clients read them (`created_at` seconds as a number, `match_time` and
//   `last_update` seconds as strings);
// - a trade is one engine fill, seen by one account: the top-level fields are the taker's (its
//   order, token, side, price in its own token's terms, the market's taker fee), `maker_orders`
//   holds the maker order with the maker's own price, token, side and fee; `trader_side` says
//   which side the viewer was, and `owner` / `maker_address` are the viewer's (its order's API key
//   and signing maker), as the public exchange reports an account's trades;
// - `transaction_hash` is the trade's simulated settlement hash from the match on (the hash the
//   placement answer lists in `transactionsHashes`), kept when the settlement fails;
// - a party the venue does not serve (a synthetic trader) shows its wallet and a stable
//   UUID-shaped key derived from its engine account;
// - a balance is the account's whole holding (free and reserved by its resting orders), in base
//   units; every exchange contract of the dialect is an allowed spender, unlimited (2^256 − 1):
//   the simulator has no approvals.
import { createHash } from 'node:crypto';
import { formatMicros } from '../../core/money.js';
import type { Dialect } from '../../exchange/dialect.js';
import type { WireAccountPage, WireAccountTrade, WireBalanceAllowance } from '../../exchange/wire-account.js';
import type { WireCancelResult } from '../../exchange/wire.js';
import type { CancelManyResult, Trade } from '../engine/index.js';
import { legTransactionHash, type SettledTrade, type Venue } from '../venue/index.js';

export const MAX_UINT256 = ((1n << 256n) - 1n).toString();

export function accountPage<T>(data: T[], nextCursor: string, limit: number): WireAccountPage<T> {
  return { data, next_cursor: nextCursor, limit, count: data.length };
}

/** A stable UUID-shaped API key for an engine account the venue issued no key to. */
export function syntheticKey(owner: string): string {
  const h = createHash('sha256').update(`oddsmaker-sim/flow-key/${owner}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

interface Party {
  readonly key: string;
  readonly address: string;
  readonly outcome: string;
  readonly feeBps: number;
}

function party(venue: Venue, t: Trade, role: 'maker' | 'taker'): Party {
  const maker = role === 'maker';
  const orderId = maker ? t.makerOrderId : t.takerOrderId;
  const owner = maker ? t.makerOwner : t.takerOwner;
  const tokenId = maker ? t.makerTokenId : t.takerTokenId;
  const meta = venue.orderMeta(orderId);
  const m = venue.market(t.conditionId);
  const fee = venue.engine.market(t.conditionId);
  return {
    key: meta?.apiKey ?? syntheticKey(owner),
    address: meta?.maker ?? venue.wallets.walletOf(owner),
    outcome: m === undefined ? '' : (m.outcomes[m.tokenIds.indexOf(tokenId)] ?? ''),
    feeBps: fee === undefined ? 0 : maker ? fee.makerFeeBps : fee.takerFeeBps,
  };
}

const seconds = (ms: number): string => String(Math.floor(ms / 1000));

/** One trade as the account `viewer` (an engine account, maker or taker of it) sees it. */
export function accountTrade(s: SettledTrade, viewer: string, venue: Venue): WireAccountTrade {
  const t = s.trade;
  const taker = party(venue, t, 'taker');
  const maker = party(venue, t, 'maker');
  const mine = viewer === t.takerOwner ? taker : maker;
  return {
    id: t.id,
    taker_order_id: t.takerOrderId,
    market: t.conditionId,
    asset_id: t.takerTokenId,
    side: t.takerSide,
    size: formatMicros(t.size),
    fee_rate_bps: String(taker.feeBps),
    price: formatMicros(t.takerPrice),
    status: s.status,
    match_time: seconds(t.timeMs),
    last_update: seconds(s.lastUpdateMs),
    outcome: taker.outcome,
    bucket_index: 0,
    owner: mine.key,
    maker_address: mine.address,
    maker_orders: [
      {
        order_id: t.makerOrderId,
        owner: maker.key,
        maker_address: maker.address,
        matched_amount: formatMicros(t.size),
        price: formatMicros(t.makerPrice),
        fee_rate_bps: String(maker.feeBps),
        asset_id: t.makerTokenId,
        outcome: maker.outcome,
        side: t.makerSide,
      },
    ],
    transaction_hash: legTransactionHash(t.id, 'taker'),
    trader_side: viewer === t.takerOwner ? 'TAKER' : 'MAKER',
  };
}

export function balanceAllowance(balance: number, dialect: Dialect, noAllowance = false): WireBalanceAllowance {
  const allowances: Record<string, string> = {};
  for (const spender of [dialect.verifyingContract, dialect.negRiskVerifyingContract])
    allowances[spender] = noAllowance ? '0' : MAX_UINT256;
  return { balance: String(balance), allowances };
}

/** The answer of a batch cancel: DELETE /order's shape. */
export function cancelManyResult(r: CancelManyResult): WireCancelResult {
  return { canceled: r.canceled, not_canceled: Object.fromEntries(Object.entries(r.notCanceled)) };
}
