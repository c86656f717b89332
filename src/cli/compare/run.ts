// One strategy on one seeded synthetic world, in the sandbox, on a virtual clock: the simulator's
// Venue (world, matching engine, synthetic flow) in-process behind a VenueGateway
// (src/sim/venue/gateway.ts), and the daemon's own parts (Daemon: universe, poller, book cache,
// strategy runner, risk, reconcile; the real OrderManager with a real signer; an in-memory Ledger),
// built by createDaemon as every run mode builds them, driven by advancing the clock. Invariants:
// - deterministic: the same options give the same result (seeded world and flow, seeded salts, a
//   virtual clock, no network, no worker threads);
// - every strategy of a comparison sees the same world, the same markets (chosen after the
//   warm-up, before any of our orders exist) and the same flow seed; from its first order on, the
//   flow reacts to it, as a real market would;
// - results come from the ledger (fills, positions, PnL net of fees) and the venue (marks, the
//   flow's latent probability), read before the daemon stops and cancels everything;
// - the reward score is sampled each minute of clock time, as the exchange does (docs/protocol.md §6),
//   from our resting orders in the engine and the engine's book.
import type { Book, Level } from '../../core/book.js';
import { VirtualClock } from '../../core/clock.js';
import type { Rewards } from '../../core/market.js';
import { fromFloat, SCALE, type Micros, type Price, type Shares } from '../../core/money.js';
import { markToMarket } from '../../core/pnl-mark.js';
import { validateConfig } from '../../config/load.js';
import { DIALECTS } from '../../exchange/dialect.js';
import { OrderSigner, type SignedOrder, type UnsignedOrder } from '../../exchange/signing/index.js';
import { Ledger } from '../../ledger/index.js';
import { ClockRefreshScheduler } from '../../marketdata/refresh-scheduler.js';
import { createDaemon } from '../../runtime/create-daemon.js';
import { createLogger } from '../../runtime/logger.js';
import type { FlowIntensity } from '../../sim/flow/index.js';
import { VenueGateway } from '../../sim/venue/gateway.js';
import { Venue } from '../../sim/venue/index.js';
import type { StrategyModule } from '../../strategy/define.js';
import { bookScore, rewardScore, rewardShare, sizeCutoffMid, type ScoredOrder } from '../../strategy/rewards-score.js';
import { mulberry32 as seeded } from '../../core/random.js';

export interface CompareOptions {
  readonly seed: number;
  /** Markets of the generated world. */
  readonly worldMarkets: number;
  /** Markets quoted (chosen from the world, see chooseMarkets). */
  readonly markets: number;
  readonly flow: FlowIntensity;
  /** Clock time the flow runs before the daemon starts, ms. */
  readonly warmupMs: number;
  /** Clock time the daemon runs, ms. */
  readonly durationMs: number;
  readonly pollMs: number;
  /** Epoch ms the clock starts at. */
  readonly startMs: number;
  /** Risk limits as in the config's `risk` section (decimal strings). */
  readonly risk?: Readonly<Record<string, string>>;
}

export const DEFAULT_COMPARE: CompareOptions = {
  seed: 42,
  worldMarkets: 80,
  markets: 8,
  flow: 'normal',
  warmupMs: 300_000,
  durationMs: 7_200_000,
  pollMs: 2_000,
  startMs: Date.UTC(2026, 0, 5, 12),
};

export interface StrategyResult {
  readonly strategy: string;
  readonly markets: number;
  readonly fills: number;
  /** Shares traded (both sides). */
  readonly volume: number;
  /** PnL (net of fees) with positions marked at the book's mid, collateral millionths; unmarked tokens left out. */
  readonly pnlMidMicros: Micros;
  /** PnL (net of fees) with positions marked at the flow's latent probability (the "true" value), millionths. */
  readonly pnlLatentMicros: Micros;
  readonly feesMicros: Micros;
  /** Tokens held at the end whose book has no mid: left out of PnL@mid, never marked at 0. */
  readonly unmarked: readonly string[];
  /** Σ over markets of |q(Yes) − q(No)|, shares, at the end. */
  readonly netInventory: number;
  /** Largest |net| of one market seen at a sample, shares. */
  readonly maxNetInventory: number;
  /** Σ over samples and markets of our Q_min (docs/protocol.md §6), share-minutes. */
  readonly rewardScore: number;
  /** Rewards this would have earned: Σ daily rate / 1440 × our share of Q_min, collateral units. */
  readonly rewardEstimate: number;
  readonly samples: number;
  /** Orders placed and cancelled, and cycle errors (rejections, failed cancels), from the ledger's cycle log. */
  readonly placed: number;
  readonly cancelled: number;
  readonly errors: number;
  /** Log lines at warn level or above. */
  readonly warnings: number;
}

