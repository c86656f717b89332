// runBacktest: replays a recording through the daemon's own decisions, synchronously, in virtual
// time (src/backtest/replay/: the loop, the executor of plans, the cycle driver, the session).
// What runs is what every mode runs: the cycle (src/runtime/cycle.ts: book cache, strategy, risk,
// reconcile) built from the config by cycle-parts.ts, and the order manager's decisions
// (src/execution/apply-decisions.ts), executed against the backtest venue with order-entry latency
// and the rate limiter's waits as events on the virtual clock. The recording is the exchange's
// market data: every recorded book (or delta) and trade reaches the venue at its local time (so
// fills follow the recorded market between polls); the daemon sees books when it polls
// (config.poll.intervalMs, cadence `poll`) or after every recorded update instant of its universe
// (cadence `update`: one cycle per instant, on the books as of it).
// Invariants kept:
// - the clock never moves past a record before every scheduled event due before it has fired; a
//   record is applied once the clock reaches its local timestamp (never backwards), so a cycle
//   sees exactly the records up to its own time;
// - determinism: no wall time, no unseeded randomness (key, salts, latency draws, queue draws all
//   come from `seed`), no real I/O after the recording is read; the result is plain data built in
//   a fixed order, so equal inputs give byte-identical JSON;
// - the daemon starts at the end of the first instant (records of one local time) after which a
//   book exists and some market has both its tokens' settings: records stamped with one instant
//   are one observation, as for a cycle, so a recorder's opening snapshot of many markets is
//   whole before the universe is taken; its universe is the config's markets, else every market
//   complete then;
// - the ledger is in memory (src/ledger/memory-ledger.ts: the SQLite ledger's interface and
//   results, written to a file only when `ledgerPath` asks);
// - a RESOLVED record settles its market (resolution.ts).
// A file is read by the synchronous cursor: the loop creates no promise per record. Records handed
// in as objects (an array, an async reader) go through the same loop body one by one.
import { createHash } from 'node:crypto';
import { VirtualClock } from '../core/clock.js';
import type { Price } from '../core/money.js';
import { mulberry32 } from '../core/random.js';
import { dialectOfConfig } from '../config/dialect.js';
import type { Config } from '../config/schema.js';
import type { MemoryLedger } from '../ledger/memory-ledger.js';
import type { LedgerFill } from '../ledger/types.js';
import type { CycleReport } from '../runtime/cycle.js';
import { capitalFromConfig } from '../runtime/limits.js';
import { createLogger } from '../runtime/logger.js';
import type { PaperFill } from '../sim/paper/index.js';
import { EquitySampler } from './equity-sampler.js';
import { BacktestError } from './errors.js';
import { latencySampler } from './latency.js';
import { RecordedMarketData } from './market-data.js';
import { openReplayLedger } from './replay/open-ledger.js';
import type { ReplayRecord } from './replay/records.js';
import { Replay, type Running } from './replay/replay.js';
import { startSession } from './replay/session.js';
import { openRecordSource } from './replay/source.js';
import { openReplayVenue } from './replay/open-venue.js';
import { BacktestResolutions } from './resolution.js';
import { sequenceIdSigner } from './signer.js';
import type {
  BacktestFill,
  BacktestOptions,
  BacktestOrder,
  BacktestProgress,
  BacktestResult,
  MidSeries,
} from './types.js';

/** A secp256k1 key from the seed (never a real account: backtests sign for nobody). */
function seededKey(seed: number): string {
  return `0x${createHash('sha256').update(`oddsmaker-backtest-key:${seed}`).digest('hex')}`;
}

/** The series' last mid at or before t, else null. */
function midAt(series: MidSeries | undefined, t: number): number | null {
  if (series === undefined || series.t.length === 0) return null;
  const ts = series.t;
  let lo = 0;
  let hi = ts.length - 1;
  if ((ts[0] as number) > t) return null;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((ts[mid] as number) <= t) lo = mid;
    else hi = mid - 1;
  }
  return series.mid[lo] as number;
}

