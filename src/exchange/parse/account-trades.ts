// GET /data/trades (the account's trades with their settlement status, cursor paged) wire → domain.
// Record shape: the public exchange's Trade with maker_orders (clob-client-v2 src/types/clob.ts
// @ f3e1a05 Trade/MakerOrder; rs-clob-client TradeResponse @ d84e8e1). Invariants:
// - status is one of MATCHED, MINED, CONFIRMED, RETRYING, FAILED (a `TRADE_STATUS_` prefix and
//   lower case are normalised away); anything else is a ParseError: a trade whose settlement state
//   we cannot name must not be booked;
// - money through decimal.ts (exact millionths); `fee_rate_bps` an integer (string or number);
// - times: Unix seconds as strings (official clients), ISO 8601 (nautilus fixtures);
// - `transaction_hash` "" or absent → null; `err_msg` (clob-client-v2) or `error_msg`
//   (rs-clob-client) → errorMsg;
// - ownLegs is computed once here: a TAKER trade's own leg is its taker order (top-level side,
//   price, size, asset); a MAKER trade's own legs are the maker orders whose `owner` is the
//   trade's `owner` (the account's key), or, when none matches, whose `maker_address` is the
//   trade's `maker_address`. A MAKER trade with no own leg is a ParseError.
import type { MakerOrderFill, TradeLeg, TradePage, TradeRecord, TradeStatus, TraderSide } from '../../core/market.js';
import { TRADE_STATUSES } from '../../core/market.js';
import { intLike, optSide, parseAccountPage, side, unixOrIsoMs } from './account-fields.js';
import { readPrice, readShares } from './decimal.js';
import { arrOf, at, fail, nonEmpty, nonNegInt, obj, oneOf, optStr, str } from './read.js';

const PREFIX = 'TRADE_STATUS_';
const TRADER_SIDES: readonly TraderSide[] = ['TAKER', 'MAKER'];

export function parseTradeStatus(v: unknown, path: string): TradeStatus {
  const s = str(v, path).toUpperCase();
  const bare = s.startsWith(PREFIX) ? s.slice(PREFIX.length) : s;
  if (!(TRADE_STATUSES as readonly string[]).includes(bare)) fail(path, `unknown trade status ${JSON.stringify(v)}`);
  return bare as TradeStatus;
}

export function parseMakerOrder(json: unknown, path: string): MakerOrderFill {
  const o = obj(json, path);
  const p = (k: string): string => at(path, k);
  return {
    orderId: nonEmpty(o['order_id'], p('order_id')),
    owner: str(o['owner'], p('owner')),
    makerAddress: str(o['maker_address'], p('maker_address')),
    matchedAmount: readShares(o['matched_amount'], p('matched_amount')),
    price: readPrice(o['price'], p('price')),
    feeRateBps: intLike(o['fee_rate_bps'], p('fee_rate_bps')),
    assetId: nonEmpty(o['asset_id'], p('asset_id')),
    outcome: str(o['outcome'], p('outcome')),
    side: optSide(o['side'], p('side')),
  };
}

function ownLegs(t: Omit<TradeRecord, 'ownLegs'>, path: string): TradeLeg[] {
  if (t.traderSide === 'TAKER') {
    return [{ orderId: t.takerOrderId, assetId: t.assetId, side: t.side, price: t.price, size: t.size }];
  }
  let mine = t.makerOrders.filter((m) => m.owner !== '' && m.owner === t.owner);
  if (mine.length === 0) {
    const addr = t.makerAddress.toLowerCase();
    mine = t.makerOrders.filter((m) => m.makerAddress.toLowerCase() === addr);
  }
  if (mine.length === 0)
    fail(at(path, 'maker_orders'), 'a MAKER trade with no maker order of the account (by owner or maker_address)');
  return mine.map((m) => ({
    orderId: m.orderId,
    assetId: m.assetId,
    side: m.side,
    price: m.price,
    size: m.matchedAmount,
  }));
}

export function parseAccountTrade(json: unknown, path = ''): TradeRecord {
  const o = obj(json, path);
  const p = (k: string): string => at(path, k);
  const base: Omit<TradeRecord, 'ownLegs'> = {
    id: nonEmpty(o['id'], p('id')),
    takerOrderId: nonEmpty(o['taker_order_id'], p('taker_order_id')),
    market: str(o['market'], p('market')),
    assetId: nonEmpty(o['asset_id'], p('asset_id')),
    side: side(o['side'], p('side')),
    size: readShares(o['size'], p('size')),
    feeRateBps: intLike(o['fee_rate_bps'], p('fee_rate_bps')),
    price: readPrice(o['price'], p('price')),
    status: parseTradeStatus(o['status'], p('status')),
    matchTimeMs: unixOrIsoMs(o['match_time'], p('match_time')),
    lastUpdateMs: unixOrIsoMs(o['last_update'], p('last_update')),
    outcome: str(o['outcome'], p('outcome')),
    bucketIndex: nonNegInt(o['bucket_index'], p('bucket_index')),
    owner: str(o['owner'], p('owner')),
    makerAddress: str(o['maker_address'], p('maker_address')),
    makerOrders: o['maker_orders'] === null ? [] : arrOf(o['maker_orders'], p('maker_orders'), parseMakerOrder),
    transactionHash: optStr(o['transaction_hash'], p('transaction_hash')),
    traderSide: oneOf(str(o['trader_side'], p('trader_side')).toUpperCase(), p('trader_side'), TRADER_SIDES),
    errorMsg: optStr(o['err_msg'] ?? o['error_msg'], o['err_msg'] !== undefined ? p('err_msg') : p('error_msg')),
  };
  return { ...base, ownLegs: ownLegs(base, path) };
}

/** One page of GET /data/trades. */
export function parseAccountTradePage(json: unknown, path = ''): TradePage {
  return parseAccountPage(json, path, parseAccountTrade);
}
