// `oddsmaker strategies compare`: every registered strategy (or the ones named) run one after the
// other on the same seeded synthetic world in the sandbox, on a virtual clock (compare/run.ts),
// and a table of PnL, fills, inventory and reward score side by side. Invariants: every flag is
// validated before anything runs (a bad value is a UsageError, exit 2); params come from the
// strategies' defaults unless `--params FILE` gives some ({"name": {...}}), parsed by the
// strategy itself; the same flags give the same table (deterministic). Progress goes to stderr, one
// line as each strategy starts and one as it finishes ([i/n], elapsed wall time, fills, PnL @ mid),
// so a long comparison is never silent; stdout holds only the table and its legend.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { OddsmakerError } from '../core/errors.js';
import { formatFixed, roundToStep } from '../core/money.js';
import { loadConfig } from '../config/load.js';
import { FLOW_INTENSITIES, isFlowIntensity } from '../sim/venue/index.js';
import type { StrategyRegistry } from '../strategy/registry.js';
import { registry as defaultRegistry } from '../../strategies/index.js';
import { DEFAULT_COMPARE, runStrategy, type CompareOptions, type StrategyResult } from './compare/run.js';
import { describeRun, LEGEND, renderTable } from './compare/table.js';
import { UsageError } from './exit-codes.js';

export interface CompareCliOptions {
  strategies?: string;
  seed?: string;
  markets?: string;
  worldMarkets?: string;
  flow?: string;
  minutes?: string;
  warmupMinutes?: string;
  pollMs?: string;
  params?: string;
  format?: string;
  /** A config whose own strategies (strategy.module, strategies.dir) are included. */
  config?: string;
}

export interface CompareDeps {
  readonly out: { write(s: string): unknown };
  readonly registry?: StrategyRegistry;
  /** Progress lines (one as each strategy starts, one as it finishes); default: none. */
  readonly progress?: (line: string) => void;
  /** Wall-clock milliseconds for the progress lines' elapsed times (default performance.now). */
  readonly now?: () => number;
}

export interface CompareSettings {
  readonly names: readonly string[];
  readonly params: Readonly<Record<string, Record<string, unknown>>>;
  readonly options: CompareOptions;
  readonly format: 'text' | 'markdown' | 'json';
}

function int(v: string | undefined, flag: string, dflt: number, min: number, max: number): number {
  if (v === undefined) return dflt;
  if (!/^\d+$/.test(v)) throw new UsageError(`${flag} must be a whole number, got ${JSON.stringify(v)}`);
  const n = Number(v);
  if (n < min || n > max) throw new UsageError(`${flag} must be between ${min} and ${max}, got ${v}`);
  return n;
}

