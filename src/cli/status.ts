// `oddsmaker status [--url U] [--json] [--watch [--interval-ms N]]`: asks a running daemon's ops
// server for GET /status and prints it as a readable table (or the JSON itself with --json);
// --watch re-renders it every N ms until Ctrl-C (the screen cleared only on a terminal). The answer is parsed with the
// server's own schema (src/runtime/ops/status-view.ts), so a daemon of another version that
// answers something else is an error naming the field, not a garbled table. Amounts are printed
// exactly as the daemon sent them (decimal strings, never through a float): the PnL is the
// ledger's (src/core/pnl.ts), computed once in the daemon, never recomputed here. Exit 0 when a status
// was printed, whatever the daemon's health (the table says it); 1 when the daemon cannot be
// reached or answers an error (under --watch that is a line of the refresh, and Ctrl-C exits 0);
// 2 on a usage error.
import type { Command } from 'commander';
import { setTimeout as sleepTimer } from 'node:timers/promises';
import { request } from 'undici';
import { OddsmakerError } from '../core/errors.js';
import { configSchema } from '../config/schema.js';
import { statusViewSchema, type StatusView } from '../runtime/ops/status-view.js';
import { UsageError } from './exit-codes.js';

export interface StatusCliOptions {
  url: string;
  json?: boolean;
  /** Most open orders listed (default 50). */
  orders?: string;
  /** Re-render every --interval-ms until interrupted. */
  watch?: boolean;
  intervalMs?: string;
}

export class StatusFetchError extends OddsmakerError {
  constructor(message: string) {
    super('STATUS_UNAVAILABLE', message, true);
  }
}

/** The config's default ops address (health.host:health.port). */
export function defaultStatusUrl(): string {
  const h = configSchema.parse({}).health;
  return `http://${h.host}:${h.port}`;
}

const TIMEOUT_MS = 10_000;

/** GET <url>/status, parsed with the server's schema. */
export async function fetchStatus(baseUrl: string): Promise<{ view: StatusView; raw: unknown }> {
  const url = `${baseUrl.replace(/\/+$/, '')}/status`;
  let status: number;
  let text: string;
  try {
    const res = await request(url, { method: 'GET', headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
    status = res.statusCode;
    text = await res.body.text();
  } catch (err) {
    throw new StatusFetchError(
      `cannot reach ${url}: ${err instanceof Error ? err.message : String(err)} (is the daemon running with health.enabled, and is the URL its health.host:health.port?)`,
    );
  }
  if (status !== 200) throw new StatusFetchError(`${url} answered ${status}: ${text.slice(0, 200)}`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new StatusFetchError(`${url} answered something that is not JSON`);
  }
  const parsed = statusViewSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new StatusFetchError(
      `${url} answered an unexpected status document (${issue === undefined ? 'invalid' : `${issue.path.join('.') || '(root)'}: ${issue.message}`})`,
    );
  }
  return { view: parsed.data, raw };
}

// ------------------------------------------------------------------------------- rendering

/** A long hex id as `0x1234…cdef`. */
export function shortId(id: string): string {
  return id.length > 14 ? `${id.slice(0, 6)}…${id.slice(-4)}` : id;
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** Aligned columns: numbers (and amounts) right-aligned where `right` says so. */
export function table(
  headers: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  right: readonly boolean[] = [],
): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (right[i] === true ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)];
}

function age(ms: number): string {
  if (ms < 1_000) return `${ms}ms`;
  const s = Math.floor(ms / 1_000);
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 120 ? `${m}m` : `${Math.floor(m / 60)}h`;
}

/**
 * What the daemon is doing, in one phrase. A tripped kill switch comes first: it overrides every
 * other reason (an older daemon may still report `quoting: true` while tripped, so the switch is
 * read from its own field, not inferred from `quoting`).
 */
export function activityOf(v: StatusView): string {
  if (v.state !== 'running') return 'not quoting';
  if (v.killSwitch.tripped) return 'halted (kill switch)';
  if (v.halted !== null) return 'halted (strategy error)';
  if (v.paused) return 'paused';
  if (v.circuitBreaker.state === 'open') return 'halted (circuit breaker)';
  return v.quoting ? 'quoting' : 'not quoting';
}

