// runBacktest: replays a recording on a VirtualClock through the daemon's own code. What runs is
// what paper mode runs, with the recording as the exchange's market data:
//   recording events → RecordedMarketData (books as of the virtual time, mids from books, market
//   settings from SETTINGS records) → PaperGateway/PaperVenue (kind 'backtest', fill model
//   `cross`/`queue`/`queue-probabilistic`) ← LatentGateway (rate limiter + order-entry latency in
//   virtual time) ← the real OrderManager (orders get their real ids but no ECDSA signature:
//   signer.ts; the key is derived from the seed) ← the
//   real Daemon (universe, poller at config.poll.intervalMs, strategy, risk, reconcile, ledger), both
//   wired by createDaemon (src/runtime/create-daemon.ts) as every run mode wires them.
// Every recorded book update is fed to the venue when it happens (so fills follow the recorded
// market between polls); the daemon sees books only when it polls, as in paper mode, or, with
// cadence `update`, after every recorded book update of its universe: the daemon's push feed
// then runs one cycle on the books as of that update (all universe tokens, as a poll would
// answer), with no poll timer, gateway round trip or interval in between.
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
// - a RESOLVED record settles its market (resolution.ts): the venue cancels and refuses its orders,
//   the ledger pays 1 to the winner and 0 to the loser, its later books are neither fed nor served,
//   and its tokens' marks become their payouts.
// drain() waits one macrotask turn (setImmediate): all promise continuations queued by a timer run
// before it. It is not a timer of the simulated world and never advances or reads time.
import { createHash } from 'node:crypto';
import type { Book } from '../core/book.js';
import { VirtualClock } from '../core/clock.js';
import type { Price } from '../core/money.js';
import { mulberry32 } from '../core/random.js';
import { dialectOfConfig } from '../config/dialect.js';
import type { Config } from '../config/schema.js';
import type { OrderManager } from '../execution/order-manager.js';
import { Ledger } from '../ledger/index.js';
import type { LedgerFill } from '../ledger/types.js';
import { RecordingReader, type RecordingEvent, type TradeEvent } from '../marketdata/recording/reader.js';
import { ClockRefreshScheduler } from '../marketdata/refresh-scheduler.js';
import { createRateLimiter, type RateLimiter } from '../ratelimit/index.js';
import type { CycleReport } from '../runtime/cycle.js';
import { createDaemon } from '../runtime/create-daemon.js';
import type { Daemon, DaemonLedger } from '../runtime/daemon.js';
import { capitalFromConfig, rateLimitFromConfig } from '../runtime/limits.js';
import { createLogger } from '../runtime/logger.js';
import {
  PaperError,
  PaperGateway,
  PaperVenue,
  paperMarketFromSettings,
  type FillModel,
  type PaperFill,
} from '../sim/paper/index.js';
import { QueueFillModel, restingFromVenue } from './fill-queue.js';
import { LatentGateway, latencySampler } from './latency.js';
import { bookMid, RecordedMarketData } from './market-data.js';
import { digestOnlySigner } from './signer.js';
import { BacktestResolutions } from './resolution.js';
import type { BacktestFill, BacktestOptions, BacktestOrder, BacktestResult, EquitySample } from './types.js';
import { BacktestError } from './errors.js';

const UNIVERSE_REFRESH_MS = 3_600_000;

/** Lets every queued promise continuation run (one macrotask turn; see the header). */
function drain(): Promise<void> {
  return new Promise((resolve) => {
    setImmediate(resolve);
  });
}

/**
 * Whether everything started in the simulated world has run: false after any step that may have
 * left promise work waiting for a macrotask turn (a timer fired, a settle that needed a drain).
 * A quiet step (a cycle that finished within microtasks, an event applied synchronously) leaves it
 * as it was, so the next event skips a macrotask turn it does not need.
 */
interface Quiet {
  settled: boolean;
}

/** Fires the clock's timers in order up to `t` (inclusive), settling promises after each. */
async function runTimersUntil(clock: VirtualClock, t: number, q: Quiet): Promise<void> {
  if (!q.settled) await drain();
  q.settled = true;
  for (;;) {
    const next = clock.nextTimerAt();
    if (next === null || next > t) break;
    clock.advanceTo(next);
    await drain();
  }
  clock.advanceTo(t);
}

/** Microtask turns tried before a macrotask drain: a cycle with nothing to send settles in a few. */
const QUICK_TURNS = 8;