/** Validates every flag (UsageError naming the flag and the value). */
export function compareSettings(o: CompareCliOptions, reg: StrategyRegistry = defaultRegistry): CompareSettings {
  const names =
    o.strategies === undefined
      ? reg.names()
      : o.strategies
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '');
  if (names.length === 0) throw new UsageError('--strategies names no strategy');
  for (const n of names)
    if (!reg.has(n))
      throw new UsageError(
        `--strategies: unknown strategy ${JSON.stringify(n)}; known strategies: ${reg.names().join(', ')}`,
      );
  const flow = o.flow ?? DEFAULT_COMPARE.flow;
  if (!isFlowIntensity(flow) || flow === 'none')
    throw new UsageError(
      `--flow must be one of ${FLOW_INTENSITIES.filter((f) => f !== 'none').join(', ')}, got ${JSON.stringify(flow)}`,
    );
  const format = o.format ?? 'text';
  if (format !== 'text' && format !== 'markdown' && format !== 'json')
    throw new UsageError(`--format must be text, markdown or json, got ${JSON.stringify(format)}`);

  let params: Record<string, Record<string, unknown>> = {};
  if (o.params !== undefined) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(o.params, 'utf8')) as unknown;
    } catch (e) {
      throw new UsageError(`--params ${o.params}: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      throw new UsageError(`--params ${o.params}: expected an object of strategy name → params`);
    params = raw as Record<string, Record<string, unknown>>;
  }
  for (const n of names) {
    try {
      reg.get(n).parseParams(params[n], `--params ${n}`);
    } catch (e) {
      throw new UsageError(e instanceof Error ? e.message : String(e));
    }
  }
  for (const k of Object.keys(params))
    if (!names.includes(k)) throw new UsageError(`--params names ${JSON.stringify(k)}, which is not compared`);

  const options: CompareOptions = {
    ...DEFAULT_COMPARE,
    seed: int(o.seed, '--seed', DEFAULT_COMPARE.seed, 0, 2 ** 31 - 1),
    markets: int(o.markets, '--markets', DEFAULT_COMPARE.markets, 1, 20),
    worldMarkets: int(o.worldMarkets, '--world-markets', DEFAULT_COMPARE.worldMarkets, 1, 500),
    flow,
    durationMs: int(o.minutes, '--minutes', DEFAULT_COMPARE.durationMs / 60_000, 1, 24 * 60) * 60_000,
    warmupMs: int(o.warmupMinutes, '--warmup-minutes', DEFAULT_COMPARE.warmupMs / 60_000, 1, 120) * 60_000,
    pollMs: int(o.pollMs, '--poll-ms', DEFAULT_COMPARE.pollMs, 250, 60_000),
  };
  return { names, params, options, format };
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** Runs the comparison and prints the table; returns the rows. */
export async function compareStrategies(o: CompareCliOptions, deps: CompareDeps): Promise<StrategyResult[]> {
  const reg = deps.registry ?? defaultRegistry;
  const s = compareSettings(o, reg);
  const rows: StrategyResult[] = [];
  const now = deps.now ?? (() => performance.now());
  const started = now();
  for (const [i, name] of s.names.entries()) {
    const tag = `[${i + 1}/${s.names.length}]`;
    deps.progress?.(`${tag} ${name}: running…`);
    const t0 = now();
    try {
      const r = await runStrategy(reg.get(name), s.params[name] ?? {}, s.options);
      rows.push(r);
      deps.progress?.(
        `${tag} ${name}: done in ${seconds(now() - t0)} (total ${seconds(now() - started)}): ${r.fills} fills, PnL @ mid ${formatFixed(roundToStep(r.pnlMidMicros, 10_000, 'half-even'), 2)} USDC`,
      );
    } catch (e) {
      deps.progress?.(`${tag} ${name}: failed`);
      if (e instanceof OddsmakerError) throw new OddsmakerError(e.code, `${name}: ${e.message}`, e.retryable);
      throw e;
    }
  }
  const markets = rows[0]?.markets ?? 0;
  if (s.format === 'json') {
    deps.out.write(`${JSON.stringify({ run: { ...s.options, marketsQuoted: markets }, results: rows }, null, 2)}\n`);
  } else {
    const legend = LEGEND.map((l) => (s.format === 'markdown' ? `- ${l}` : `  ${l}`)).join('\n');
    deps.out.write(`${describeRun(s.options, markets)}\n\n${renderTable(rows, s.format)}\n\n${legend}\n`);
  }
  return rows;
}

export function addCompareCommand(parent: Command, deps: CompareDeps): void {
  parent
    .command('compare')
    .description(
      'run strategies side by side on one seeded synthetic world (sandbox, virtual clock): PnL, fills, inventory, reward score',
    )
    .option('--strategies <names>', 'comma-separated strategy names (default: every registered one)')
    .option('--seed <n>', 'seed of the world and its flow', String(DEFAULT_COMPARE.seed))
    .option(
      '--markets <n>',
      'markets quoted (open, paying rewards, mid in [0.10, 0.90])',
      String(DEFAULT_COMPARE.markets),
    )
    .option('--world-markets <n>', 'markets of the generated world', String(DEFAULT_COMPARE.worldMarkets))
    .option('--flow <intensity>', 'synthetic order flow: low, normal or high', DEFAULT_COMPARE.flow)
    .option('--minutes <n>', 'minutes of quoting (clock time)', String(DEFAULT_COMPARE.durationMs / 60_000))
    .option(
      '--warmup-minutes <n>',
      'minutes the flow runs before quoting starts',
      String(DEFAULT_COMPARE.warmupMs / 60_000),
    )
    .option('--poll-ms <ms>', 'cycle interval', String(DEFAULT_COMPARE.pollMs))
    .option('--params <file>', "JSON file of strategy name → params (default: each strategy's defaults)")
    .option('--format <f>', 'text, markdown or json', 'text')
    .option('--config <file>', 'config file whose own strategies (strategy.module, strategies.dir) to include')
    .action(async (opts: CompareCliOptions) => {
      const registry = opts.config === undefined ? deps.registry : (await loadConfig(opts.config)).strategies;
      await compareStrategies(opts, {
        ...deps,
        ...(registry !== undefined ? { registry } : {}),
        progress: (l) => {
          process.stderr.write(`${l}\n`);
        },
      });
    });
}
