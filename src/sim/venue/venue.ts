// The simulated venue (no HTTP): the seeded synthetic world, one MatchingEngine holding every market
// of it, the portfolio (positions from fills), price history and last trades, the API-key store,
// the funded test account, the synthetic order flow and the market lifecycle. The HTTP server
// (src/sim/server) translates wire requests into these calls; the daemon's paper mode and the
// backtester use the engine directly, not this class.
//
// Invariants kept here:
// - everything is a function of (seed, markets, world start time) plus the sequence of external
//   requests: the world, the test account, the server secret and the flow all derive from the seed;
// - time comes only from the injected Clock (engine timestamps, samples, flow ticks, resolution);
// - an engine account is a lower-case wallet address for HTTP users; orders placed through
//   `place` are remembered with their maker and API key (order records need both); wallets the
//   venue issued a key to or funded get portfolio positions from their fills, the synthetic
//   traders (funded with minted sets the portfolio never saw) appear in the trade log only, under
//   wallets of their own (fills.ts);
// - the world's traders start with their past (standings.ts): their positions and trades are
//   replayed into the book and the trade log before any live fill, and they do not trade live;
// - lifecycle changes keep engine and world in step: a tick change is validated by the world
//   (a tick in use) before the engine applies it; resolving validates, cancels every resting order
//   (engine), then fixes the winner and closes the market (world); positions read the world's state
//   live, so they turn redeemable/closed at once;
// - markets generated closed or resolved start closed (or resolved) in the engine too;
// - fills are charged as the dialect's exchange charges them (Dialect.fees, core/fees.ts): the
//   base bps in the spec dialect, the `fd` that GET /clob-markets renders in the polymarket one;
// - memory stays bounded on long runs: finished orders are dropped from the engine after
//   `retainFinishedMs`, the trade log and price history are rings;
// - the account lifecycle of the public exchange: `settlement` moves the HTTP users' trades
//   through MATCHED → MINED → CONFIRMED (or RETRYING → FAILED, undone) on the clock
//   (settlement.ts), `heartbeats` is the dead-man switch that cancels an account's live orders
//   when its heartbeats stop (heartbeat.ts); both are cleared by close().
import type { Clock } from '../../core/clock.js';
import type { OrderType, Side } from '../../core/order.js';
import { DAY_MS } from '../world/ids.js';
import { InvariantError } from '../../core/errors.js';
import { feeModelOf, type FeeModel } from '../../core/fees.js';
import { SCALE, type Micros, type Price } from '../../core/money.js';
import type { ApiCredentials } from '../../exchange/auth/credentials.js';
import type { Dialect } from '../../exchange/dialect.js';
import {
  MatchingEngine,
  type AccountBalances,
  type CancelResult,
  type OrderInput,
  type OrderRecord,
  type OrderStatus,
  type SubmitResult,
} from '../engine/index.js';
import {
  generateWorld,
  LastTrades,
  PositionBook,
  PriceHistory,
  replayPast,
  TradeLog,
  WorldError,
  type MarketRec,
  type OutcomeIndex,
  type Seed,
  type TokenRef,
  type World,
} from '../world/index.js';
import { deriveWallet, serverSecretFor, TEST_ACCOUNT_COLLATERAL, type WalletKey } from './account.js';
import { FillRecorder, WalletMap, type FillStats } from './fills.js';
import { driverFlowFactory, NoFlow, type FlowControl, type FlowFactory, type FlowIntensity } from './flow.js';
import { HeartbeatMonitor } from './heartbeat.js';
import { ApiKeyStore } from './keys.js';
import { OrderIndex, type OrderMeta } from './orders-index.js';
import { DEFAULT_SAMPLE_INTERVAL_MS, MidSampler } from './sampler.js';
import { Settlement, type SettlementConfig } from './settlement.js';

