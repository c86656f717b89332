// GET /balance-allowance and POST /v1/heartbeats wire → domain. Invariants:
// - balance is an integer in the asset's base units (6 decimals, so exactly millionths), sent as a
//   digit string (clob-client-v2 BalanceAllowanceResponse.balance: string) or a JSON integer
//   (rs-clob-client's balance_allowance test answers `0`); a decimal string is refused: it cannot be
//   told apart from a count of base units, and guessing would misstate money by 10^6;
// - allowances are uint256 digit strings (2^256 − 1 for an unlimited approval), kept as bigint,
//   keyed by spender address as sent; the v2 answer is the `allowances` map (clob-client-v2 @ f3e1a05,
//   rs-clob-client @ d84e8e1); the older single `allowance` (nautilus_trader's collateral fixture)
//   becomes the map entry "" → value; neither present → an empty map;
// - a heartbeat answer must carry a non-empty `heartbeat_id` (the id for the next heartbeat).
import type { BalanceAllowance } from '../../core/market.js';
import type { Micros } from '../../core/money.js';
import { at, entries, fail, nonEmpty, nonNegInt, obj, str } from './read.js';

const UINT = /^\d{1,78}$/;
const MAX_UINT256 = (1n << 256n) - 1n;

function baseUnits(v: unknown, path: string): Micros {
  if (typeof v === 'number') return nonNegInt(v, path) as Micros;
  const s = str(v, path);
  if (!/^\d+$/.test(s)) fail(path, `expected an integer amount in base units, got ${JSON.stringify(s.slice(0, 40))}`);
  const n = Number(s);
  if (!Number.isSafeInteger(n)) fail(path, `amount out of range: ${s.length} digits`);
  return n as Micros;
}

function uint256(v: unknown, path: string): bigint {
  const s = str(v, path);
  if (!UINT.test(s)) fail(path, `expected an unsigned integer string, got ${JSON.stringify(s.slice(0, 40))}`);
  const n = BigInt(s);
  if (n > MAX_UINT256) fail(path, 'allowance above 2^256 - 1');
  return n;
}

export function parseBalanceAllowance(json: unknown, path = ''): BalanceAllowance {
  const o = obj(json, path);
  const allowances = new Map<string, bigint>();
  const many = o['allowances'];
  if (many !== undefined && many !== null) {
    const m = obj(many, at(path, 'allowances'));
    for (const [spender, value] of entries(m))
      allowances.set(spender, uint256(value, at(at(path, 'allowances'), spender)));
  } else if (o['allowance'] !== undefined && o['allowance'] !== null) {
    allowances.set('', uint256(o['allowance'], at(path, 'allowance')));
  }
  return { balance: baseUnits(o['balance'], at(path, 'balance')), allowances };
}

/** The `heartbeat_id` of a heartbeat answer (200, or the 400 that carries the current id). */
export function parseHeartbeatId(json: unknown, path = ''): string {
  return nonEmpty(obj(json, path)['heartbeat_id'], at(path, 'heartbeat_id'));
}
