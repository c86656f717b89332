// Portfolio routes of interface §4.4 (GET /positions, GET /closed-positions) and the public
// trade history of docs/protocol.md §8 (GET /trades), served by the Data API. Invariants: every query
// parameter is validated against its table (bounds, enums, title length, the required `user`)
// and defaults are sent explicitly; a failed check throws before anything is sent. Positions are
// parsed in the dialect's read shape (read-parsers.ts).
import type { ClosedPosition, Position, Trade } from '../../core/market.js';
import { encodeQuery } from '../params/spec.js';
import { CLOSED_POSITIONS, POSITIONS, TRADES } from '../params/tables.js';
import type { ClosedPositionsParams, PositionsParams, TradesParams } from '../params/types.js';
import { parseTrades } from '../parse/index.js';
import type { CallOptions, ClientCore } from './core.js';
import { readParsers } from './read-parsers.js';
import { ROUTES } from './routes.js';

export async function getPositions(
  core: ClientCore,
  params: PositionsParams,
  options?: CallOptions,
): Promise<Position[]> {
  const query = encodeQuery(POSITIONS, params);
  return core.call({
    route: ROUTES.positions,
    path: '/positions',
    query,
    parse: readParsers(core.signing.dialect).positions,
    options,
  });
}

export async function getClosedPositions(
  core: ClientCore,
  params: ClosedPositionsParams,
  options?: CallOptions,
): Promise<ClosedPosition[]> {
  const query = encodeQuery(CLOSED_POSITIONS, params);
  return core.call({
    route: ROUTES.closedPositions,
    path: '/closed-positions',
    query,
    parse: readParsers(core.signing.dialect).closedPositions,
    options,
  });
}

export async function getTrades(core: ClientCore, params: TradesParams = {}, options?: CallOptions): Promise<Trade[]> {
  const query = encodeQuery(TRADES, params);
  return core.call({ route: ROUTES.trades, path: '/trades', query, parse: parseTrades, options });
}
