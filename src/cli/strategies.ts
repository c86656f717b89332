// `oddsmaker strategies`: what the registry holds. `list` prints each strategy's name and
// description; `show NAME` its parameter table (name, unit, default, meaning), the defaults read
// from the strategy's own parsed empty params (`--markdown` prints the table the READMEs carry);
// `compare` runs them side by side on one seeded world (strategies-compare.ts); `new NAME` writes
// a strategy of the user's own with its test (strategies-new.ts). With `--config FILE` the registry
// is the one that config runs with: built-ins and the user's modules (src/config/load.ts).
// Invariants: an unknown name is a usage error (exit 2) listing every known name; output goes to
// `out` only.
import type { Command } from 'commander';
import { paramTable, renderParamTable } from '../strategy/param-docs.js';
import { UnknownStrategyError, type StrategyRegistry } from '../strategy/registry.js';
import { registry as defaultRegistry } from '../../strategies/index.js';
import { loadConfig } from '../config/load.js';
import { UsageError } from './exit-codes.js';
import { addCompareCommand } from './strategies-compare.js';
import { newStrategy } from './strategies-new.js';

/** The registry a `--config` names (its user modules included), or the deps' one. */
export async function registryFor(config: string | undefined, deps: StrategiesDeps): Promise<StrategyRegistry> {
  return config === undefined ? (deps.registry ?? defaultRegistry) : (await loadConfig(config)).strategies;
}

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
  const table =
    rows.length === 0
      ? '(no documented parameters)'
      : renderParamTable(rows, opts.markdown === true ? 'markdown' : 'text');
  const text = opts.markdown === true ? table : `${m.name}: ${m.summary}\n\n${table}`;
  deps.out.write(`${text}\n`);
  return text;
}

export function register(program: Command, deps: StrategiesDeps = { out: process.stdout }): void {
  const cmd = program
    .command('strategies')
    .description("the registered strategies: list them, show one's parameters, compare them");
  const configHelp = 'config file whose own strategies (strategy.module, strategies.dir) to include';
  cmd
    .command('list')
    .description('print each registered strategy with its description')
    .option('--config <file>', configHelp)
    .action(async (opts: { config?: string }) => {
      listStrategies({ ...deps, registry: await registryFor(opts.config, deps) });
    });
  cmd
    .command('show')
    .description("print a strategy's parameter table (name, unit, default, meaning)")
    .argument('<name>', 'strategy name')
    .option('--markdown', "print the table as Markdown (as in the strategy's README)")
    .option('--config <file>', configHelp)
    .action(async (name: string, opts: { markdown?: boolean; config?: string }) => {
      showStrategy(name, opts, { ...deps, registry: await registryFor(opts.config, deps) });
    });
  addCompareCommand(cmd, deps);
  cmd
    .command('new')
    .description(
      'write a strategy of your own (NAME.mjs, runs without a compile step) and its test (NAME.test.mjs) into --dir',
    )
    .argument('<name>', 'strategy name: lower-case letters, digits and dashes')
    .requiredOption('--dir <dir>', 'folder to write into (created; existing files are never overwritten)')
    .action((name: string, opts: { dir: string }) => {
      newStrategy(name, opts, deps.out);
    });
}