/** Awaits `p`, firing timers in time order while it waits (it may sleep on the clock). */
async function settle<T>(clock: VirtualClock, p: Promise<T>, q: Quiet): Promise<T> {
  let done = false;
  const watched = p.finally(() => {
    done = true;
  });
  // A failure still reaches the caller (watched is returned); this only keeps it handled meanwhile.
  watched.catch(() => undefined);
  // Most pushed cycles finish within microtasks (no request, no timer): skip the macrotask turn.
  for (let i = 0; i < QUICK_TURNS && !done; i++) await undefined;
  if (done) return watched;
  q.settled = false;
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

/**
 * The ledger as the daemon sees it. Its stop() must not close what the engine still reads, and a
 * backtest keeps no cycle log (one row per cycle, for operators; the report has its own series).
 * Plain delegation, not a Proxy: these run on every cycle.
 */
function backtestLedgerView(ledger: Ledger): DaemonLedger {
  return {
    positions: (opts) => ledger.positions(opts),
    dailyPnl: (mids) => ledger.dailyPnl(mids),
    recordCycle: () => undefined,
    fills: (afterSeq, limit) => ledger.fills(afterSeq, limit),
    pnlSnapshot: (mids) => ledger.pnlSnapshot(mids),
    openOrders: () => ledger.openOrders(),
    close: () => undefined,
  };
}

/** The last [t, mid] at or before t in a time-ordered series, else null. */
function midAt(series: ReadonlyArray<readonly [number, number]> | undefined, t: number): number | null {
  if (series === undefined || series.length === 0) return null;
  let lo = 0;
  let hi = series.length - 1;
  if ((series[0] as readonly [number, number])[0] > t) return null;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((series[mid] as readonly [number, number])[0] <= t) lo = mid;
    else hi = mid - 1;
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
  const cadence = opts.cadence ?? 'poll';
  const md = new RecordedMarketData(opts.defaults ?? {});
  const recordMids = opts.recordMids ?? true;
  const mids = new Map<string, Array<readonly [number, number]>>();
  const lastMid = new Map<string, number | null>();
  const equity: EquitySample[] = [];
  const capital = capitalFromConfig(opts.config);
  // The venue charges fills by the fee fields the dialect's exchange charges by, as the ledger books them.
  const feeSchedule = dialectOfConfig(opts.config).fees;
  let events = 0;
  let bookUpdates = 0;
  let cycles = 0;
  let startMs = 0;
  let endMs = 0;
  let rt: Running | null = null;
  let config: Readonly<Config> = opts.config;
  const resolutions = new BacktestResolutions();
  // What the daemon is served (polled or pushed): the recording less the resolved markets.
  const served = resolutions.marketData(md);

  const noteMid = (tokenId: string, t: number, m: number | null): void => {
    if (lastMid.get(tokenId) === m) return;
    lastMid.set(tokenId, m);
    if (m === null) return;
    let s = mids.get(tokenId);
    if (s === undefined) {
      s = [];
      mids.set(tokenId, s);
    }
    s.push([t, m]);
  };

  // Cadence `update` cycles on every update: a cycle that changed nothing the equity sample shows
  // (no fill, no order placed or cancelled, the same quote and order counts, the same marks of
  // what is held) adds no sample; the previous one holds, so every time-weighted figure is as if
  // it had been taken (the count-weighted quote uptime counts distinct states instead of cycles).
  let sampleMarks: ReadonlyMap<string, number | null> | null = null;
  const unchangedSince = (r: CycleReport): boolean => {
    const last = equity.at(-1);
    if (last === undefined || sampleMarks === null) return false;
    if (
      r.fills !== 0 ||
      r.placed !== 0 ||
      r.cancelled !== 0 ||
      r.quotes !== last.quotes ||
      r.openOrders !== last.openOrders
    )
      return false;
    for (const [token, mark] of sampleMarks) if ((lastMid.get(token) ?? null) !== mark) return false;
    return true;
  };

  const feed = (book: Book, t: number): void => {
    // A resolved market's book is no market any more: its marks stay at the payouts.
    if (resolutions.isTokenResolved(book.assetId)) return;
    md.applyBook(book);
    noteMid(book.assetId, t, bookMid(book));
    if (rt === null) return;
    const venue = rt.venue;
    if (!venue.hasMarket(book.market)) {
      const s = md.settingsOf(book.market);
      if (s === null) return;
      try {
        venue.addMarket(paperMarketFromSettings(s, feeSchedule));
      } catch (e) {
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
    if (!explicit)
      config = {
        ...config,
        markets: { ...config.markets, conditions: md.conditionIds().filter((c) => !resolutions.isResolved(c)) },
      };
    let model: FillModel | 'cross' = 'cross';
    let queue: QueueFillModel | null = null;
    if (fillModelName !== 'cross') {
      queue = new QueueFillModel(
        fillModelName === 'queue'
          ? {}
          : { tradeProbability: opts.queueTradeProbability ?? 0.5, random: mulberry32(seed ^ 0x51ed270b) },
      );
      model = queue;
    }
    const venue = new PaperVenue({ clock, capital, fillModel: model, retainFinishedMs: Number.POSITIVE_INFINITY });
    queue?.attach(restingFromVenue(venue));
    const venueFills: PaperFill[] = [];
    venue.onFill((f) => {
      venueFills.push(f);
    });
    const dialect = dialectOfConfig(config);
    const paper = new PaperGateway({
      marketData: served,
      venue,
      dialect,
      clock,
      kind: 'backtest',
      closeMarketData: false,
    });
    const limiter = await createRateLimiter({
      clock,
      config: { ...rateLimitFromConfig(config), backend: { kind: 'memory' } },
    });
    const placedIds: string[] = [];
    const latent = new LatentGateway(
      paper,
      clock,
      latencySampler(opts.latency, mulberry32(seed ^ 0x1a7e9c3d)),
      limiter,
    );
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
    const logger = createLogger({
      clock,
      pretty: false,
      base: null,
      level: opts.logLevel ?? 'error',
      destination: { write: () => undefined },
    });
    // Wired as the run modes wire it (create-daemon.ts); no address: no positions check.
    const { daemon, manager } = createDaemon({
      config,
      clock,
      logger,
      gateway,
      ledger,
      daemonLedger: backtestLedgerView(ledger),
      ...(opts.strategy !== undefined ? { strategy: opts.strategy } : {}),
      signer: digestOnlySigner(seededKey(seed), config),
      owner: 'backtest',
      limiter,
      random: mulberry32(seed ^ 0x5a17),
      feed: cadence === 'update' ? 'push' : 'poll',
      refreshScheduler: new ClockRefreshScheduler(clock, UNIVERSE_REFRESH_MS),
      hooks: {
        onCycle: (r) => {
          cycles++;
          if (cadence === 'update' && unchangedSince(r)) return;
          const positions = ledger.positions({ openOnly: true });
          const marks = new Map<string, Price>();
          for (const p of positions) {
            const m = lastMid.get(p.tokenId);
            if (m !== undefined && m !== null) marks.set(p.tokenId, m as Price);
          }
          const mtm = ledger.markToMarket(marks);
          equity.push({
            t: clock.now(),
            equity: capital + mtm.total,
            pnl: mtm.total,
            realized: mtm.realized,
            unrealized: mtm.unrealized,
            fees: mtm.fees,
            inventory: positions
              .map((p) => [p.tokenId, p.size] as const)
              .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
            quotes: r.quotes,
            openOrders: r.openOrders,
          });
          sampleMarks = new Map(positions.map((p) => [p.tokenId, lastMid.get(p.tokenId) ?? null] as const));
        },
      },
    });
    return { clock, venue, gateway: latent, limiter, ledger, manager, daemon, placedIds, venueFills };
  };

  const source: AsyncIterable<RecordingEvent> | Iterable<RecordingEvent> =
    typeof opts.recording === 'string' ? RecordingReader.fromFile(opts.recording) : opts.recording;

  // A recorded public trade goes to the venue's fill model at its local time (fill-model.ts,
  // fill-queue.ts): it fills our resting orders it reaches; before the daemon runs, or for a
  // market the venue does not hold or that resolved, it is data only.
  const feedTrade = (ev: TradeEvent): void => {
    if (rt === null || resolutions.isTokenResolved(ev.tokenId)) return;
    rt.venue.applyTrade({
      tokenId: ev.tokenId,
      price: ev.price,
      size: ev.size,
      side: ev.side,
      timestampMs: ev.exchangeTs,
    });
  };

  const apply = (ev: RecordingEvent, t: number): void => {
    if (ev.kind === 'settings') md.applySettings(ev.settings);
    else if (ev.kind === 'book' || ev.kind === 'delta') {
      bookUpdates++;
      feed(ev.book(), t);
    } else if (ev.kind === 'trade') feedTrade(ev);
    else if (ev.kind === 'resolved') {
      for (const [token, mark] of resolutions.apply(ev, t, md, rt?.venue ?? null, rt?.ledger ?? null))
        noteMid(token, t, mark);
    }
    // MID records: the backtest's mids come from the books (the same rule for every recording).
  };

  const quiet: Quiet = { settled: false };
  // Cadence `update`: the universe's tokens (fixed by the recording's catalog) and the push.
  let universeTokens: ReadonlySet<string> | null = null;
  let universeList: string[] = [];
  let pushDue = false;
  const pushTokens = (r: Running): ReadonlySet<string> => {
    if (universeTokens === null) {
      universeList = r.daemon.status().markets.flatMap((m) => m.tokens);
      universeTokens = new Set(universeList);
    }
    return universeTokens;
  };
  const pushBooks = async (r: Running): Promise<void> => {
    const [books, mids] = await Promise.all([served.getBooks(universeList), served.getMidpoints(universeList)]);
    await settle(r.clock, r.daemon.push({ receivedAtMs: r.clock.now(), books, mids, complete: true }), quiet);
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
        await settle(rt.clock, rt.daemon.start(), quiet);
        continue;
      }
      // Updates stamped with one instant are one observation (a websocket message carries both
      // tokens' changes): the cycle runs once all of them are in.
      if (pushDue && t > rt.clock.now()) {
        pushDue = false;
        await pushBooks(rt);
      }
      await runTimersUntil(rt.clock, t, quiet);
      apply(ev, rt.clock.now());
      if (cadence === 'update' && (ev.kind === 'book' || ev.kind === 'delta') && pushTokens(rt).has(ev.tokenId))
        pushDue = true;
    }
    if (rt === null)
      throw new BacktestError(
        'BACKTEST_NOTHING_TO_REPLAY',
        'the recording holds no book of a market with two recorded tokens: nothing to replay',
      );
    const running: Running = rt;
    if (pushDue) await pushBooks(running);
    // One more poll interval, so the last books are seen by a cycle.
    endMs = running.clock.now() + config.poll.intervalMs;
    await runTimersUntil(running.clock, endMs, quiet);
    await settle(running.clock, running.daemon.stop(), quiet);
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
      if (l === undefined) {
        l = [];
        byOrder.set(v.orderId, l);
      }
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
        seq: f.seq,
        orderId: f.orderId,
        tokenId: f.tokenId,
        conditionId: f.conditionId,
        side: f.side,
        price: f.price,
        size: f.size,
        notional: f.notional,
        feeMicros: f.feeMicros,
        liquidity: f.liquidity,
        timeMs: f.timeMs,
        venueTimeMs,
        realizedDelta: f.realizedDelta,
        midAtFill: midAt(mids.get(f.tokenId), venueTimeMs),
      };
    });
    const orders: BacktestOrder[] = [];
    for (const id of [...new Set(r.placedIds)]) {
      const o = ledger.order(id);
      if (o === null) continue;
      orders.push({
        id: o.id,
        tokenId: o.tokenId,
        conditionId: o.conditionId,
        side: o.side,
        price: o.price,
        size: o.size,
        sizeMatched: o.sizeMatched,
        state: o.state,
        createdAtMs: o.createdAtMs,
        stateAtMs: o.stateAtMs,
      });
    }
    const marks = new Map<string, Price>();
    for (const [t, m] of lastMid) if (m !== null) marks.set(t, m as Price);
    const mtm = ledger.markToMarket(marks);
    const venueStats = r.venue.stats();
    const markets = config.markets.conditions.flatMap((cid) => {
      const s = md.settingsOf(cid);
      return s === null
        ? []
        : [
            {
              conditionId: cid,
              tokens: s.tokens.map((t) => t.tokenId),
              tickSize: s.tickSize,
              minOrderSize: s.minOrderSize,
              makerFeeBps: s.makerBaseFeeBps,
              takerFeeBps: s.takerBaseFeeBps,
            },
          ];
    });
    const midsOut: Record<string, ReadonlyArray<readonly [number, number]>> = {};
    if (recordMids)
      for (const t of [...mids.keys()].sort()) midsOut[t] = mids.get(t) as Array<readonly [number, number]>;
    return {
      version: 1,
      seed,
      fillModel: fillModelName,
      strategy: config.strategy.name,
      capital,
      startMs,
      endMs,
      events,
      bookUpdates,
      cycles,
      markets,
      fills,
      orders,
      pnl: {
        atMs: mtm.atMs,
        total: mtm.total,
        realized: mtm.realized,
        unrealized: mtm.unrealized,
        fees: mtm.fees,
        positions: mtm.positions.map((p) => ({
          tokenId: p.tokenId,
          conditionId: p.conditionId,
          size: p.size,
          cost: p.cost,
          mark: p.mark,
        })),
      },
      equity,
      mids: midsOut,
      venue: { booksFed: venueStats.booksFed, fills: venueStats.fills },
      resolutions: resolutions.collect(ledger),
      venueFills: r.venueFills.map((v) => ({
        tradeId: v.tradeId,
        orderId: v.orderId,
        tokenId: v.tokenId,
        side: v.side,
        price: v.price,
        size: v.size,
        feeMicros: v.feeMicros,
        liquidity: v.liquidity,
        timeMs: v.timeMs,
      })),
    };
  }
}
