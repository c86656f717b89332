// Portfolio and public trades wire → domain (interface §2.11–2.12, docs/protocol.md §8 GET /trades), in
// both dialects. These resources carry JSON numbers; money is converted once to millionths with a
// named rounding for values with more than 6 decimals: sizes truncate, prices and values round
// half-even (reported figures, never order prices). Percentages stay numbers. Invariants: every
// number is finite, sizes ≥ 0, prices in [0, 1], outcome indexes and timestamps integers; what a
// dialect does not send is null, never zero. The recorded real /trades page sends its numbers as
// strings: both forms are read, strings strictly.
// The public exchange (dialect readWire 'public'; fixtures in test/fixtures/real/wire/portfolio/):
// - GET /positions records carry `eventId` and no `timestamp` (a captured page, and rs-clob-client
//   src/data/types/response.rs@d84e8e15c135af8b4d87a634a601d59cd56dade8 Position);
// - GET /closed-positions records carry avgPrice, totalBought, realizedPnl, curPrice, timestamp and
//   the display fields only (same file, ClosedPosition; docs.polymarket.com
//   api-reference/core/get-closed-positions-for-a-user);
// - GET /trades adds icon, eventSlug and the trader's profile fields, ignored here.
import type { ClosedPosition, Position, Trade } from '../../core/market.js';
import type { Side } from '../../core/order.js';
import {
  amountOf,
  arrOf,
  at,
  bool,
  finite,
  intOrString,
  nonNegInt,
  obj,
  oneOf,
  optBool,
  optIso,
  optStr,
  priceOf,
  sharesOf,
  str,
  type JsonObject,
  type NumberForm,
} from './read.js';

const SIDES: readonly Side[] = ['BUY', 'SELL'];

/** A percentage: a number, or (form 'number-or-string') a decimal string read exactly then shown as a number. */
function percent(v: unknown, path: string, form: NumberForm): number {
  return typeof v === 'string' && form !== 'number'
    ? amountOf(v, path, 'half-even', form) / 1_000_000
    : finite(v, path);
}

function int(v: unknown, path: string, form: NumberForm): number {
  return nonNegInt(form === 'number' ? v : intOrString(v, path), path);
}

/** Fields every position record has, in both dialects. */
function shared(o: JsonObject, path: string, form: NumberForm) {
  const p = (k: string): string => at(path, k);
  return {
    proxyWallet: str(o['proxyWallet'], p('proxyWallet')),
    asset: str(o['asset'], p('asset')),
    conditionId: str(o['conditionId'], p('conditionId')),
    avgPrice: priceOf(o['avgPrice'], p('avgPrice'), 'half-even', form),
    totalBought: amountOf(o['totalBought'], p('totalBought'), 'half-even', form),
    realizedPnl: amountOf(o['realizedPnl'], p('realizedPnl'), 'half-even', form),
    curPrice: priceOf(o['curPrice'], p('curPrice'), 'half-even', form),
    title: str(o['title'], p('title')),
    slug: str(o['slug'], p('slug')),
    icon: str(o['icon'], p('icon')),
    eventSlug: str(o['eventSlug'], p('eventSlug')),
    outcome: str(o['outcome'], p('outcome')),
    oppositeOutcome: str(o['oppositeOutcome'], p('oppositeOutcome')),
    oppositeAsset: str(o['oppositeAsset'], p('oppositeAsset')),
    outcomeIndex: int(o['outcomeIndex'], p('outcomeIndex'), form),
    endDate: optIso(o['endDate'], p('endDate')),
  };
}

/** The current figures of a position (a current one always has them). */
function current(o: JsonObject, path: string, form: NumberForm) {
  const p = (k: string): string => at(path, k);
  return {
    size: sharesOf(o['size'], p('size'), 'trunc', form),
    initialValue: amountOf(o['initialValue'], p('initialValue'), 'half-even', form),
    currentValue: amountOf(o['currentValue'], p('currentValue'), 'half-even', form),
    cashPnl: amountOf(o['cashPnl'], p('cashPnl'), 'half-even', form),
    percentPnl: percent(o['percentPnl'], p('percentPnl'), form),
    percentRealizedPnl: percent(o['percentRealizedPnl'], p('percentRealizedPnl'), form),
    redeemable: bool(o['redeemable'], p('redeemable')),
    mergeable: bool(o['mergeable'], p('mergeable')),
  };
}

