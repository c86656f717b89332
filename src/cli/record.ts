// `oddsmaker record --config F --out FILE`: records the configured exchange's market data (books,
// midpoints, market settings; see src/marketdata/recording/FORMAT.md) until SIGTERM or SIGINT,
// then flushes and exits 0. It polls exactly as the daemon does, with the daemon's building
// blocks: the universe from `markets` (refreshed on `markets.refreshCron`), the poller on
// `poll.intervalMs`, the HTTP gateway through the rate limiter. Invariants kept:
// - market data only: no credentials are loaded or sent and no order is ever built;
// - the exchange URL comes from `exchange.clobUrl` whatever the mode (a sandbox config without
//   one points at `oddsmaker sim`'s default listener, as live mode does); no simulator is started;
// - an existing FILE is appended to (the writer first cuts a crash-damaged tail);
// - on a signal: polling stops (the cycle in flight is awaited), the last chunk is sealed and
//   written, everything is closed, exit 0; a second signal exits 1 at once;
// - progress lines go to stderr, one JSON object per line, with no secret in them (there is none);
// - a market that leaves the universe is watched on GET /markets (resolution-watch.ts) until it
//   resolves: its RESOLVED record is written then (one progress line); the watch stops before the
//   recorder's last flush.
import type { Command } from 'commander';
import { SystemClock, type Clock } from '../core/clock.js';
import { loadConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { dialectOfConfig } from '../config/dialect.js';
import { MarketRecorder } from '../marketdata/recorder.js';
import { Poller } from '../marketdata/poller.js';
import { ResolutionWatch, type ResolutionWatchOptions } from '../marketdata/resolution-watch.js';
import { writeUniverseLabels } from '../marketdata/recording/universe-labels.js';
import { RecordingWriter } from '../marketdata/recording/writer.js';
import { CronRefreshScheduler, type RefreshScheduler } from '../marketdata/refresh-scheduler.js';
import { Universe } from '../marketdata/universe.js';
import { createRateLimiter } from '../ratelimit/index.js';
import { HttpGateway } from '../runtime/http-gateway.js';
import { rateLimitFromConfig } from '../runtime/limits.js';
import { DEFAULT_SPEC_URL, marketsListing } from '../runtime/modes.js';
import { EXIT_FAILURE, UsageError } from './exit-codes.js';

export interface RecordCliOptions {
  config: string;
  out: string;
  flushMs?: string;
}

export interface RecordDeps {
  clock: Clock;
  signals: {
    once(sig: 'SIGTERM' | 'SIGINT', fn: () => void): unknown;
    off(sig: 'SIGTERM' | 'SIGINT', fn: () => void): unknown;
  };
  exit: (code: number) => void;
  /** Where progress lines go (default stderr). */
  log?: (line: string) => void;
  refreshScheduler?: RefreshScheduler;
  /** The resolution watch's timing and budget (defaults in resolution-watch.ts). */
  resolutionWatch?: Pick<
    ResolutionWatchOptions,
    'intervalMs' | 'firstCheckDelayMs' | 'maxWatchMs' | 'budget' | 'maxPagesPerTurn'
  >;
}

function exchangeUrls(config: Readonly<Config>): { clobUrl: string; dataUrl: string; catalogUrl: string } {
  const ex = config.exchange;
  if (ex.clobUrl === undefined && ex.dialect === 'polymarket')
    throw new UsageError('exchange.clobUrl is required with the polymarket dialect');
  const clobUrl = ex.clobUrl ?? DEFAULT_SPEC_URL;
  return { clobUrl, dataUrl: ex.dataUrl ?? clobUrl, catalogUrl: ex.catalogUrl ?? clobUrl };
}

/** Records until a signal; resolves once the recording is flushed and everything is closed. */
export async function runRecord(opts: RecordCliOptions, deps: RecordDeps): Promise<void> {
  const log =
    deps.log ??
    ((line: string) => {
      process.stderr.write(`${line}\n`);
    });
  const emit = (msg: string, fields: Record<string, unknown> = {}): void => {
    log(JSON.stringify({ time: deps.clock.now(), msg, ...fields }));
  };
  const flushMs = opts.flushMs === undefined ? 5000 : Number(opts.flushMs);
  if (!Number.isSafeInteger(flushMs) || flushMs <= 0)
    throw new UsageError(`--flush-ms must be a positive integer, got ${JSON.stringify(opts.flushMs)}`);
  if (opts.out === '') throw new UsageError('--out must name a file');
  const { config } = await loadConfig(opts.config);
  const dialect = dialectOfConfig(config);
  const clock = deps.clock;
  const limiter = await createRateLimiter({ clock, config: rateLimitFromConfig(config) });
  const http = new HttpGateway({
    client: {
      ...exchangeUrls(config),
      dialect,
      clock,
      connections: config.exchange.connections,
      headersTimeoutMs: config.exchange.timeoutMs,
      bodyTimeoutMs: config.exchange.timeoutMs,
    },
    limiter,
  });
  let writer: RecordingWriter | null = null;
  try {
    writer = await RecordingWriter.open(opts.out);
    if (writer.recovered !== null)
      emit('appending to an existing recording', {
        status: writer.recovered.status,
        validBytes: writer.recovered.validBytes,
      });
    const recorder = new MarketRecorder({
      clock,
      sink: writer,
      flushIntervalMs: flushMs,
      onError: (err) => {
        emit('recording write failed', { err: String(err) });
      },
      // The report's market names (question and outcome); a failed write loses labels, never data.
      onMarkets: (markets) => {
        writeUniverseLabels(opts.out, markets).catch((err: unknown) => {
          emit('writing the recording labels failed', { err: String(err) });
        });
      },
      onFlush: (st) => {
        emit('flushed', { ...st });
      },
      trades: {
        fetch: (q) => http.client.getTrades({ market: [q.market], limit: q.limit, offset: q.offset, takerOnly: true }),
      },
    });
    const watch = new ResolutionWatch({
      ...deps.resolutionWatch,
      clock,
      listPage: marketsListing(http),
      onResolved: (r) => {
        recorder.resolutions([{ conditionId: r.conditionId, closed: true, tokens: r.tokens }]);
        emit('market resolved', { market: r.conditionId, winner: r.winnerTokenId });
      },
      onError: (err) => {
        emit('resolution check failed; retried at the next turn', { err: String(err) });
      },
      onGiveUp: (g) => {
        emit('gave up watching a market for its resolution', { market: g.conditionId, reason: g.reason });
      },
    });
    const universe = new Universe({
      port: http,
      spec: config.markets,
      scheduler: deps.refreshScheduler ?? new CronRefreshScheduler(config.markets.refreshCron),
      onChange: (d) => {
        recorder.markets(d.markets);
        // A market that left may be resolving: watched until it does (RESOLVED); back in, not watched.
        for (const m of d.added) watch.unwatch(m.conditionId);
        for (const m of d.removed) watch.watch(m.conditionId);
        emit('universe changed', { markets: d.markets.length });
      },
      onError: (err) => {
        emit('universe refresh failed; keeping the previous universe', { err: String(err) });
      },
    });
    await universe.refresh();
    recorder.markets(universe.markets());
    const tokens = (): string[] => universe.markets().flatMap((m) => m.tokens.map((t) => t.tokenId));
    const poller = new Poller({
      clock,
      gateway: http,
      intervalMs: config.poll.intervalMs,
      tokens,
      onSnapshot: (s) => {
        recorder.snapshot(s);
      },
      onError: (err, stage) => {
        emit(`poll ${stage} failed`, { err: String(err) });
      },
    });

    let stopping = false;
    let resolveStopped: () => void = () => undefined;
    const stopped = new Promise<void>((r) => {
      resolveStopped = r;
    });
    const onSignal = (sig: string) => (): void => {
      if (stopping) {
        emit('second signal: exiting at once', { signal: sig });
        deps.exit(EXIT_FAILURE);
        return;
      }
      stopping = true;
      deps.signals.once('SIGTERM', onSignal('SIGTERM'));
      deps.signals.once('SIGINT', onSignal('SIGINT'));
      emit('stopping: flushing the recording', { signal: sig });
      void (async () => {
        try {
          await poller.stop();
          universe.stop();
          await watch.stop();
          await recorder.stop();
        } finally {
          resolveStopped();
        }
      })();
    };
    deps.signals.once('SIGTERM', onSignal('SIGTERM'));
    deps.signals.once('SIGINT', onSignal('SIGINT'));
    universe.start();
    recorder.start();
    poller.start();
    emit('recording', {
      out: opts.out,
      markets: universe.markets().length,
      tokens: tokens().length,
      intervalMs: config.poll.intervalMs,
    });
    await stopped;
    const enc = writer.encoder.stats;
    emit('recording stopped', {
      ...recorder.stats(),
      polls: poller.stats().cycles,
      chunks: enc.chunks,
      bytes: enc.bytes,
      updates: enc.updates,
    });
  } finally {
    await writer?.close().catch((err: unknown) => {
      emit('closing the recording failed', { err: String(err) });
      process.exitCode = EXIT_FAILURE;
    });
    await http.close();
    await limiter.close();
  }
}

export function register(program: Command): void {
  program
    .command('record')
    .description(
      "record the configured exchange's books, midpoints and market settings to a file (no credentials, no orders)",
    )
    .option('--config <file>', 'config file (JSON)', 'config/default.json')
    .requiredOption('--out <file>', 'recording file (appended to when it exists)')
    .option('--flush-ms <ms>', 'write the open chunk every this many milliseconds', '5000')
    .action(async (o: RecordCliOptions) => {
      await runRecord(o, { clock: new SystemClock(), signals: process, exit: (code) => process.exit(code) });
    });
}
