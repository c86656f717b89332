// The order manager's test harness: the one fake venue (test/support/fake-venue.ts) behind the real
// rate limiter, a real ledger in memory, a real signer (a signing pool with one worker unless a test
// gives an in-thread one) and an OrderManager wired to them, all on one VirtualClock; and `drive`,
// which runs a promise on the VirtualClock firing timers only when nothing else can move. Keys,
// salts and jitter are seeded: a run repeats exactly.
import { VirtualClock } from '../../src/core/clock.js';
import type { Price, Shares } from '../../src/core/money.js';
import type { Side } from '../../src/core/order.js';
import type { DesiredQuote } from '../../src/core/quote.js';
import { mulberry32 } from '../../src/core/random.js';
import { DIALECTS } from '../../src/exchange/dialect.js';
import { OrderSigner, SigningPool } from '../../src/exchange/signing/index.js';
import type { SignedOrder, UnsignedOrder } from '../../src/exchange/signing/index.js';
import type { FillEvent } from '../../src/execution/fill-tracker.js';
import { OrderManager, type BatchSigner, type OrderManagerOptions } from '../../src/execution/order-manager.js';
import type { ApplyReport, MarketInfo, OrderManagerConfig } from '../../src/execution/order-manager-types.js';
import { reconcile, type ReconcileOptions } from '../../src/execution/reconcile.js';
import { Ledger } from '../../src/ledger/index.js';
import { MemoryRateLimiter } from '../../src/ratelimit/index.js';
import type { RateLimitConfigInput } from '../../src/ratelimit/index.js';
import { FakeVenue, LifecycleFakeVenue, type FakeVenueOptions } from '../support/fake-venue.js';
import { seededKey } from '../support/keys.js';

export {
  FakeVenue,
  LifecycleFakeVenue,
  httpError,
  timeout,
  type Fault,
  type Op,
  type VenueCall,
  type VenueOrder,
} from '../support/fake-venue.js';

export const T0 = Date.UTC(2026, 5, 12, 12, 0, 0);
export const TOKEN_A = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
export const TOKEN_B = '52114319501245915516055106046884209969926127482827954674443846427813813222426';
export const CONDITION = `0x${'5e'.repeat(32)}`;
export const API_KEY = '8c2b1f7e-3d4a-4b6c-9e8f-1a2b3c4d5e6f';
/** Tick 0.01, maker 100 bps, taker 200 bps. */
export const MARKET: MarketInfo = Object.freeze({
  conditionId: CONDITION,
  tickSize: 10_000 as Price,
  negRisk: false,
  makerBaseFeeBps: 100,
  takerBaseFeeBps: 200,
});
export const MARKETS: ReadonlyMap<string, MarketInfo> = new Map([
  [TOKEN_A, MARKET],
  [TOKEN_B, MARKET],
]);

/** A quote: price and size in plain units (0.42, 10 shares). */
export function q(tokenId: string, side: Side, price: number, size: number, tag?: string): DesiredQuote {
  return {
    tokenId,
    side,
    price: Math.round(price * 1e6) as Price,
    size: Math.round(size * 1e6) as Shares,
    ...(tag !== undefined ? { tag } : {}),
  };
}

/** An in-thread signer with the pool's batch interface (fast for property runs). */
export function inlineSigner(key: string): BatchSigner {
  const s = new OrderSigner(key, DIALECTS.spec);
  return {
    address: s.address,
    signBatch: (os: readonly UnsignedOrder[]): Promise<SignedOrder[]> => Promise.resolve(os.map((o) => s.sign(o))),
  };
}

export interface Harness {
  readonly clock: VirtualClock;
  readonly ledger: Ledger;
  readonly venue: FakeVenue;
  readonly limiter: MemoryRateLimiter;
  readonly om: OrderManager;
  readonly fills: FillEvent[];
  /** reconcile(desired, om.liveOrders()) then om.apply(plan, MARKETS). */
  cycle(desired: readonly DesiredQuote[], opts?: ReconcileOptions): Promise<ApplyReport>;
  /** A second manager on the same ledger and venue (a restarted daemon). */
  restart(config?: Partial<OrderManagerConfig>): OrderManager;
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly config?: Partial<OrderManagerConfig>;
  readonly limiter?: RateLimitConfigInput;
  readonly venue?: Omit<FakeVenueOptions, 'limiter'> & {
    /** The public exchange's account routes too (batch cancel, open-order listing): a LifecycleFakeVenue. */
    readonly lifecycle?: boolean;
  };
  /** Default: a fresh SigningPool with one worker (closed by close()). */
  readonly signer?: BatchSigner;
  readonly manager?: Partial<OrderManagerOptions>;
}

export function setup(h: HarnessOptions = {}): Harness {
  const clock = new VirtualClock(T0);
  const ledger = Ledger.open(':memory:', { clock, synchronous: 'NORMAL' });
  const limiter = new MemoryRateLimiter({ clock, config: h.limiter ?? {} });
  const venueOpts = { limiter, ...h.venue };
  const venue =
    h.venue?.lifecycle === true
      ? new LifecycleFakeVenue(clock, DIALECTS.spec, venueOpts)
      : new FakeVenue(clock, DIALECTS.spec, venueOpts);
  const key = seededKey('order-manager harness');
  const pool = h.signer === undefined ? new SigningPool({ privateKey: key, dialect: DIALECTS.spec, workers: 1 }) : null;
  const signer: BatchSigner = h.signer ?? (pool as SigningPool);
  const fills: FillEvent[] = [];
  const managers: OrderManager[] = [];
  const make = (config: Partial<OrderManagerConfig> | undefined): OrderManager => {
    const om = new OrderManager({
      clock,
      gateway: venue,
      ledger,
      signer,
      dialect: DIALECTS.spec,
      owner: API_KEY,
      limiter,
      onFill: (f) => fills.push(f),
      random: seeded(7 + managers.length),
      // No back-off unless a test asks for one (the back-off has tests of its own).
      config: { backoff: { baseDelayMs: 0 }, ...config },
      ...h.manager,
    });
    managers.push(om);
    return om;
  };
  const om = make(h.config);
  return {
    clock,
    ledger,
    venue,
    limiter,
    om,
    fills,
    cycle: (desired, opts) => om.apply(reconcile(desired, om.liveOrders(), opts), MARKETS),
    restart: (config) => make(config ?? h.config),
    close: async () => {
      for (const m of managers) await m.close();
      await limiter.close();
      await pool?.close();
      ledger.close();
    },
  };
}

/** Deterministic salts and jitter (mulberry32). */
export const seeded = mulberry32;

/**
 * Awaits `p` on the VirtualClock: lets every pending continuation and real I/O (signing workers)
 * run first (macrotask turns), and only when nothing else moves fires the next timer. Unlike a
 * driver that fires timers between microtask turns, a deadline never fires while work that
 * takes no virtual time is still under way.
 */
export async function drive<T>(clock: VirtualClock, p: Promise<T>): Promise<T> {
  let done = false;
  p.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  for (;;) {
    for (let i = 0; i < 5 && !done; i++) await new Promise<void>((r) => setImmediate(r));
    if (done) return p;
    const at = clock.nextTimerAt();
    if (at !== null) await clock.advanceAsync(Math.max(0, at - clock.now()));
  }
}