/**
 * The markets quoted: open, accepting orders, paying rewards, with a two-sided book whose mid is
 * in [0.10, 0.90] after the warm-up, first in world order. Fewer when the world has fewer.
 */
export function chooseMarkets(venue: Venue, count: number): string[] {
  const out: string[] = [];
  for (const m of venue.world.markets) {
    if (out.length >= count) break;
    const s = m.state;
    if (s.closed || !s.active || !s.acceptingOrders || !s.enableOrderBook || m.rewards === null) continue;
    const mid = venue.engine.midpoint(m.tokenIds[0]);
    if (mid === null || mid === undefined || mid < 100_000 || mid > 900_000) continue;
    out.push(m.conditionId);
  }
  return out;
}

function asBook(
  levels: { bids: readonly Level[]; asks: readonly Level[] },
  market: string,
  assetId: string,
  atMs: number,
): Book {
  const conv = (ls: readonly Level[]): Level[] => ls.map((l) => ({ price: l.price, size: l.size }));
  return {
    market,
    assetId,
    timestampMs: atMs,
    hash: '',
    bids: conv(levels.bids),
    asks: conv(levels.asks),
    minOrderSize: null,
    tickSize: null,
    negRisk: null,
    lastTradePrice: null,
  };
}

/** Runs one strategy (with params) on a fresh copy of the world. */
export async function runStrategy(
  strategy: StrategyModule,
  params: Record<string, unknown>,
  o: CompareOptions,
): Promise<StrategyResult> {
  const clock = new VirtualClock(o.startMs);
  const dialect = DIALECTS.spec;
  const venue = new Venue({ clock, seed: o.seed, markets: o.worldMarkets, dialect, flow: o.flow });
  venue.start();
  clock.advance(o.warmupMs);
  const listed = chooseMarkets(venue, o.markets);
  const gateway = new VenueGateway(venue, dialect, listed);
  const owner = Venue.ownerOf(venue.account.address);

  const ledger = Ledger.open(':memory:', { clock, synchronous: 'NORMAL' });
  const signer = new OrderSigner(venue.account.privateKey, dialect);
  let warnings = 0;
  const logger = createLogger({
    clock,
    level: 'warn',
    pretty: false,
    base: null,
    destination: {
      write: () => {
        warnings++;
      },
    },
    secrets: [venue.account.privateKey, venue.account.credentials.secret, venue.account.credentials.passphrase],
  });
  const config = validateConfig({
    mode: 'sandbox',
    markets: { selector: { max: Math.max(1, listed.length) } },
    poll: {
      intervalMs: o.pollMs,
      maxBookAgeMs: Math.max(10_000, 3 * o.pollMs),
      orderLookupIntervalMs: o.pollMs,
      midHistory: 1_000,
    },
    strategy: { name: strategy.name, params },
    risk: {
      maxPositionShares: '500',
      maxMarketNotional: '500',
      maxTotalExposure: '2000',
      dailyLossLimit: '1000',
      capital: '5000',
      ...o.risk,
    },
    ledger: { path: ':memory:' },
    log: { level: 'warn' },
    health: { enabled: false },
  });
  // Wired as the run modes wire it (src/runtime/create-daemon.ts): the order manager's settings
  // from the config; no limiter (the in-process venue has no transport), no positions check.
  const { daemon } = createDaemon({
    config,
    clock,
    logger,
    gateway,
    ledger,
    strategy,
    owner: venue.account.credentials.apiKey,
    signer: {
      address: signer.address,
      signBatch: (os: readonly UnsignedOrder[]): Promise<SignedOrder[]> =>
        Promise.resolve(os.map((x) => signer.sign(x))),
    },
    random: seeded(o.seed),
    refreshScheduler: new ClockRefreshScheduler(clock, 600_000),
  });

  // Reward terms as the strategy sees them (parsed from the wire market record).
  const terms = new Map<string, { rewards: Rewards; yes: string; no: string }>();
  for await (const m of gateway.samplingMarkets()) {
    const yes = m.tokens[0]?.tokenId;
    const no = m.tokens[1]?.tokenId;
    if (yes !== undefined && yes !== null && no !== undefined && no !== null)
      terms.set(m.conditionId, { rewards: m.rewards, yes, no });
  }
  let rewardScoreSum = 0;
  let rewardEstimate = 0;
  let samples = 0;
  let maxNet = 0;
  const sample = (): void => {
    samples++;
    for (const [conditionId, t] of terms) {
      const r = t.rewards;
      const view = venue.engine.bookView(t.yes);
      if (view === undefined) continue;
      const mine: ScoredOrder[] = venue.engine.openOrders(owner, { conditionId }).map((x) => ({
        tokenId: x.tokenId,
        side: x.side,
        price: x.price,
        size: x.originalSize - x.sizeMatched,
      }));
      const book = asBook(view, conditionId, t.yes, clock.now());
      const pos = netOf(ledger, t.yes, t.no);
      maxNet = Math.max(maxNet, Math.abs(pos));
      if (r.maxSpread <= 0 || r.dailyRate <= 0) continue;
      const mid = sizeCutoffMid(book, r.minSize) ?? venue.engine.midpoint(t.yes) ?? null;
      if (mid === null) continue;
      const ours = rewardScore(mine, t.yes, t.no, mid, r).qMin;
      const others = bookScore(withoutOrders(book, mine, t.yes), mid, r).qMin;
      rewardScoreSum += ours;
      rewardEstimate += (r.dailyRate / SCALE / 1_440) * rewardShare(ours, others);
    }
  };

  await daemon.start();
  const sampler = clock.setInterval(sample, 60_000);
  await clock.advanceAsync(o.durationMs);
  clock.clearInterval(sampler);

  // Results, before stop() cancels everything and closes the ledger.
  const fills = ledger.fills(0, 1_000_000);
  let volume = 0;
  for (const f of fills) volume += f.size;
  // PnL in exact micros through the core's one mark to market (core/pnl-mark.ts). A held token
  // whose book has no mid now is not marked at 0 (nor at an older mid): it is left out of PnL@mid
  // and listed in `unmarked`. PnL@latent marks it at the flow's latent probability (the flow
  // models every world market), its mid when the flow has none, else leaves it out too.
  const positions = ledger.positions();
  const midOf = (tokenId: string): Price | null => venue.engine.midpoint(tokenId) ?? null;
  const latentOf = (tokenId: string): Price | null => {
    const ref = venue.token(tokenId);
    const latent = ref === undefined ? null : venue.flow.latent(ref.market.conditionId);
    if (ref === undefined || latent === null) return midOf(tokenId);
    const yes = fromFloat(latent, 'half-even');
    return (ref.outcomeIndex === 0 ? yes : SCALE - yes) as Price;
  };
  const atMid = markToMarket(positions, midOf);
  const atLatent = markToMarket(positions, latentOf);
  let netInventory = 0;
  for (const t of terms.values()) netInventory += Math.abs(netOf(ledger, t.yes, t.no));
  const counts = cycleCounts(ledger);

  let stopped = false;
  const stopping = daemon.stop().then((r) => {
    stopped = true;
    return r;
  });
  await clock.runUntil(() => stopped, 60_000);
  await stopping;
  venue.close();

  return {
    strategy: strategy.name,
    markets: listed.length,
    fills: fills.length,
    volume: volume / SCALE,
    pnlMidMicros: atMid.total,
    pnlLatentMicros: atLatent.total,
    feesMicros: atMid.fees,
    unmarked: atMid.unmarked.map((p) => p.tokenId),
    netInventory: netInventory / SCALE,
    maxNetInventory: maxNet / SCALE,
    rewardScore: rewardScoreSum,
    rewardEstimate,
    samples,
    ...counts,
    warnings,
  };
}

