// Loads, validates and freezes the configuration. Every problem is reported at once, each naming
// its path and the offending value, in one ConfigError (the CLI exits 2 on it). With a strategy
// registry (loadConfigFile always passes the built-in one), `strategy.name` must be registered and
// `strategy.params` pass the strategy's own parser, with paths prefixed `strategy.params`
// (strategy-check.ts): an unknown strategy or a bad parameter is a config error like any other.
// loadConfig (what the commands use) first imports the user's strategy modules the config names
// (`strategy.module`, `strategies.dir`) and validates against them and the built-ins together.
import { readFileSync } from 'node:fs';
import { OddsmakerError } from '../core/errors.js';
import { redactUrlsIn } from '../core/redact-url.js';
import type { StrategyModule } from '../strategy/define.js';
import { loadUserStrategies, resolveFromConfig } from '../strategy/load-module.js';
import type { StrategyRegistry } from '../strategy/registry.js';
import { registry, strategies } from '../../strategies/index.js';
import { configSchema, type Config } from './schema.js';
import { strategyProblems, type StrategyLookup } from './strategy-check.js';

export class ConfigError extends OddsmakerError {
  readonly problems: readonly string[];
  constructor(source: string, problems: readonly string[]) {
    super('CONFIG_INVALID', `invalid config ${source}:\n  - ${problems.join('\n  - ')}`, false);
    this.problems = problems;
  }
}

/** A bad value as shown in a problem: JSON, cut at 80 characters, a URL's password redacted. */
function showValue(v: unknown): string {
  if (v === undefined) return 'missing';
  const s = redactUrlsIn(JSON.stringify(v) ?? String(v));
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc === '' ? String(k) : `${acc}.${String(k)}`),
    '',
  );
}

export interface ValidateOptions {
  /** Check strategy.name and strategy.params against these strategies (default: not checked). */
  readonly strategies?: StrategyLookup;
}

/** Validates a parsed JSON value; throws ConfigError listing every problem. */
export function validateConfig(raw: unknown, source = '(inline)', opts: ValidateOptions = {}): Readonly<Config> {
  const res = configSchema.safeParse(raw, { reportInput: true });
  const problems: string[] = [];
  let strategyOk = true;
  if (!res.success) {
    // One line per path: `-5` for a positive integer with a minimum breaks two rules, say it once.
    const byPath = new Map<string, string>();
    for (const i of res.error.issues) {
      if (i.path[0] === 'strategy') strategyOk = false;
      if (i.code === 'unrecognized_keys') {
        if (i.path.length === 0 && i.keys.includes('strategy')) strategyOk = false;
        for (const k of i.keys) byPath.set(formatPath([...i.path, k]), `${formatPath([...i.path, k])}: unknown key`);
        continue;
      }
      const at = formatPath(i.path) || '(root)';
      if (!byPath.has(at)) byPath.set(at, `${at}: ${i.message} (got ${showValue(i.input)})`);
    }
    problems.push(...byPath.values());
  }
  // The strategy is checked even when other sections are bad, so one message lists everything.
  if (opts.strategies !== undefined && strategyOk) {
    const strategy = res.success ? res.data.strategy : strategySection(raw);
    if (strategy !== null) problems.push(...strategyProblems(strategy, opts.strategies));
  }
  if (!res.success || problems.length > 0) throw new ConfigError(source, problems);
  return deepFreeze(res.data);
}

/** The strategy section of a config that failed elsewhere, with the schema's defaults. */
function strategySection(raw: unknown): { name: string; params: unknown } | null {
  const s = raw !== null && typeof raw === 'object' ? (raw as { strategy?: unknown }).strategy : undefined;
  const r = configSchema.shape.strategy.safeParse(s);
  return r.success ? r.data : null;
}

export interface ConfigOverrides {
  mode?: string | undefined;
  ledger?: string | undefined;
}

/** A config with the strategies it can run: the one registry every command resolves through. */
export interface LoadedConfig {
  readonly config: Readonly<Config>;
  /** Built-ins and the user's modules (`strategy.module`, `strategies.dir`). */
  readonly strategies: StrategyRegistry;
  /** The strategy config.strategy.name names. */
  readonly strategy: StrategyModule;
}

/**
 * Loads a config file with its user strategy modules (src/strategy/load-module.ts): they are
 * imported first, then the config is validated against built-ins and modules alike. With
 * `strategy.module` and no `strategy.name`, the name is the module's; the module paths in the
 * returned config are absolute (a worker thread can load them again).
 */
export async function loadConfig(path: string, overrides: ConfigOverrides = {}): Promise<LoadedConfig> {
  const obj = readConfigObject(path, overrides);
  const section = (k: string): Record<string, unknown> | null => {
    const v = obj[k];
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? { ...(v as Record<string, unknown>) } : null;
  };
  const strategy = section('strategy');
  const dirs = section('strategies');
  const modulePath = typeof strategy?.module === 'string' && strategy.module !== '' ? strategy.module : undefined;
  const dirPath = typeof dirs?.dir === 'string' && dirs.dir !== '' ? dirs.dir : undefined;
  const user = await loadUserStrategies(strategies, { configPath: path, module: modulePath, dir: dirPath });
  if (strategy !== null && user.module !== null) {
    if (strategy.name === undefined) strategy.name = user.module.name;
    strategy.module = resolveFromConfig(path, modulePath ?? '');
    obj.strategy = strategy;
  }
  if (dirs !== null && dirPath !== undefined) obj.strategies = { ...dirs, dir: resolveFromConfig(path, dirPath) };
  const config = validateConfig(obj, path, { strategies: user.registry });
  if (user.module !== null && config.strategy.name !== user.module.name) {
    throw new ConfigError(path, [
      `strategy.name: ${JSON.stringify(config.strategy.name)}, but strategy.module ${config.strategy.module ?? ''} declares ${JSON.stringify(user.module.name)}; leave strategy.name out or make them the same`,
    ]);
  }
  return { config, strategies: user.registry, strategy: user.registry.get(config.strategy.name) };
}

/**
 * The strategy of a config loadConfig returned (its module paths absolute), loaded again: for a
 * worker thread, which gets the config but not the loaded modules.
 */
export async function strategyOfConfig(config: Readonly<Config>): Promise<StrategyModule> {
  const user = await loadUserStrategies(strategies, {
    configPath: '(config)',
    module: config.strategy.module,
    dir: config.strategies?.dir,
  });
  return user.registry.get(config.strategy.name);
}

/** Loads a config validated against the built-in strategies only (tests; no user modules). */
export function loadConfigFile(path: string, overrides: ConfigOverrides = {}): Readonly<Config> {
  return validateConfig(readConfigObject(path, overrides), path, { strategies: registry });
}

function readConfigObject(path: string, overrides: ConfigOverrides): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(path, [`cannot read the file: ${(err as NodeJS.ErrnoException).code ?? String(err)}`]);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(path, [`not valid JSON: ${(err as Error).message}`]);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new ConfigError(path, ['(root): expected a JSON object']);
  const obj = { ...(raw as Record<string, unknown>) };
  if (overrides.mode !== undefined) obj.mode = overrides.mode;
  if (overrides.ledger !== undefined)
    obj.ledger = { ...((obj.ledger as object | undefined) ?? {}), path: overrides.ledger };
  return obj;
}

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v as Record<string, unknown>)) deepFreeze(x);
  }
  return v;
}
