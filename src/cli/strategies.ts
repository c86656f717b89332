// `oddsmaker strategies`: what the registry holds. `list` prints each strategy's name and
// description; `show NAME` its parameter table (name, unit, default, meaning), the defaults read
// from the strategy's own parsed empty params (`--markdown` prints the table the READMEs carry);
// `compare` runs them side by side on one seeded world (strategies-compare.ts). Invariants: an
// unknown name is a usage error (exit 2) listing every known name; output goes to `out` only.
import type { Command } from 'commander';
import { paramTable, renderParamTable } from '../strategy/param-docs.js';
import { UnknownStrategyError, type StrategyRegistry } from '../strategy/registry.js';
import { registry as defaultRegistry } from '../../strategies/index.js';
import { UsageError } from './exit-codes.js';
import { addCompareCommand } from './strategies-compare.js';

export interface StrategiesDeps {
  readonly out: { write(s: string): unknown };
  readonly registry?: StrategyRegistry;
}

/** One line per strategy: its name, padded, and its description. */
export function listStrategies(deps: StrategiesDeps): string {
  const reg = deps.registry ?? defaultRegistry;
  const names = reg.names();
  const width = Math.max(0, ...names.map((n) => n.length));
  const text = names.map((n) => `${n.padEnd(width)}  ${reg.get(n).summary}`).join('\n');
  deps.out.write(`${text}\n`);
  return text;
}

/** The strategy's description and parameter table. */
export function showStrategy(name: string, opts: { markdown?: boolean }, deps: StrategiesDeps): string {
  const reg = deps.registry ?? defaultRegistry;
  let m;
  try {
    m = reg.get(name);
  } catch (e) {
    if (e instanceof UnknownStrategyError) throw new UsageError(e.message);
    throw e;
  }
  const rows = paramTable(m);
  const table = rows.length === 0 ? '(no documented parameters)' : renderParamTable(rows, opts.markdown === true ? 'markdown' : 'text');
  const text = opts.markdown === true ? table : `${m.name}: ${m.summary}\n\n${table}`;
  deps.out.write(`${text}\n`);
  return text;
}

export function register(program: Command, deps: StrategiesDeps = { out: process.stdout }): void {
  const cmd = program.command('strategies').description('the registered strategies: list them, show one\'s parameters, compare them');
  cmd.command('list')
    .description('print each registered strategy with its description')
    .action(() => { listStrategies(deps); });
  cmd.command('show')
    .description('print a strategy\'s parameter table (name, unit, default, meaning)')
    .argument('<name>', 'strategy name')
    .option('--markdown', 'print the table as Markdown (as in the strategy\'s README)')
    .action((name: string, opts: { markdown?: boolean }) => { showStrategy(name, opts, deps); });
  addCompareCommand(cmd, deps);
}
