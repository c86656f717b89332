// Small answers whose public shape differs from the interface's (dialect readWire 'public'), wire →
// the same domain values. Sources (fixtures in test/fixtures/real/wire/, SOURCES.md there):
// - GET /v1/leaderboard: `verifiedBadge` is a boolean, and userName, profileImage, xUsername,
//   verifiedBadge may be missing (docs.polymarket.com api-reference/core/get-trader-leaderboard-rankings;
//   rs-clob-client src/data/types/response.rs@d84e8e15c135af8b4d87a634a601d59cd56dade8
//   TraderLeaderboardEntry, whose second test entry has neither profileImage nor xUsername);
// - GET /midpoint: `{mid}` in the official clients (Polymarket/py-sdk tests/unit/test_clob_actions.py@1f125cdb,
//   rs-clob-client MidpointResponse), `{mid_price}` in the newer API reference
//   (docs.polymarket.com api-reference/data/get-midpoint-price): both are read, `mid` first;
// - GET /tick-size: a number (py-sdk tests/unit/test_order_market_data.py@a1d1b1a1), or a decimal
//   string (rs-clob-client tests/clob.rs@d84e8e1 tick_size_should_succeed).
// Invariants: strict readers only (no float parsing of decimal strings), ParseError names the path.
import { ParseError } from '../../core/errors.js';
import type { LeaderboardEntry } from '../../core/market.js';
import type { Price } from '../../core/money.js';
import { isKnownTick } from '../../core/tick.js';
import { readPrice } from './decimal.js';
import { amountOf, arrOf, at, obj, optBool, optStr, priceOf, str, uintString } from './read.js';

function parsePublicLeaderboardEntry(v: unknown, path: string): LeaderboardEntry {
  const o = obj(v, path);
  const p = (k: string): string => at(path, k);
  return {
    rank: uintString(o['rank'], p('rank')),
    proxyWallet: str(o['proxyWallet'], p('proxyWallet')),
    userName: optStr(o['userName'], p('userName')),
    vol: amountOf(o['vol'], p('vol'), 'half-even', 'number-or-string'),
    pnl: amountOf(o['pnl'], p('pnl'), 'half-even', 'number-or-string'),
    profileImage: optStr(o['profileImage'], p('profileImage')),
    xUsername: optStr(o['xUsername'], p('xUsername')),
    verifiedBadge: optBool(o['verifiedBadge'], p('verifiedBadge')),
  };
}

/** GET /v1/leaderboard as the public exchange sends it. */
export function parsePublicLeaderboard(json: unknown, path = ''): LeaderboardEntry[] {
  return arrOf(json, path, parsePublicLeaderboardEntry);
}

/** GET /midpoint → the midpoint, or null when the exchange has none (`""`). */
export function parsePublicMidpointResponse(json: unknown, path = ''): Price | null {
  const o = obj(json, path);
  const key = o['mid'] !== undefined ? 'mid' : o['mid_price'] !== undefined ? 'mid_price' : null;
  if (key === null) throw new ParseError(at(path, 'mid'), 'expected a decimal string, got undefined');
  const v = o[key];
  if (v === null || v === '') return null;
  return readPrice(v, at(path, key));
}

/** GET /tick-size → the tick (one of the ticks in use). */
export function parsePublicTickSizeResponse(json: unknown, path = ''): Price {
  const p = at(path, 'minimum_tick_size');
  const tick = priceOf(obj(json, path)['minimum_tick_size'], p, 'half-even', 'number-or-string');
  if (!isKnownTick(tick)) throw new ParseError(p, `not a tick in use: ${String(tick)} millionths`);
  return tick;
}
