// Portfolio and public trades wire → domain (interface §2.11–2.12, protocol.md §8 GET /trades).
// These resources carry JSON numbers; money is converted once to millionths with a named rounding
// for values with more than 6 decimals: sizes truncate, prices and values round half-even
// (reported figures, never order prices). Percentages stay numbers. Invariants: every number is
// finite, sizes ≥ 0, prices in [0, 1], outcome indexes and timestamps integers. The recorded real
// /trades page sends its numbers as strings: both forms are read, strings strictly.
import type { ClosedPosition, Position, Side, Trade } from '../../core/market.js';
import { amountOf, arrOf, at, bool, finite, intOrString, nonNegInt, obj, oneOf, optIso, priceOf, sharesOf, str } from './read.js';

const SIDES: readonly Side[] = ['BUY', 'SELL'];

function parsePositionFields(o: Record<string, unknown>, path: string): ClosedPosition {
  const p = (k: string): string => at(path, k);
  return {
    proxyWallet: str(o['proxyWallet'], p('proxyWallet')),
    asset: str(o['asset'], p('asset')),
    conditionId: str(o['conditionId'], p('conditionId')),
    size: sharesOf(o['size'], p('size'), 'trunc'),
    avgPrice: priceOf(o['avgPrice'], p('avgPrice'), 'half-even'),
    initialValue: amountOf(o['initialValue'], p('initialValue'), 'half-even'),
    currentValue: amountOf(o['currentValue'], p('currentValue'), 'half-even'),
    cashPnl: amountOf(o['cashPnl'], p('cashPnl'), 'half-even'),
    percentPnl: finite(o['percentPnl'], p('percentPnl')),
    totalBought: amountOf(o['totalBought'], p('totalBought'), 'half-even'),
    realizedPnl: amountOf(o['realizedPnl'], p('realizedPnl'), 'half-even'),
    percentRealizedPnl: finite(o['percentRealizedPnl'], p('percentRealizedPnl')),
    curPrice: priceOf(o['curPrice'], p('curPrice'), 'half-even'),
    redeemable: bool(o['redeemable'], p('redeemable')),
    mergeable: bool(o['mergeable'], p('mergeable')),
    title: str(o['title'], p('title')),
    slug: str(o['slug'], p('slug')),
    icon: str(o['icon'], p('icon')),
    eventSlug: str(o['eventSlug'], p('eventSlug')),
    outcome: str(o['outcome'], p('outcome')),
    oppositeOutcome: str(o['oppositeOutcome'], p('oppositeOutcome')),
    oppositeAsset: str(o['oppositeAsset'], p('oppositeAsset')),
    outcomeIndex: nonNegInt(o['outcomeIndex'], p('outcomeIndex')),
    timestamp: nonNegInt(o['timestamp'], p('timestamp')),
    endDate: optIso(o['endDate'], p('endDate')),
  };
}

function parsePosition(v: unknown, path: string): Position {
  const o = obj(v, path);
  return { ...parsePositionFields(o, path), negativeRisk: bool(o['negativeRisk'], at(path, 'negativeRisk')) };
}

function parseClosedPosition(v: unknown, path: string): ClosedPosition {
  return parsePositionFields(obj(v, path), path);
}

/** GET /positions. */
export function parsePositions(json: unknown, path = ''): Position[] {
  return arrOf(json, path, parsePosition);
}

/** GET /closed-positions. */
export function parseClosedPositions(json: unknown, path = ''): ClosedPosition[] {
  return arrOf(json, path, parseClosedPosition);
}

function parseTrade(v: unknown, path: string): Trade {
  const o = obj(v, path);
  const p = (k: string): string => at(path, k);
  const outcomeIndex = intOrString(o['outcomeIndex'], p('outcomeIndex'));
  const timestamp = intOrString(o['timestamp'], p('timestamp'));
  return {
    proxyWallet: str(o['proxyWallet'], p('proxyWallet')),
    side: oneOf(o['side'], p('side'), SIDES),
    asset: str(o['asset'], p('asset')),
    conditionId: str(o['conditionId'], p('conditionId')),
    size: sharesOf(o['size'], p('size'), 'trunc', 'number-or-string'),
    price: priceOf(o['price'], p('price'), 'half-even', 'number-or-string'),
    timestamp: nonNegInt(timestamp, p('timestamp')),
    title: str(o['title'], p('title')),
    slug: str(o['slug'], p('slug')),
    outcome: str(o['outcome'], p('outcome')),
    outcomeIndex: nonNegInt(outcomeIndex, p('outcomeIndex')),
    transactionHash: str(o['transactionHash'], p('transactionHash')),
  };
}

/** GET /trades. */
export function parseTrades(json: unknown, path = ''): Trade[] {
  return arrOf(json, path, parseTrade);
}