export interface VenueOptions {
  clock: Clock;
  seed: Seed;
  /** Number of markets of the synthetic world (1 to 100000). */
  markets: number;
  dialect: Dialect;
  /** "Now" of the generated world; default: the clock's time floored to the UTC day. */
  worldStartMs?: number;
  /** Synthetic traders of the world (comments, leaderboard); default from the market count. */
  users?: number;
  /** Order-flow intensity; default `none`. */
  flow?: FlowIntensity;
  /** Builds the flow for an intensity other than `none` (default: engineer K's FlowDriver). */
  flowFactory?: FlowFactory;
  /** Mid sampling period in ms of clock time (default 60 s). */
  sampleIntervalMs?: number;
  /** Secret API credentials are derived with; default derived from the seed. */
  serverSecret?: string;
  /** Collateral of the test account (default 1,000,000 units). */
  accountCollateral?: Micros;
  /**
   * How long records of finished orders stay for lookup (default 6 hours): the synthetic flow
   * places tens of thousands of orders an hour, and the engine would otherwise keep them all.
   */
  retainFinishedMs?: number;
  /** Settlement of trades (delays to MINED and CONFIRMED, failing fraction); settlement.ts defaults. */
  settlement?: Partial<SettlementConfig>;
  /** Heartbeat window before an account's live orders are cancelled (default 10 s). */
  heartbeatExpiryMs?: number;
}

export const DEFAULT_RETAIN_FINISHED_MS = 6 * 3_600_000;

/** The throwaway account the simulator prints: wallet key, address and its API credentials. */
export interface TestAccount extends WalletKey {
  readonly credentials: ApiCredentials;
}

export interface PlaceRequest {
  /** The order id: the EIP-712 digest of the signed order. */
  readonly id: string;
  /** Engine account (lower-case wallet address). */
  readonly owner: string;
  readonly tokenId: string;
  readonly side: Side;
  readonly price: Price;
  readonly size: OrderInput['size'];
  readonly orderType: OrderType;
  readonly postOnly: boolean;
  readonly expirationSec: number | null;
  /** Checksummed maker address of the signed order. */
  readonly maker: string;
  /** API key the order was submitted under. */
  readonly apiKey: string;
}

export interface OrderView {
  readonly record: OrderRecord;
  readonly meta: OrderMeta | undefined;
  readonly market: MarketRec;
}

export class Venue {
  readonly clock: Clock;
  readonly seed: Seed;
  readonly dialect: Dialect;
  readonly world: World;
  readonly engine: MatchingEngine;
  readonly positions: PositionBook;
  readonly trades: TradeLog;
  readonly history: PriceHistory;
  readonly lastTrades: LastTrades;
  readonly keys: ApiKeyStore;
  readonly wallets: WalletMap;
  readonly account: TestAccount;
  readonly flow: FlowControl;
  readonly sampler: MidSampler;
  readonly settlement: Settlement;
  readonly heartbeats: HeartbeatMonitor;
  private readonly orders = new OrderIndex();
  /** Engine accounts of wallets the venue issued keys to or funded: they get portfolio positions. */
  private readonly portfolioAccounts = new Set<string>();
  private readonly fills: FillRecorder;
  private detach: (() => void) | null;
  private started = false;

