// Factories for the engine tests: a fresh engine on a virtual clock with one market, and order
// inputs written with decimal strings (parsed strictly, as everywhere else).
import { VirtualClock } from '../../../src/core/clock.js';
import { parsePrice, parseShares, type Micros, type Price, type Shares } from '../../../src/core/money.js';
import type { OrderType, Side } from '../../../src/core/order.js';
import { MatchingEngine } from '../../../src/sim/engine/engine.js';
import type { MarketConfig, OrderInput } from '../../../src/sim/engine/types.js';

export const P = (s: string): Price => parsePrice(s);
export const S = (s: string): Shares => parseShares(s);
export const M = (s: string): Micros => parseShares(s) as number as Micros;

export const YES = 'yes-token';
export const NO = 'no-token';
export const COND = '0xcond';

export function market(over: Partial<MarketConfig> = {}): MarketConfig {
  return {
    conditionId: COND,
    tokens: [YES, NO],
    tick: P('0.01'),
    minSize: S('5'),
    makerFeeBps: 0,
    takerFeeBps: 0,
    negRisk: false,
    acceptingOrders: true,
    ...over,
  };
}

export function setup(over: Partial<MarketConfig> = {}): { clock: VirtualClock; engine: MatchingEngine } {
  const clock = new VirtualClock(Date.UTC(2026, 0, 1));
  const engine = new MatchingEngine({ clock });
  engine.addMarket(market(over));
  return { clock, engine };
}

let seq = 0;
export function ord(
  owner: string,
  side: Side,
  price: string,
  size: string,
  opts: { token?: string; type?: OrderType; postOnly?: boolean; expirationSec?: number; id?: string } = {},
): OrderInput {
  const o: OrderInput = {
    id: opts.id ?? `o${++seq}`,
    owner,
    tokenId: opts.token ?? YES,
    side,
    price: P(price),
    size: S(size),
    orderType: opts.type ?? 'GTC',
    ...(opts.postOnly !== undefined ? { postOnly: opts.postOnly } : {}),
    ...(opts.expirationSec !== undefined ? { expirationSec: opts.expirationSec } : {}),
  };
  return o;
}

/** Funds an account with collateral and `tokens` of each outcome of COND. */
export function fund(engine: MatchingEngine, owner: string, collateral: string, tokens = '0'): void {
  engine.deposit(owner, M(collateral));
  if (tokens !== '0') engine.mint(owner, COND, S(tokens));
}
