// An ExchangeGateway over the simulator's Venue in the same process, with no HTTP: what the
// strategy comparison (src/cli/compare/run.ts) runs the daemon against on a virtual clock,
// deterministically. It lives with the venue it adapts, as the paper venue's gateway lives in
// src/sim/paper; the CLI only wires it. Not re-exported from ./index.ts: it renders through the
// HTTP server's modules (src/sim/server), which themselves import this folder's index. Every answer
// goes the way the simulator's HTTP server sends it and the client reads it: the venue's value is
// rendered to the interface's wire shape by the server's own renderers, then parsed by the
// client's own parsers; orders go through the server's submission checks (owner, signer, market,
// amounts) before `venue.place`. What is skipped is the transport, the rate limiter and the
// signature verification (the orders are signed by the daemon's own signer). Invariants: only the
// markets given are listed by /sampling-markets (the comparison's universe); every other route
// answers for any market of the world, as the simulator does.
import type { Book } from '../../core/book.js';
import { OddsmakerError } from '../../core/errors.js';
import type { CancelResult, ClobMarketSettings, OrderRecord, Position, SamplingMarket } from '../../core/market.js';
import type { Price } from '../../core/money.js';
import type { PlacementResult } from '../../core/order.js';
import type { Dialect } from '../../exchange/dialect.js';
import type { ExchangeGateway } from '../../exchange/gateway.js';
import {
  parseBook,
  parseCancelResult,
  parseClobMarketSettings,
  parseOrderLookup,
  parsePlacementResult,
  parseSamplingMarket,
} from '../../exchange/parse/index.js';
import type { WireOrderSubmission } from '../../exchange/wire.js';
import type { L2Identity } from '../server/auth.js';
import { checkSubmission } from '../server/order-verify.js';
import { book as renderBook, cancelResult, orderRecord, placementResult, rejectedPlacement } from '../server/render.js';
import { Venue } from './venue.js';
import { toWireClobMarketSettings, toWireSamplingMarket } from '../world/index.js';

/** What the HTTP server would have answered with an error status (a misuse of the venue). */
export class VenueGatewayError extends OddsmakerError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super('VENUE_GATEWAY', `${status}: ${message}`, false);
  }
}

export class VenueGateway implements ExchangeGateway {
  readonly kind = 'venue';
  private readonly who: L2Identity;

  constructor(
    private readonly venue: Venue,
    private readonly dialect: Dialect,
    private readonly listed: readonly string[],
  ) {
    const a = venue.account;
    this.who = { apiKey: a.credentials.apiKey, address: a.address, owner: Venue.ownerOf(a.address) };
  }

  async getBooks(tokenIds: readonly string[]): Promise<Book[]> {
    const out: Book[] = [];
    for (const id of tokenIds) {
      const v = this.venue.engine.bookView(id);
      if (v !== undefined) out.push(parseBook(JSON.parse(JSON.stringify(renderBook(v))) as unknown));
    }
    return out;
  }

  async getMidpoints(tokenIds: readonly string[]): Promise<Map<string, Price>> {
    const out = new Map<string, Price>();
    for (const id of tokenIds) {
      const m = this.venue.engine.midpoint(id);
      if (m !== null && m !== undefined) out.set(id, m);
    }
    return out;
  }

  async *samplingMarkets(): AsyncIterable<SamplingMarket> {
    for (const id of this.listed) {
      const m = this.venue.market(id);
      if (m !== undefined) yield parseSamplingMarket(wire(toWireSamplingMarket(this.venue.world, m)));
    }
  }

  async getMarketSettings(conditionId: string): Promise<ClobMarketSettings> {
    const m = this.venue.market(conditionId);
    if (m === undefined) throw new VenueGatewayError(404, `market ${conditionId} not found`);
    return parseClobMarketSettings(wire(toWireClobMarketSettings(m)));
  }

  async postOrders(submissions: readonly WireOrderSubmission[]): Promise<PlacementResult[]> {
    const out: PlacementResult[] = [];
    for (const s of submissions) {
      const c = checkSubmission(wire(s), this.who, this.venue, this.dialect);
      if (c.kind === 'fail') throw new VenueGatewayError(c.status, c.message);
      const r =
        c.kind === 'place' ? placementResult(this.venue.place(c.request)) : rejectedPlacement(c.orderId, c.message);
      out.push(parsePlacementResult(wire(r)));
    }
    return out;
  }

  async cancelOrder(orderId: string): Promise<CancelResult> {
    return parseCancelResult(wire(cancelResult(orderId, this.venue.cancel(orderId, this.who.owner))));
  }

  async getOrder(orderId: string): Promise<OrderRecord | null> {
    // As GET /data/order/{id}: `{order}` for an order of our wallet; another's is not found.
    const v = this.venue.order(orderId);
    if (v === undefined || v.record.owner !== this.who.owner) return null;
    return parseOrderLookup(wire({ order: orderRecord(v, this.venue.wallets) }));
  }

  async getPositions(): Promise<Position[]> {
    return [];
  }

  async close(): Promise<void> {}
}

/** A value as it would arrive over the wire (plain JSON, no shared references). */
function wire(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v)) as unknown;
}
