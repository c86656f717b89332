// Simulator-only routes under /_sim/ — NOT part of the exchange interface: tests and operators use
// them to steer a running simulator; the daemon never calls them. Unauthenticated (the simulator
// listens on loopback), never throttled or faulted, `{error}` shape on failure (400, 404).
//
//   GET  /_sim/state                         seed, dialect, flow, faults, limits, counters
//   GET  /_sim/orders?owner=&status=&limit=&offset=
//                                            orders of a wallet (address or API key), any status
//                                            (LIVE, MATCHED, CANCELED, CANCELED_MARKET_RESOLVED)
//   GET  /_sim/balances?address=             collateral and token balances (decimal strings)
//   POST /_sim/flow      {action: start|stop|freeze|unfreeze|advance, ms?}
//   POST /_sim/markets/{condition_id}/resolve {winner: 0 | 1 | "<token id>"}
//   POST /_sim/markets/{condition_id}/tick    {tick: "0.001"}
//   POST /_sim/faults    {error500?, error503?, error425?, html?, delay?, delayMs?} (replaces all)
//   POST /_sim/fund      {address, amount: "1000"}   deposits collateral
//   POST /_sim/sample                         records a midpoint sample now
import type { FastifyInstance, FastifyReply } from 'fastify';
import { OddsmakerError } from '../../../core/errors.js';
import {
  formatMicros,
  microsFromNumber,
  parseMicros,
  parsePrice,
  type Micros,
  type Price,
} from '../../../core/money.js';
import type { OrderStatus } from '../../engine/index.js';
import { Venue } from '../../venue/index.js';
import { toWireMarket, type OutcomeIndex } from '../../world/index.js';
import { DATA_STYLE, isAddress, Params, runQuery } from '../../world/query.js';
import { isBadJson } from '../body.js';
import { rawQuery, sendResult, type ServerContext } from '../context.js';
import { sendError, SimRequestError } from '../errors.js';
import { FaultConfigError, type FaultConfig } from '../faults.js';
import { orderRecord } from '../render.js';