export function renderStatus(v: StatusView, opts: { maxOrders?: number } = {}): string {
  const maxOrders = opts.maxOrders ?? 50;
  const out: string[] = [];
  out.push(`oddsmaker    ${v.mode} · daemon ${v.state} · strategy ${v.strategy} · ${activityOf(v)}   (${v.time})`);
  out.push(`health       ${v.health.healthy ? 'ok' : `UNHEALTHY: ${v.health.reasons.join('; ')}`}`);
  out.push(
    `kill switch  ${v.killSwitch.tripped ? `TRIPPED${v.killSwitch.trippedAt === null ? '' : ` at ${v.killSwitch.trippedAt}`}: ${v.killSwitch.reason ?? ''}` : 'armed'}`,
  );
  const cb = v.circuitBreaker;
  out.push(
    `circuit      ${cb.state} (order entry ${cb.orderEntry}, market data ${cb.marketData}; ${cb.consecutivePollFailures} failed polls in a row)`,
  );
  if (v.halted !== null) out.push(`halted       ${v.halted}`);
  const p = v.pnl;
  const amt = (x: string | null): string => x ?? '-';
  out.push(
    `pnl          daily ${p.daily} · realized ${amt(p.realized)} · unrealized ${amt(p.unrealized)} · fees ${amt(p.fees)} · total ${amt(p.total)} · free collateral ${amt(p.freeCollateral)}` +
      (p.unmarked.length > 0 ? ` · ${p.unmarked.length} unmarked` : ''),
  );
  const lc = v.lastCycle;
  out.push(
    `cycles       ${v.cycles}${lc === null ? '' : ` · last at ${lc.at} in ${lc.durationMs} ms: ${lc.quotes} quotes, ${lc.placed} placed, ${lc.cancelled} cancelled, ${lc.rejected} rejected, ${lc.fills} fills`}`,
  );
  if (v.positionsCheck !== null) {
    const l = v.positionsCheck.last;
    out.push(
      `positions    check ${v.positionsCheck.schedule}: ${l === null ? 'not run yet' : `${l.outcome} at ${l.at}${l.differences > 0 ? ` (${l.differences} differences)` : ''}${l.error === null ? '' : ` (${l.error})`}`}`,
    );
  }
  const hb = v.heartbeat ?? null;
  if (hb !== null) {
    out.push(
      `heartbeat    ${hb.lapsed ? 'LAPSED: the exchange has cancelled our orders' : hb.failingSince !== null ? `failing since ${hb.failingSince}` : hb.running ? 'alive' : 'stopped'}` +
        ` · every ${hb.intervalMs} ms, expiry ${hb.expiryMs} ms · ${hb.beats} accepted, ${hb.failures} failed${hb.lastError === null ? '' : ` (${hb.lastError})`}`,
    );
  }
  const co = v.collateral ?? null;
  if (co !== null) {
    out.push(
      `collateral   exchange balance ${co.balance ?? '-'}${co.at === null ? '' : ` at ${co.at}`}${co.recent ? '' : ' (not recent: not used)'}` +
        (co.zeroAllowances.length > 0
          ? ` · ZERO ALLOWANCE: ${co.zeroAllowances.map((z) => (z === '' ? '(exchange)' : shortId(z))).join(', ')}`
          : '') +
        (co.error === null ? '' : ` · last read failed: ${co.error}`),
    );
  }
  if (v.awaitingResolution !== null && v.awaitingResolution.length > 0) {
    out.push(`resolution   awaiting ${v.awaitingResolution.length}: ${v.awaitingResolution.map(shortId).join(', ')}`);
  }

  out.push('', `MARKETS (${v.markets.length})`);
  out.push(
    ...table(
      ['MARKET', 'QUESTION', 'DATA', 'QUOTES', 'ORDERS', 'MIDS', 'POSITION', 'REALIZED', 'UNREALIZED', 'FEES'],
      v.markets.map((m) => [
        shortId(m.conditionId),
        clip(m.question, 40),
        m.stale ? 'STALE' : 'fresh',
        String(m.quotes),
        String(m.openOrders),
        m.tokens.map((t) => t.mid ?? '-').join(' / '),
        m.tokens.map((t) => t.position).join(' / '),
        m.pnl?.realized ?? '-',
        m.pnl?.unrealized ?? '-',
        m.pnl?.fees ?? '-',
      ]),
      [false, false, false, true, true, false, false, true, true, true],
    ),
  );

  out.push('', `OPEN ORDERS (${v.openOrders})`);
  if (v.orders.length > 0) {
    out.push(
      ...table(
        ['ORDER', 'MARKET', 'TOKEN', 'SIDE', 'PRICE', 'SIZE', 'MATCHED', 'STATE', 'AGE'],
        v.orders
          .slice(0, maxOrders)
          .map((o) => [
            shortId(o.id),
            o.conditionId === null ? '-' : shortId(o.conditionId),
            shortId(o.tokenId),
            o.side,
            o.price,
            o.size,
            o.matched,
            o.state,
            age(o.ageMs),
          ]),
        [false, false, false, false, true, true, true, false, true],
      ),
    );
    if (v.orders.length > maxOrders)
      out.push(`… and ${v.orders.length - maxOrders} more (--orders N to list more, --json for all)`);
  }

  out.push('', `POSITIONS (${v.positions.length})`);
  if (v.positions.length > 0) {
    out.push(
      ...table(
        ['TOKEN', 'MARKET', 'SIZE', 'PENDING', 'AVG PRICE', 'MARK', 'REALIZED', 'UNREALIZED', 'FEES'],
        v.positions.map((x) => [
          shortId(x.tokenId),
          shortId(x.conditionId),
          x.size,
          x.pending,
          x.avgPrice ?? '-',
          x.mark ?? '-',
          x.realized,
          x.unrealized ?? '-',
          x.fees,
        ]),
        [false, false, true, true, true, true, true, true, true],
      ),
    );
  }
  return `${out.join('\n')}\n`;
}