  constructor(opts: VenueOptions) {
    this.clock = opts.clock;
    this.seed = opts.seed;
    this.dialect = opts.dialect;
    const startMs = opts.worldStartMs ?? Math.floor(opts.clock.now() / DAY_MS) * DAY_MS;
    this.world = generateWorld({
      seed: opts.seed,
      markets: opts.markets,
      startMs,
      ...(opts.users === undefined ? {} : { users: opts.users }),
    });
    this.engine = new MatchingEngine({
      clock: opts.clock,
      retainFinishedMs: opts.retainFinishedMs ?? DEFAULT_RETAIN_FINISHED_MS,
    });
    for (const m of this.world.markets) this.addMarket(m);
    this.positions = new PositionBook(this.world, (token) => this.engine.midpoint(token) ?? null);
    this.trades = new TradeLog(this.world);
    // The world's traders' history: the positions and trades its leaderboard is derived from.
    replayPast(this.world, this.positions, this.trades);
    this.history = new PriceHistory();
    this.lastTrades = new LastTrades();
    this.wallets = new WalletMap(this.world);
    this.fills = new FillRecorder(this.engine, this.wallets, this.positions, this.trades, this.lastTrades, (owner) =>
      this.portfolioAccounts.has(owner),
    );
    this.detach = this.fills.attach();
    this.settlement = new Settlement({
      clock: opts.clock,
      seed: opts.seed,
      engine: this.engine,
      fills: this.fills,
      positions: this.positions,
      tracked: (owner) => this.portfolioAccounts.has(owner),
      ...(opts.settlement === undefined ? {} : { config: opts.settlement }),
    });
    this.heartbeats = new HeartbeatMonitor(opts.clock, this.engine, opts.seed, opts.heartbeatExpiryMs);
    this.keys = new ApiKeyStore(opts.serverSecret ?? serverSecretFor(opts.seed), (address) =>
      this.portfolioAccounts.add(Venue.ownerOf(address)),
    );
    const wallet = deriveWallet(opts.seed, 'test-account');
    this.account = { ...wallet, credentials: this.keys.issue(wallet.address, 0) };
    this.fund(wallet.address, opts.accountCollateral ?? TEST_ACCOUNT_COLLATERAL);
    const intensity = opts.flow ?? 'none';
    const factory = opts.flowFactory ?? driverFlowFactory;
    this.flow =
      intensity === 'none'
        ? new NoFlow()
        : factory({ engine: this.engine, world: this.world, clock: opts.clock, seed: opts.seed, intensity });
    this.sampler = new MidSampler(
      opts.clock,
      this.engine,
      this.world,
      this.history,
      opts.sampleIntervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS,
    );
  }

  private addMarket(m: MarketRec): void {
    const s = m.state;
    this.engine.addMarket({
      conditionId: m.conditionId,
      tokens: [m.tokenIds[0], m.tokenIds[1]],
      tick: s.tick,
      minSize: s.minOrderSize,
      makerFeeBps: m.fee.makerBaseFeeBps,
      takerFeeBps: m.fee.takerBaseFeeBps,
      // Charged as the dialect's exchange charges: base bps (interface) or the `fd` it renders.
      fees: this.feeModel(m),
      negRisk: m.negRisk,
      acceptingOrders: s.acceptingOrders && !s.closed,
    });
    if (s.winner !== null) this.engine.resolve(m.conditionId, m.tokenIds[s.winner]);
    else if (s.closed) this.engine.closeMarket(m.conditionId);
  }

  /** The market's fee model under the dialect's schedule (from the same fields the routes render). */
  private feeModel(m: MarketRec): FeeModel {
    const f = m.fee;
    const model = feeModelOf(this.dialect.fees, {
      makerBaseFeeBps: f.makerBaseFeeBps,
      takerBaseFeeBps: f.takerBaseFeeBps,
      feeDetails: { r: f.rate / SCALE, e: f.exponent, to: f.takerOnly },
    });
    if (model === null)
      throw new InvariantError(`market ${m.conditionId}: fees that cannot be charged exactly (${JSON.stringify(f)})`);
    return model;
  }

  /** Starts the flow and the mid sampler (one sample at once, so history is never empty). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.flow.start();
    this.sampler.sample();
    this.sampler.start();
  }

  /** Stops the flow and the sampler and detaches from the engine. Idempotent. */
  close(): void {
    this.flow.dispose();
    this.sampler.stop();
    this.settlement.close();
    this.heartbeats.close();
    if (this.detach !== null) {
      this.detach();
      this.detach = null;
    }
    this.started = false;
  }

  // ---- lookups ---------------------------------------------------------------------------

  token(tokenId: string): TokenRef | undefined {
    return this.world.token(tokenId);
  }

  market(conditionId: string): MarketRec | undefined {
    return this.world.marketByCondition(conditionId);
  }

  // ---- accounts --------------------------------------------------------------------------

  /** Engine account id of a wallet. */
  static ownerOf(address: string): string {
    return address.toLowerCase();
  }

  /** Deposits collateral into a wallet's account. */
  fund(address: string, amount: Micros): void {
    const owner = Venue.ownerOf(address);
    this.engine.deposit(owner, amount);
    this.portfolioAccounts.add(owner);
  }

  balances(address: string): AccountBalances {
    return this.engine.balances(Venue.ownerOf(address));
  }

  // ---- orders ----------------------------------------------------------------------------

