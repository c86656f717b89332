// runBacktest: replays a recording on a VirtualClock through the daemon's own code. What runs is
// what paper mode runs, with the recording as the exchange's market data:
//   recording events → RecordedMarketData (books as of the virtual time, mids from books, market
//   settings from SETTINGS records) → PaperGateway/PaperVenue (kind 'backtest', fill model
//   `cross`/`queue`/`queue-probabilistic`) ← LatentGateway (rate limiter + order-entry latency in
//   virtual time) ← the real OrderManager (OrderSigner with a key derived from the seed) ← the
//   real Daemon (universe, poller at config.poll.intervalMs, strategy, risk, reconcile, ledger).
// Every recorded book update is fed to the venue when it happens (so fills follow the recorded
// market between polls); the daemon sees books only when it polls, as in paper mode.
// Invariants kept:
// - the clock never moves past an event before every timer due before it has fired and the
//   promises it started have settled (drain); an event is applied once the clock reaches its local
//   timestamp (never backwards), so a cycle sees exactly the events up to its own time;
// - determinism: no wall time, no unseeded randomness (key, salts, latency draws, queue draws all
//   come from `seed`), no real I/O after the recording is read; the result is plain data built in a
//   fixed order, so equal inputs give byte-identical JSON;
// - the daemon starts at the first event after which a book exists and some market has both its
//   tokens' settings; its universe is the recording's: when the config names no markets, every
//   market complete at that moment (markets completed later are replayed as data only); the ledger is ':memory:' with synchronous NORMAL
//   and stays open across the daemon's stop (which would close it) until the result is read.
// drain() waits one macrotask turn (setImmediate): all promise continuations queued by a timer run
// before it. It is not a timer of the simulated world and never advances or reads time.
import { createHash } from 'node:crypto';
import { VirtualClock } from '../core/clock.js';
import type { Price } from '../core/money.js';
import { mulberry32 } from '../core/random.js';
import type { Config } from '../config/schema.js';
import { dialectFromConfig } from '../exchange/dialect.js';
import { OrderSigner, type SignedOrder, type UnsignedOrder } from '../exchange/signing/index.js';
import { OrderManager, type BatchSigner } from '../execution/order-manager.js';
import { Ledger } from '../ledger/index.js';
import type { LedgerFill } from '../ledger/types.js';
import { RecordingReader, type RecordingEvent } from '../marketdata/recording/reader.js';
import { ClockRefreshScheduler } from '../marketdata/refresh-scheduler.js';
import { createRateLimiter, type RateLimiter } from '../ratelimit/index.js';
import { Daemon, type DaemonLedger } from '../runtime/daemon.js';
import { capitalFromConfig } from '../runtime/limits.js';
import { createLogger } from '../runtime/logger.js';
import type { Book } from '../core/book.js';
import { PaperError, PaperGateway, PaperVenue, paperMarketFromSettings, type FillModel, type PaperFill } from '../sim/paper/index.js';
import { QueueFillModel, restingFromVenue } from './fill-queue.js';
import { LatentGateway, latencySampler } from './latency.js';
import { bookMid, RecordedMarketData } from './market-data.js';
import type { BacktestFill, BacktestOptions, BacktestOrder, BacktestResult, EquitySample } from './types.js';

const UNIVERSE_REFRESH_MS = 3_600_000;

/** Lets every queued promise continuation run (one macrotask turn; see the header). */
function drain(): Promise<void> {
  return new Promise((resolve) => { setImmediate(resolve); });
}

/** Fires the clock's timers in order up to `t` (inclusive), settling promises after each. */
async function runTimersUntil(clock: VirtualClock, t: number): Promise<void> {
  await drain();
  for (;;) {
    const next = clock.nextTimerAt();
    if (next === null || next > t) break;
    clock.advanceTo(next);
    await drain();
  }
  clock.advanceTo(t);
}

/** Awaits `p`, firing timers in time order while it waits (it may sleep on the clock). */
async function settle<T>(clock: VirtualClock, p: Promise<T>): Promise<T> {
  let done = false;
  const watched = p.finally(() => { done = true; });
  watched.catch(() => undefined);
  await drain();
  while (!done) {
    const next = clock.nextTimerAt();
    if (next === null) break;
    clock.advanceTo(next);
    await drain();
  }
  return watched;
}