export interface StatusDeps {
  write(text: string): void;
  /** --watch: stdout is a terminal (the screen is cleared before each refresh). */
  readonly tty?: boolean;
  /** --watch: ends the watch (SIGINT in the CLI); absent: the watch runs until the process ends. */
  readonly signal?: AbortSignal;
  /** --watch: waits ms or until the signal aborts (default: a real timer). */
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
}

const MIN_INTERVAL_MS = 100;
const CLEAR_SCREEN = '\x1b[2J\x1b[H';

async function realSleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await sleepTimer(ms, undefined, signal === undefined ? {} : { signal });
  } catch {
    /* aborted: the watch ends */
  }
}

export async function runStatus(opts: StatusCliOptions, deps: StatusDeps): Promise<void> {
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(opts.url);
  } catch {
    throw new UsageError(`--url must be a URL such as http://127.0.0.1:9464, got ${JSON.stringify(opts.url)}`);
  }
  if (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:')
    throw new UsageError(`--url must be http or https, got ${JSON.stringify(opts.url)}`);
  let maxOrders = 50;
  if (opts.orders !== undefined) {
    maxOrders = Number.parseInt(opts.orders, 10);
    if (!/^\d+$/.test(opts.orders) || !Number.isSafeInteger(maxOrders))
      throw new UsageError(`--orders must be a whole number, got ${JSON.stringify(opts.orders)}`);
  }
  const render = async (): Promise<string> => {
    const { view, raw } = await fetchStatus(opts.url);
    return opts.json === true ? `${JSON.stringify(raw, null, 2)}\n` : renderStatus(view, { maxOrders });
  };
  if (opts.watch !== true) {
    if (opts.intervalMs !== undefined) throw new UsageError('--interval-ms goes with --watch');
    deps.write(await render());
    return;
  }
  const intervalMs = opts.intervalMs === undefined ? 2_000 : Number.parseInt(opts.intervalMs, 10);
  if (
    (opts.intervalMs !== undefined && !/^\d+$/.test(opts.intervalMs)) ||
    !Number.isSafeInteger(intervalMs) ||
    intervalMs < MIN_INTERVAL_MS
  ) {
    throw new UsageError(
      `--interval-ms must be a whole number of milliseconds, at least ${MIN_INTERVAL_MS}, got ${JSON.stringify(opts.intervalMs)}`,
    );
  }
  await watchStatus(render, intervalMs, deps);
}

/**
 * --watch: one block per refresh until the signal aborts. A daemon that cannot be read (restarting,
 * stopped) is a line in the block, not the end of the watch: the next refresh tries again.
 */
async function watchStatus(render: () => Promise<string>, intervalMs: number, deps: StatusDeps): Promise<void> {
  const sleep = deps.sleep ?? realSleep;
  // A function, not a field read: the signal aborts while we wait (TS would narrow a field read).
  const stopped = (): boolean => deps.signal?.aborted === true;
  let first = true;
  while (!stopped()) {
    let block: string;
    try {
      block = await render();
    } catch (err) {
      if (!(err instanceof StatusFetchError)) throw err;
      block = `status unavailable: ${err.message}\n`;
    }
    if (stopped()) break;
    // A terminal shows the latest status in place; a pipe or a file gets every block in turn.
    deps.write(deps.tty === true ? `${CLEAR_SCREEN}${block}` : `${first ? '' : '\n'}${block}`);
    first = false;
    await sleep(intervalMs, deps.signal);
  }
}

export function register(program: Command): void {
  program
    .command('status')
    .description(
      "print a running daemon's status (mode, markets and quotes, open orders, positions, PnL, kill switch, circuit breaker)",
    )
    .option('--url <url>', "base URL of the daemon's ops server (config health.host:health.port)", defaultStatusUrl())
    .option('--json', 'print the JSON document instead of the table')
    .option('--orders <n>', 'most open orders listed', '50')
    .option('--watch', 're-render the status every --interval-ms until Ctrl-C')
    .option('--interval-ms <n>', 'refresh period of --watch, milliseconds (default 2000)')
    .action(async (o: StatusCliOptions) => {
      const stop = new AbortController();
      const onSigint = (): void => {
        stop.abort();
      };
      // Ctrl-C ends a watch cleanly (exit 0); without --watch the default handler is left alone.
      if (o.watch === true) process.once('SIGINT', onSigint);
      try {
        await runStatus(o, {
          write: (t) => {
            process.stdout.write(t);
          },
          tty: process.stdout.isTTY,
          signal: stop.signal,
        });
      } finally {
        process.removeListener('SIGINT', onSigint);
      }
    });
}