  place(req: PlaceRequest): SubmitResult {
    const input: OrderInput = {
      id: req.id,
      owner: req.owner,
      tokenId: req.tokenId,
      side: req.side,
      price: req.price,
      size: req.size,
      orderType: req.orderType,
      postOnly: req.postOnly,
      ...(req.expirationSec === null ? {} : { expirationSec: req.expirationSec }),
    };
    const r = this.engine.submit(input);
    if (r.ok) this.orders.add(req.id, { maker: req.maker, apiKey: req.apiKey, owner: req.owner });
    return r;
  }

  /** Cancels an order of `owner` (another owner's order is "not found"). */
  cancel(orderId: string, owner: string): CancelResult {
    return this.engine.cancel(orderId, owner);
  }

  order(orderId: string): OrderView | undefined {
    const record = this.engine.getOrder(orderId);
    if (record === undefined) return undefined;
    const market = this.world.marketByCondition(record.conditionId);
    if (market === undefined) return undefined;
    return { record, meta: this.orders.get(orderId), market };
  }

  /**
   * Orders of an engine account, oldest first: those placed through the venue (any status still
   * on record), then resting orders placed directly on the engine (the synthetic traders').
   */
  ordersOf(owner: string, status?: OrderStatus): OrderView[] {
    const out: OrderView[] = [];
    const seen = new Set<string>();
    for (const id of this.orders.idsOf(owner)) {
      seen.add(id);
      const v = this.order(id);
      if (v !== undefined && (status === undefined || v.record.status === status)) out.push(v);
    }
    if (status === undefined || status === 'LIVE') {
      for (const record of this.engine.openOrders(owner)) {
        if (seen.has(record.id)) continue;
        const market = this.world.marketByCondition(record.conditionId);
        if (market !== undefined) out.push({ record, meta: undefined, market });
      }
    }
    return out;
  }

  /** What the venue remembers of an order placed through it (kept after the engine drops its record). */
  orderMeta(orderId: string): OrderMeta | undefined {
    return this.orders.get(orderId);
  }

  /** The resting orders of an engine account, oldest first, optionally of one market or token. */
  liveOrders(owner: string, filter: { conditionId?: string; tokenId?: string } = {}): OrderView[] {
    const out: OrderView[] = [];
    for (const record of this.engine.openOrders(owner, filter)) {
      const market = this.world.marketByCondition(record.conditionId);
      if (market !== undefined) out.push({ record, meta: this.orders.get(record.id), market });
    }
    return out;
  }

  // ---- market lifecycle --------------------------------------------------------------------

  private need(conditionId: string): MarketRec {
    const m = this.world.marketByCondition(conditionId);
    if (m === undefined) throw new WorldError('WORLD_UNKNOWN_MARKET', `unknown market ${conditionId}`);
    return m;
  }

  /** Changes a market's tick (world validates it is a tick in use, then the engine applies it). */
  setTick(conditionId: string, tick: Price): void {
    const m = this.need(conditionId);
    this.world.setTick(m.conditionId, tick, this.clock.now());
    this.engine.setTick(m.conditionId, tick);
  }

  /** Resolves a market: resting orders cancelled (CANCELED_MARKET_RESOLVED), winner fixed, closed. */
  resolve(conditionId: string, winner: OutcomeIndex): void {
    const m = this.need(conditionId);
    if (winner !== 0 && winner !== 1) throw new WorldError('WORLD_BAD_OUTCOME', `bad outcome index: ${String(winner)}`);
    if (m.state.winner !== null)
      throw new WorldError('WORLD_ALREADY_RESOLVED', `market ${conditionId} is already resolved`);
    this.engine.resolve(m.conditionId, m.tokenIds[winner]);
    this.world.resolve(m.conditionId, winner, this.clock.now());
    this.flow.marketClosed(m.conditionId);
  }

  // ---- diagnostics -------------------------------------------------------------------------

  stats(): { orders: number; apiKeys: number; fills: FillStats; samples: number } {
    return {
      orders: this.orders.size,
      apiKeys: this.keys.size,
      fills: { ...this.fills.stats },
      samples: this.sampler.samples,
    };
  }
}