/** Net position of a pair in the ledger, share millionths: q(Yes) − q(No). */
function netOf(ledger: Ledger, yes: string, no: string): number {
  return (ledger.position(yes)?.size ?? 0) - (ledger.position(no)?.size ?? 0);
}

/** The Yes book without our own orders (ours on No mirrored). */
function withoutOrders(book: Book, mine: readonly ScoredOrder[], yes: string): Book {
  const take = new Map<string, number>();
  for (const o of mine) {
    const bid = (o.tokenId === yes) === (o.side === 'BUY');
    const price = o.tokenId === yes ? o.price : SCALE - o.price;
    const k = `${bid ? 'b' : 'a'}${price}`;
    take.set(k, (take.get(k) ?? 0) + o.size);
  }
  const less = (ls: readonly Level[], tag: string): Level[] =>
    ls
      .map((l) => ({ price: l.price, size: (l.size - (take.get(`${tag}${l.price}`) ?? 0)) as Shares }))
      .filter((l) => l.size > 0);
  return { ...book, bids: less(book.bids, 'b'), asks: less(book.asks, 'a') };
}

/** Σ over the ledger's cycle log (raw rows: a run is far shorter than their retention). */
function cycleCounts(ledger: Ledger): { placed: number; cancelled: number; errors: number } {
  let placed = 0;
  let cancelled = 0;
  let errors = 0;
  for (const c of ledger.recentCycles(10_000_000)) {
    placed += c.placed;
    cancelled += c.cancelled;
    errors += c.errors;
  }
  return { placed, cancelled, errors };
}