export async function runBacktest(opts: BacktestOptions): Promise<BacktestResult> {
  const seed = opts.seed >>> 0;
  const fillModelName = opts.fillModel ?? 'cross';
  const cadence = opts.cadence ?? 'poll';
  const md = new RecordedMarketData(opts.defaults ?? {});
  const recordMids = opts.recordMids ?? true;
  const capital = capitalFromConfig(opts.config);
  // The venue charges fills by the fee fields the dialect's exchange charges by, as the ledger books them.
  const feeSchedule = dialectOfConfig(opts.config).fees;
  let cycles = 0;
  let config: Readonly<Config> = opts.config;
  const resolutions = new BacktestResolutions();
  const replay = new Replay({ md, resolutions, cadence, feeSchedule, recordMids });
  const placedIds: string[] = [];
  const venueFills: PaperFill[] = [];
  /** The token's mid when each venue fill happened (the report's midAtFill without a mid series). */
  const venueFillMids: Array<number | null> = [];
  const equity = replay.equity;
  const lastMid = replay.lastMid;
  let clockRef: VirtualClock | null = null;
  const run: { ledger: MemoryLedger | null } = { ledger: null };

  // Cadence `update` cycles on every update: a cycle that changed nothing the equity sample shows
  // (no fill, no order placed or cancelled, the same quote and order counts, the same marks of
  // what is held) adds no sample; the previous one holds, so every time-weighted figure is as if
  // it had been taken (the count-weighted quote uptime counts distinct states instead of cycles).
  let sampler: EquitySampler | null = null;
  const unchangedSince = (r: CycleReport, s: EquitySampler): boolean => {
    const last = equity.at(-1);
    if (last === undefined) return false;
    if (
      r.fills !== 0 ||
      r.placed !== 0 ||
      r.cancelled !== 0 ||
      r.quotes !== last.quotes ||
      r.openOrders !== last.openOrders
    )
      return false;
    return s.marksUnchanged();
  };
  const onCycle = (r: CycleReport): void => {
    cycles++;
    const s = sampler as EquitySampler;
    if (cadence === 'update' && unchangedSince(r, s)) return;
    s.sample((clockRef as VirtualClock).now(), r.quotes, r.openOrders);
  };

  const start = async (t: number): Promise<Running> => {
    const clock = new VirtualClock(t);
    clockRef = clock;
    md.clock = clock;
    const explicit = config.markets.conditions.length > 0 || config.markets.tokens.length > 0;
    if (!explicit)
      config = {
        ...config,
        markets: { ...config.markets, conditions: md.conditionIds().filter((c) => !resolutions.isResolved(c)) },
      };
    const venue = openReplayVenue({
      clock,
      capital,
      fillModel: fillModelName,
      tradeProbability: opts.queueTradeProbability ?? 0.5,
      random: mulberry32(seed ^ 0x51ed270b),
    });
    venue.onFill((f) => {
      venueFills.push(f);
      venueFillMids.push(lastMid.get(f.tokenId) ?? null);
    });
    // The operation log is kept only to write the ledger file (about half the memory an order costs).
    const ledger = openReplayLedger(clock, opts.ledgerPath !== undefined);
    run.ledger = ledger;
    sampler = new EquitySampler(ledger, capital, lastMid, equity);
    const logger = createLogger({
      clock,
      pretty: false,
      base: null,
      level: opts.logLevel ?? 'error',
      destination: { write: () => undefined },
    });
    const rt = await startSession({
      config,
      clock,
      logger,
      md,
      venue,
      ledger,
      latency: latencySampler(opts.latency, mulberry32(seed ^ 0x1a7e9c3d)),
      signer: sequenceIdSigner(seededKey(seed), config, seed),
      random: mulberry32(seed ^ 0x5a17),
      strategy: opts.strategy,
      onPlaced: (id) => placedIds.push(id),
      onCycle,
    });
    replay.started(rt, t);
    if (cadence === 'poll') {
      // As the poller: the first cycle at once, then one every interval (a tick while a cycle runs is skipped).
      const tick = (): void => rt.driver.cycle(replay.takeSnapshot);
      const id = clock.setInterval(tick, config.poll.intervalMs);
      rt.stopTicks = () => clock.clearInterval(id);
      tick();
    }
    return rt;
  };

  const source = openRecordSource(opts.recording);
  const report = (onProgress: (p: BacktestProgress) => void): void => {
    const p = source.progress();
    if (p !== null) onProgress({ records: replay.events, bytesRead: p.done, bytesTotal: p.total });
  };
  let rec: ReplayRecord | null;
  // The instant at whose end the daemon starts (see the header), once it is known.
  let startAt: number | null = null;
  try {
    for (;;) {
      rec = source.sync !== null ? source.sync() : await source.next();
      if (rec === null) break;
      if (startAt !== null && rec.localTs > startAt) {
        await start(startAt);
        startAt = null;
      }
      replay.record(rec);
      if (opts.onProgress !== undefined && (replay.events & 0xffff) === 0) report(opts.onProgress);
      // The daemon starts once a book has been recorded and some market has both tokens' settings.
      if (replay.rt === null && startAt === null && replay.canStart()) startAt = rec.localTs;
    }
    if (startAt !== null) await start(startAt);
    if (opts.onProgress !== undefined) report(opts.onProgress);
  } finally {
    source.close();
  }
  const rt = replay.rt;
  if (rt === null)
    throw new BacktestError(
      'BACKTEST_NOTHING_TO_REPLAY',
      'the recording holds no book of a market with two recorded tokens: nothing to replay',
    );
  replay.flushPush();
  // One more poll interval, so the last books are seen by a cycle.
  const endMs = rt.clock.now() + config.poll.intervalMs;
  rt.clock.advanceTo(endMs);
  rt.stopTicks();
  // The running plan finishes (its requests' events fire), then everything is cancelled and read.
  let stopped = false;
  const drainUntil = (done: () => boolean): void => {
    for (;;) {
      if (done()) return;
      const next = rt.clock.nextTimerAt();
      if (next === null) return;
      rt.clock.advanceTo(next);
    }
  };
  drainUntil(() => !rt.driver.running);
  rt.driver.stop(() => {
    stopped = true;
  });
  drainUntil(() => stopped);
  if (opts.ledgerPath !== undefined) (run.ledger as MemoryLedger).saveTo(opts.ledgerPath);
  return collect(rt);

  function collect(r: Running): BacktestResult {
    const ledger = r.ledger;
    const mids = replay.mids;
    const events = replay.events;
    const bookUpdates = replay.bookUpdates;
    const startMs = replay.startMs;
    const allFills: LedgerFill[] = [];
    for (let after = 0; ;) {
      const page = ledger.fills(after, 10_000);
      if (page.length === 0) break;
      allFills.push(...page);
      after = (page[page.length - 1] as LedgerFill).seq;
    }
    // Venue trade times by order, as cumulative sizes (a ledger fill may sum several trades).
    const byOrder = new Map<string, Array<{ cum: number; t: number; mid: number | null }>>();
    venueFills.forEach((v, i) => {
      let l = byOrder.get(v.orderId);
      if (l === undefined) {
        l = [];
        byOrder.set(v.orderId, l);
      }
      l.push({ cum: (l.at(-1)?.cum ?? 0) + v.size, t: v.timeMs, mid: venueFillMids[i] ?? null });
    });
    const ledgerCum = new Map<string, number>();
    const fills: BacktestFill[] = allFills.map((f) => {
      let venueTimeMs = f.timeMs;
      let fillMid: number | null = null;
      if (f.orderId !== null) {
        const cum = (ledgerCum.get(f.orderId) ?? 0) + f.size;
        ledgerCum.set(f.orderId, cum);
        const hit = byOrder.get(f.orderId)?.find((x) => x.cum >= cum);
        if (hit !== undefined) {
          venueTimeMs = hit.t;
          fillMid = hit.mid;
        }
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
        // With the mid series kept, the mid as of the venue's trade time; without, the mid when it traded.
        midAtFill: recordMids ? midAt(mids.get(f.tokenId), venueTimeMs) : fillMid,
      };
    });
    const orders: BacktestOrder[] = [];
    for (const id of [...new Set(placedIds)]) {
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
    const midsOut: Record<string, MidSeries> = {};
    if (recordMids) for (const t of [...mids.keys()].sort()) midsOut[t] = mids.get(t) as MidSeries;
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
      venueFills: venueFills.map((v) => ({
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