/** A secp256k1 key from the seed (never a real account: backtests sign for nobody). */
function seededKey(seed: number): string {
  return `0x${createHash('sha256').update(`oddsmaker-backtest-key:${seed}`).digest('hex')}`;
}

function inlineSigner(privateKey: string, config: Readonly<Config>): BatchSigner {
  const s = new OrderSigner(privateKey, dialectOf(config));
  return { address: s.address, signBatch: (os: readonly UnsignedOrder[]): Promise<SignedOrder[]> => Promise.resolve(os.map((o) => s.sign(o))) };
}

function dialectOf(config: Readonly<Config>): ReturnType<typeof dialectFromConfig> {
  const { chainId, verifyingContract, negRiskVerifyingContract } = config.exchange;
  return dialectFromConfig(config.exchange.dialect, {
    ...(chainId !== undefined ? { chainId } : {}),
    ...(verifyingContract !== undefined ? { verifyingContract } : {}),
    ...(negRiskVerifyingContract !== undefined ? { negRiskVerifyingContract } : {}),
  });
}

/** The ledger as the daemon sees it: its stop() must not close what the engine still reads. */
function keptOpen(ledger: Ledger): DaemonLedger {
  return new Proxy(ledger, {
    get(target, prop) {
      if (prop === 'close') return () => undefined;
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  }) as unknown as DaemonLedger;
}

/** The last [t, mid] at or before t in a time-ordered series, else null. */
function midAt(series: ReadonlyArray<readonly [number, number]> | undefined, t: number): number | null {
  if (series === undefined || series.length === 0) return null;
  let lo = 0;
  let hi = series.length - 1;
  if ((series[0] as readonly [number, number])[0] > t) return null;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((series[mid] as readonly [number, number])[0] <= t) lo = mid; else hi = mid - 1;
  }
  return (series[lo] as readonly [number, number])[1];
}

interface Running {
  readonly clock: VirtualClock;
  readonly venue: PaperVenue;
  readonly gateway: LatentGateway;
  readonly limiter: RateLimiter;
  readonly ledger: Ledger;
  readonly manager: OrderManager;
  readonly daemon: Daemon;
  readonly placedIds: string[];
  readonly venueFills: PaperFill[];
}