const STATUSES: readonly OrderStatus[] = ['LIVE', 'MATCHED', 'CANCELED', 'CANCELED_MARKET_RESOLVED'];
const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function objectBody(body: unknown): Record<string, unknown> | null {
  if (isBadJson(body) || typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  return body as Record<string, unknown>;
}

/** Runs a mutation; a domain error (bad tick, unknown market, already resolved) becomes a 400. */
function attempt(reply: FastifyReply, fn: () => unknown): unknown {
  try {
    return fn();
  } catch (e) {
    if (e instanceof OddsmakerError || e instanceof RangeError) return sendError(reply, 400, e.message);
    throw e;
  }
}

export function registerSimRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { venue, faults } = ctx;

  app.get('/_sim/state', async () => ({
    seed: venue.seed,
    dialect: venue.dialect.name,
    markets: venue.world.markets.length,
    time: ctx.clock.now(),
    account: venue.account.address,
    flow: { intensity: venue.flow.intensity, state: venue.flow.state },
    faults: faults.current,
    faultCounts: faults.counts,
    limits: ctx.throttle === null ? 'off' : 'on',
    throttled: ctx.throttle?.throttled ?? 0,
    allowlist: ctx.allowlist.enabled,
    verifier: ctx.verifier.counts,
    stats: venue.stats(),
  }));

  app.get('/_sim/orders', async (req, reply) => {
    const r = runQuery(() => {
      const p = new Params(rawQuery(req.query), DATA_STYLE).only(['owner', 'status', 'limit', 'offset']);
      return {
        owner: p.required('owner'),
        status: p.oneOf('status', STATUSES),
        limit: p.int('limit', { min: 1, max: 1000 }, 100),
        offset: p.int('offset', { min: 0 }, 0),
      };
    });
    if (!r.ok) return sendResult(reply, r);
    const { owner, status, limit, offset } = r.body;
    let account: string;
    if (isAddress(owner)) account = Venue.ownerOf(owner);
    else if (UUID_RE.test(owner)) {
      const k = venue.keys.lookup(owner);
      if (k === undefined) return sendError(reply, 404, 'unknown API key');
      account = Venue.ownerOf(k.address);
    } else return sendError(reply, 400, 'invalid_field: owner');
    const all = venue.ordersOf(account, status);
    return { count: all.length, data: all.slice(offset, offset + limit).map((v) => orderRecord(v, venue.wallets)) };
  });

  app.get('/_sim/balances', async (req, reply) => {
    const r = runQuery(() => new Params(rawQuery(req.query), DATA_STYLE).only(['address']).required('address'));
    if (!r.ok) return sendResult(reply, r);
    if (!isAddress(r.body)) return sendError(reply, 400, 'invalid_field: address');
    const b = venue.balances(r.body);
    const tokens: Record<string, { available: string; reserved: string }> = {};
    for (const [t, v] of b.tokens)
      tokens[t] = { available: formatMicros(v.available), reserved: formatMicros(v.reserved) };
    return {
      collateral: { available: formatMicros(b.collateral.available), reserved: formatMicros(b.collateral.reserved) },
      tokens,
    };
  });

  app.post('/_sim/flow', async (req, reply) => {
    const b = objectBody(req.body);
    const action = b?.['action'];
    const f = venue.flow;
    switch (action) {
      case 'start':
        f.start();
        break;
      case 'stop':
        f.stop();
        break;
      case 'freeze':
        f.freeze();
        break;
      case 'unfreeze':
        f.unfreeze();
        break;
      case 'advance': {
        const ms = b?.['ms'];
        if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0)
          return sendError(reply, 400, 'invalid_field: ms');
        f.step(ms);
        break;
      }
      default:
        return sendError(reply, 400, 'invalid_field: action (start, stop, freeze, unfreeze or advance)');
    }
    return { intensity: f.intensity, state: f.state };
  });

  app.post<{ Params: { id: string } }>('/_sim/markets/:id/resolve', async (req, reply) => {
    const m = venue.market(req.params.id);
    if (m === undefined) return sendError(reply, 404, 'market not found');
    const w = objectBody(req.body)?.['winner'];
    let winner: OutcomeIndex;
    if (w === 0 || w === 1) winner = w;
    else if (typeof w === 'string' && m.tokenIds.includes(w)) winner = m.tokenIds.indexOf(w) as OutcomeIndex;
    else return sendError(reply, 400, 'invalid_field: winner (0, 1 or a token id of the market)');
    return attempt(reply, () => {
      venue.resolve(m.conditionId, winner);
      return toWireMarket(m);
    });
  });

  app.post<{ Params: { id: string } }>('/_sim/markets/:id/tick', async (req, reply) => {
    const m = venue.market(req.params.id);
    if (m === undefined) return sendError(reply, 404, 'market not found');
    const t = objectBody(req.body)?.['tick'];
    return attempt(reply, () => {
      let tick: Price;
      if (typeof t === 'string') tick = parsePrice(t, 'tick');
      else if (typeof t === 'number') tick = microsFromNumber(t, 'half-even', 'tick') as Price;
      else throw new SimRequestError('invalid_field: tick (a decimal such as "0.001")');
      venue.setTick(m.conditionId, tick);
      return { condition_id: m.conditionId, minimum_tick_size: formatMicros(m.state.tick) };
    });
  });

  app.post('/_sim/faults', async (req, reply) => {
    const b = objectBody(req.body);
    if (b === null) return sendError(reply, 400, 'invalid payload: an object of fault fractions');
    try {
      faults.set(b as Partial<FaultConfig>);
    } catch (e) {
      if (e instanceof FaultConfigError) return sendError(reply, 400, e.message);
      throw e;
    }
    return faults.current;
  });

  app.post('/_sim/fund', async (req, reply) => {
    const b = objectBody(req.body);
    const address = b?.['address'];
    const amount = b?.['amount'];
    if (typeof address !== 'string' || !isAddress(address)) return sendError(reply, 400, 'invalid_field: address');
    if (typeof amount !== 'string') return sendError(reply, 400, 'invalid_field: amount (a decimal string)');
    return attempt(reply, () => {
      const micros = parseMicros(amount, 'amount');
      if (micros <= 0) throw new SimRequestError('invalid_field: amount must be positive');
      venue.fund(address, micros as Micros);
      return { address, collateral: formatMicros(venue.balances(address).collateral.available) };
    });
  });

  app.post('/_sim/sample', async () => {
    venue.sampler.sample();
    return { samples: venue.sampler.samples };
  });
}