function parsePosition(v: unknown, path: string): Position {
  const o = obj(v, path);
  return {
    ...shared(o, path, 'number'),
    ...current(o, path, 'number'),
    negativeRisk: bool(o['negativeRisk'], at(path, 'negativeRisk')),
    eventId: null,
    timestamp: nonNegInt(o['timestamp'], at(path, 'timestamp')),
  };
}

function parseClosedPosition(v: unknown, path: string): ClosedPosition {
  const o = obj(v, path);
  return {
    ...shared(o, path, 'number'),
    ...current(o, path, 'number'),
    timestamp: nonNegInt(o['timestamp'], at(path, 'timestamp')),
  };
}

/** GET /positions. */
export function parsePositions(json: unknown, path = ''): Position[] {
  return arrOf(json, path, parsePosition);
}

/** GET /closed-positions. */
export function parseClosedPositions(json: unknown, path = ''): ClosedPosition[] {
  return arrOf(json, path, parseClosedPosition);
}

const PUBLIC: NumberForm = 'number-or-string';

function parsePublicPosition(v: unknown, path: string): Position {
  const o = obj(v, path);
  const ts = o['timestamp'];
  const eventId = o['eventId'];
  return {
    ...shared(o, path, PUBLIC),
    ...current(o, path, PUBLIC),
    negativeRisk: bool(o['negativeRisk'], at(path, 'negativeRisk')),
    // A number would be an id too: kept as its decimal text.
    eventId:
      typeof eventId === 'number'
        ? String(int(eventId, at(path, 'eventId'), 'number'))
        : optStr(eventId, at(path, 'eventId')),
    timestamp: ts === undefined || ts === null ? null : int(ts, at(path, 'timestamp'), PUBLIC),
  };
}

function optCurrent<T>(o: JsonObject, key: string, read: (v: unknown, path: string) => T, path: string): T | null {
  const v = o[key];
  return v === undefined || v === null ? null : read(v, at(path, key));
}

function parsePublicClosedPosition(v: unknown, path: string): ClosedPosition {
  const o = obj(v, path);
  return {
    ...shared(o, path, PUBLIC),
    timestamp: int(o['timestamp'], at(path, 'timestamp'), PUBLIC),
    size: optCurrent(o, 'size', (x, p) => sharesOf(x, p, 'trunc', PUBLIC), path),
    initialValue: optCurrent(o, 'initialValue', (x, p) => amountOf(x, p, 'half-even', PUBLIC), path),
    currentValue: optCurrent(o, 'currentValue', (x, p) => amountOf(x, p, 'half-even', PUBLIC), path),
    cashPnl: optCurrent(o, 'cashPnl', (x, p) => amountOf(x, p, 'half-even', PUBLIC), path),
    percentPnl: optCurrent(o, 'percentPnl', (x, p) => percent(x, p, PUBLIC), path),
    percentRealizedPnl: optCurrent(o, 'percentRealizedPnl', (x, p) => percent(x, p, PUBLIC), path),
    redeemable: optBool(o['redeemable'], at(path, 'redeemable')),
    mergeable: optBool(o['mergeable'], at(path, 'mergeable')),
  };
}

/** GET /positions as the public exchange sends it. */
export function parsePublicPositions(json: unknown, path = ''): Position[] {
  return arrOf(json, path, parsePublicPosition);
}

/** GET /closed-positions as the public exchange sends it. */
export function parsePublicClosedPositions(json: unknown, path = ''): ClosedPosition[] {
  return arrOf(json, path, parsePublicClosedPosition);
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

/** GET /trades (both dialects: the public records' extra display and profile fields are ignored). */
export function parseTrades(json: unknown, path = ''): Trade[] {
  return arrOf(json, path, parseTrade);
}