export async function runBacktest(opts: BacktestOptions): Promise<BacktestResult> {
  const seed = opts.seed >>> 0;
  const fillModelName = opts.fillModel ?? 'cross';
  const md = new RecordedMarketData(opts.defaults ?? {});
  const recordMids = opts.recordMids ?? true;
  const mids = new Map<string, Array<readonly [number, number]>>();
  const lastMid = new Map<string, number | null>();
  const equity: EquitySample[] = [];
  const capital = capitalFromConfig(opts.config);
  let events = 0;
  let bookUpdates = 0;
  let cycles = 0;
  let startMs = 0;
  let endMs = 0;
  let rt: Running | null = null;
  let config: Readonly<Config> = opts.config;

  const feed = (book: Book, t: number): void => {
    md.applyBook(book);
    const m = bookMid(book);
    if (lastMid.get(book.assetId) !== m) {
      lastMid.set(book.assetId, m);
      if (m !== null) {
        let s = mids.get(book.assetId);
        if (s === undefined) { s = []; mids.set(book.assetId, s); }
        s.push([t, m]);
      }
    }
    if (rt === null) return;
    const venue = rt.venue;
    if (!venue.hasMarket(book.market)) {
      const s = md.settingsOf(book.market);
      if (s === null) return;
      try { venue.addMarket(paperMarketFromSettings(s)); } catch (e) {
        if (e instanceof PaperError) return; // a market the venue cannot simulate: data only
        throw e;
      }
    }
    venue.applyBook(book);
  };

  const build = async (t: number): Promise<Running> => {
    const clock = new VirtualClock(t);
    md.clock = clock;
    const explicit = config.markets.conditions.length > 0 || config.markets.tokens.length > 0;
    if (!explicit) config = { ...config, markets: { ...config.markets, conditions: md.conditionIds() } };
    let model: FillModel | 'cross' = 'cross';
    let queue: QueueFillModel | null = null;
    if (fillModelName !== 'cross') {
      queue = new QueueFillModel(fillModelName === 'queue' ? {} : { tradeProbability: opts.queueTradeProbability ?? 0.5, random: mulberry32(seed ^ 0x51ed270b) });
      model = queue;
    }
    const venue = new PaperVenue({ clock, capital, fillModel: model, retainFinishedMs: Number.POSITIVE_INFINITY });
    queue?.attach(restingFromVenue(venue));
    const venueFills: PaperFill[] = [];
    venue.onFill((f) => { venueFills.push(f); });
    const dialect = dialectOf(config);
    const paper = new PaperGateway({ marketData: md, venue, dialect, clock, kind: 'backtest', closeMarketData: false });
    const limiter = await createRateLimiter({ clock, config: { ...config.rateLimit, backend: { kind: 'memory' } } });
    const placedIds: string[] = [];
    const latent = new LatentGateway(paper, clock, latencySampler(opts.latency, mulberry32(seed ^ 0x1a7e9c3d)), limiter);
    const gateway = new Proxy(latent, {
      get(target, prop) {
        if (prop === 'postOrders') {
          return async (...args: Parameters<LatentGateway['postOrders']>) => {
            const r = await target.postOrders(...args);
            for (const p of r) if (p.orderId !== null) placedIds.push(p.orderId);
            return r;
          };
        }
        const v: unknown = Reflect.get(target, prop, target);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const ledger = Ledger.open(':memory:', { clock, synchronous: 'NORMAL' });
    const logger = createLogger({ clock, pretty: false, base: null, level: opts.logLevel ?? 'error', destination: { write: () => undefined } });
    const manager = new OrderManager({
      clock, gateway, ledger, signer: inlineSigner(seededKey(seed), config), dialect, owner: 'backtest',
      signatureType: config.exchange.signatureType, limiter, random: mulberry32(seed ^ 0x5a17),
      config: { circuitBreakerFailures: config.orders.circuitBreakerFailures, shutdownTimeoutMs: config.orders.shutdownTimeoutMs },
      logger: logger.child({ component: 'orders' }), strategy: config.strategy.name,
    });
    const daemon = new Daemon({
      config, clock, logger, gateway, executor: manager, ledger: keptOpen(ledger),
      refreshScheduler: new ClockRefreshScheduler(clock, UNIVERSE_REFRESH_MS),
      onCycle: (r) => {
        cycles++;
        const positions = ledger.positions({ openOnly: true });
        const marks = new Map<string, Price>();
        for (const p of positions) { const m = lastMid.get(p.tokenId); if (m !== undefined && m !== null) marks.set(p.tokenId, m as Price); }
        const mtm = ledger.markToMarket(marks);
        equity.push({
          t: clock.now(), equity: capital + mtm.total, pnl: mtm.total, realized: mtm.realized, unrealized: mtm.unrealized, fees: mtm.fees,
          inventory: positions.map((p) => [p.tokenId, p.size] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
          quotes: r.quotes, openOrders: r.openOrders,
        });
      },
    });
    return { clock, venue, gateway: latent, limiter, ledger, manager, daemon, placedIds, venueFills };
  };

  const source: AsyncIterable<RecordingEvent> | Iterable<RecordingEvent> =
    typeof opts.recording === 'string' ? RecordingReader.fromFile(opts.recording) : opts.recording;

  const apply = (ev: RecordingEvent, t: number): void => {
    if (ev.kind === 'settings') md.applySettings(ev.settings);
    else if (ev.kind === 'book' || ev.kind === 'delta') { bookUpdates++; feed(ev.book(), t); }
    // MID records: the backtest's mids come from the books (the same rule for every recording).
  };

  try {
    for await (const ev of source) {
      events++;
      const t = ev.localTs;
      if (rt === null) {
        // The daemon starts once a book has been recorded and some market has both tokens' settings
        // (a stream recording may name a market's second token only at its first change).
        apply(ev, t);
        if (md.conditionIds().length === 0 || !md.hasBooks()) continue;
        startMs = t;
        rt = await build(t);
        await settle(rt.clock, rt.daemon.start());
        continue;
      }
      await runTimersUntil(rt.clock, t);
      apply(ev, rt.clock.now());
    }
    if (rt === null) throw new RangeError('the recording holds no book of a market with two recorded tokens: nothing to replay');
    const running: Running = rt;
    // One more poll interval, so the last books are seen by a cycle.
    endMs = running.clock.now() + config.poll.intervalMs;
    await runTimersUntil(running.clock, endMs);
    await settle(running.clock, running.daemon.stop());
    return collect(running);
  } finally {
    if (rt !== null) {
      await rt.limiter.close();
      await rt.gateway.close();
      if (rt.ledger.isOpen) rt.ledger.close();
    }
  }

  function collect(r: Running): BacktestResult {
    const ledger = r.ledger;
    const allFills: LedgerFill[] = [];
    for (let after = 0; ;) {
      const page = ledger.fills(after, 10_000);
      if (page.length === 0) break;
      allFills.push(...page);
      after = (page[page.length - 1] as LedgerFill).seq;
    }
    // Venue trade times by order, as cumulative sizes (a ledger fill may sum several trades).
    const byOrder = new Map<string, Array<{ cum: number; t: number }>>();
    for (const v of r.venueFills) {
      let l = byOrder.get(v.orderId);
      if (l === undefined) { l = []; byOrder.set(v.orderId, l); }
      l.push({ cum: (l.at(-1)?.cum ?? 0) + v.size, t: v.timeMs });
    }
    const ledgerCum = new Map<string, number>();
    const fills: BacktestFill[] = allFills.map((f) => {
      let venueTimeMs = f.timeMs;
      if (f.orderId !== null) {
        const cum = (ledgerCum.get(f.orderId) ?? 0) + f.size;
        ledgerCum.set(f.orderId, cum);
        const hit = byOrder.get(f.orderId)?.find((x) => x.cum >= cum);
        if (hit !== undefined) venueTimeMs = hit.t;
      }
      return {
        seq: f.seq, orderId: f.orderId, tokenId: f.tokenId, conditionId: f.conditionId, side: f.side, price: f.price, size: f.size,
        notional: f.notional, feeMicros: f.feeMicros, liquidity: f.liquidity, timeMs: f.timeMs, venueTimeMs, realizedDelta: f.realizedDelta,
        midAtFill: midAt(mids.get(f.tokenId), venueTimeMs),
      };
    });
    const orders: BacktestOrder[] = [];
    for (const id of [...new Set(r.placedIds)]) {
      const o = ledger.order(id);
      if (o === null) continue;
      orders.push({
        id: o.id, tokenId: o.tokenId, conditionId: o.conditionId, side: o.side, price: o.price, size: o.size, sizeMatched: o.sizeMatched,
        state: o.state, createdAtMs: o.createdAtMs, stateAtMs: o.stateAtMs,
      });
    }
    const marks = new Map<string, Price>();
    for (const [t, m] of lastMid) if (m !== null) marks.set(t, m as Price);
    const mtm = ledger.markToMarket(marks);
    const venueStats = r.venue.stats();
    const markets = config.markets.conditions.flatMap((cid) => {
      const s = md.settingsOf(cid);
      return s === null ? [] : [{
        conditionId: cid, tokens: s.tokens.map((t) => t.tokenId), tickSize: s.tickSize, minOrderSize: s.minOrderSize,
        makerFeeBps: s.makerBaseFeeBps, takerFeeBps: s.takerBaseFeeBps,
      }];
    });
    const midsOut: Record<string, ReadonlyArray<readonly [number, number]>> = {};
    if (recordMids) for (const t of [...mids.keys()].sort()) midsOut[t] = mids.get(t) as Array<readonly [number, number]>;
    return {
      version: 1, seed, fillModel: fillModelName, strategy: config.strategy.name, capital, startMs, endMs, events, bookUpdates, cycles, markets,
      fills, orders,
      pnl: {
        atMs: mtm.atMs, total: mtm.total, realized: mtm.realized, unrealized: mtm.unrealized, fees: mtm.fees,
        positions: mtm.positions.map((p) => ({ tokenId: p.tokenId, conditionId: p.conditionId, size: p.size, cost: p.cost, mark: p.mark })),
      },
      equity, mids: midsOut, venue: { booksFed: venueStats.booksFed, fills: venueStats.fills },
      venueFills: r.venueFills.map((v) => ({
        tradeId: v.tradeId, orderId: v.orderId, tokenId: v.tokenId, side: v.side, price: v.price, size: v.size, feeMicros: v.feeMicros, liquidity: v.liquidity, timeMs: v.timeMs,
      })),
    };
  }
}


