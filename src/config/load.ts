// Loads, validates and freezes the configuration. Every problem is reported at once, each naming
// its path and the offending value, in one ConfigError (the CLI exits 2 on it). With a strategy
// registry (loadConfigFile always passes the built-in one), `strategy.name` must be registered and
// `strategy.params` pass the strategy's own parser, with paths prefixed `strategy.params`
// (strategy-check.ts): an unknown strategy or a bad parameter is a config error like any other.
import { readFileSync } from 'node:fs';
import { OddsmakerError } from '../core/errors.js';
import { redactUrlsIn } from '../core/redact-url.js';
import { registry } from '../../strategies/index.js';
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
  return path.reduce<string>((acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc === '' ? String(k) : `${acc}.${String(k)}`), '');
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

export function loadConfigFile(path: string, overrides: { mode?: string | undefined; ledger?: string | undefined } = {}): Readonly<Config> {
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
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError(path, ['(root): expected a JSON object']);
  const obj = { ...(raw as Record<string, unknown>) };
  if (overrides.mode !== undefined) obj.mode = overrides.mode;
  if (overrides.ledger !== undefined) obj.ledger = { ...((obj.ledger as object | undefined) ?? {}), path: overrides.ledger };
  return validateConfig(obj, path, { strategies: registry });
}

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v as Record<string, unknown>)) deepFreeze(x);
  }
  return v;
}
