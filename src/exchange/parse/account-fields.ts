// Field readers shared by the account-lifecycle parsers (open orders, account trades): the cursor
// page envelope, sides, Unix times in the forms real payloads carry, and small integers sent as
// strings. Invariants: like read.ts, nothing is coerced silently; each tolerance below is one a
// real or official payload needs:
// - sides: upper case on the wire, lower case in rs-clob-client's own test payloads ("buy");
// - times: Unix seconds as a string or number (the official clients), ISO 8601 (nautilus_trader's
//   sanitized fixtures), milliseconds from 10^12 up (the rule of Polymarket/ts-sdk
//   packages/bindings/src/shared.ts@a1959b6, as orders-public.ts reads created_at);
// - `next_cursor` `LTE=` (the end) becomes null.
import type { AccountPage } from '../../core/market.js';
import type { Side } from '../../core/order.js';
import { arrOf, at, fail, isoMs, nonNegInt, obj, optInt, str } from './read.js';

export const END_CURSOR = 'LTE=';

/** `{data, next_cursor, limit?, count?}`: records parsed by `each`, the end cursor as null. */
export function parseAccountPage<T>(
  json: unknown,
  path: string,
  each: (v: unknown, path: string) => T,
): AccountPage<T> {
  const o = obj(json, path);
  const next = str(o['next_cursor'], at(path, 'next_cursor'));
  return {
    data: arrOf(o['data'], at(path, 'data'), each),
    nextCursor: next === END_CURSOR || next === '' ? null : next,
    limit: optInt(o['limit'], at(path, 'limit')),
    count: optInt(o['count'], at(path, 'count')),
  };
}

/** BUY or SELL, in either case. */
export function side(v: unknown, path: string): Side {
  const s = str(v, path).toUpperCase();
  if (s !== 'BUY' && s !== 'SELL') fail(path, `unexpected side ${JSON.stringify(v)}; expected BUY or SELL`);
  return s;
}

export function optSide(v: unknown, path: string): Side | null {
  if (v === undefined || v === null || v === '') return null;
  return side(v, path);
}

const DIGITS = /^\d{1,15}$/;

/** A time as epoch ms from Unix seconds (digit string or integer number; ms from 10^12) or ISO 8601. */
export function unixOrIsoMs(v: unknown, path: string): number {
  if (typeof v === 'number') return secondsOrMs(nonNegInt(v, path));
  const s = str(v, path);
  if (DIGITS.test(s)) return secondsOrMs(Number(s));
  return isoMs(s, path);
}

function secondsOrMs(n: number): number {
  return n >= 1_000_000_000_000 ? n : n * 1000;
}

/** A non-negative integer sent as a digit string or a JSON number (`fee_rate_bps`). */
export function intLike(v: unknown, path: string): number {
  if (typeof v === 'number') return nonNegInt(v, path);
  const s = str(v, path);
  if (!DIGITS.test(s)) fail(path, `expected an unsigned integer, got ${JSON.stringify(s.slice(0, 40))}`);
  return Number(s);
}
