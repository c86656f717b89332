// The fake market-data venue with order entry added, so that the daemon can run against the real
// order manager: signed submissions are parsed and their ids computed as the exchange does (the
// EIP-712 digest), orders rest until cancelled or filled by the test, and lookups return the
// order record. No matching: fills are scripted with fill().
import { impliedPrice } from '../../src/core/amounts.js';
import type { CancelResult, OrderRecord, OrderStatus, PlacementResult, Position } from '../../src/core/market.js';
import type { Price, Shares } from '../../src/core/money.js';
import type { Dialect } from '../../src/exchange/dialect.js';
import type { ExchangeGateway } from '../../src/exchange/gateway.js';
import { parseWireOrder, wireOrderId } from '../../src/exchange/signing/index.js';
import type { WireOrderSubmission } from '../../src/exchange/wire.js';
import { FakeGateway } from '../marketdata/fake-gateway.js';

interface VenueOrder {
  id: string;
  tokenId: string;
  conditionId: string;
  side: 'BUY' | 'SELL';
  price: Price;
  size: Shares;
  sizeMatched: Shares;
  status: OrderStatus;
  createdAtMs: number;
  maker: string;
  owner: string;
}

export class FakeVenue extends FakeGateway implements ExchangeGateway {
  readonly orders = new Map<string, VenueOrder>();
  readonly posts: number[] = [];
  readonly cancels: string[] = [];
  /** While set, every cancel is refused (the order stays live). */
  refuseCancels: string | null = null;

  constructor(clock: ConstructorParameters<typeof FakeGateway>[0], private readonly dialect: Dialect) {
    super(clock);
  }

  async postOrders(submissions: readonly WireOrderSubmission[]): Promise<PlacementResult[]> {
    this.posts.push(submissions.length);
    return submissions.map((s) => {
      const parsed = parseWireOrder(s.order, this.dialect);
      const f = parsed.fields;
      const id = wireOrderId(parsed, this.dialect, false);
      const size = (f.side === 'BUY' ? f.takerAmount : f.makerAmount) as Shares;
      this.orders.set(id, {
        id, tokenId: f.tokenId, conditionId: f.conditionId, side: f.side, price: impliedPrice(f.side, f.makerAmount, f.takerAmount).price as Price,
        size, sizeMatched: 0 as Shares, status: 'LIVE', createdAtMs: f.timestampMs, maker: f.maker, owner: s.owner,
      });
      return { success: true, errorMsg: '', orderId: id, status: 'live', takingAmount: null, makingAmount: null, accepted: true };
    });
  }

  async cancelOrder(orderId: string): Promise<CancelResult> {
    this.cancels.push(orderId);
    const o = this.orders.get(orderId);
    if (this.refuseCancels !== null) return { canceled: [], notCanceled: new Map([[orderId, this.refuseCancels]]) };
    if (o === undefined || o.status !== 'LIVE') return { canceled: [], notCanceled: new Map([[orderId, 'Order not found or already canceled']]) };
    o.status = 'CANCELED';
    return { canceled: [orderId], notCanceled: new Map() };
  }

  async getOrder(orderId: string): Promise<OrderRecord | null> {
    const o = this.orders.get(orderId);
    if (o === undefined) return null;
    return {
      id: o.id, status: o.status, market: o.conditionId, assetId: o.tokenId, side: o.side, price: o.price,
      originalSize: o.size, sizeMatched: o.sizeMatched, outcome: 'Yes', makerAddress: o.maker, owner: o.owner, type: 'GTC',
      createdAt: new Date(o.createdAtMs).toISOString(), createdAtMs: o.createdAtMs, associateTrades: [],
    };
  }

  async getPositions(): Promise<Position[]> {
    return [];
  }

  /** A taker hits a resting order for `size` share millionths. */
  fill(orderId: string, size: number): void {
    const o = this.orders.get(orderId);
    if (o === undefined || o.status !== 'LIVE') throw new Error(`fake venue: no live order ${orderId}`);
    o.sizeMatched = Math.min(o.size, o.sizeMatched + size) as Shares;
    if (o.sizeMatched === o.size) o.status = 'MATCHED';
  }

  live(): VenueOrder[] {
    return [...this.orders.values()].filter((o) => o.status === 'LIVE');
  }
}
