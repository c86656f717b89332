// Loads, validates and freezes the configuration. Every problem is reported at once, each naming
// its path and the offending value, in one ConfigError (the CLI exits 2 on it). Strategy params are
// validated by the strategy's own parser, with paths prefixed `strategy.params`.
import { readFileSync } from 'node:fs';
import { OddsmakerError } from '../core/errors.js';
import { redactUrlsIn } from '../core/redact-url.js';
import { configSchema, type Config } from './schema.js';

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

/** Validates a parsed JSON value; throws ConfigError listing every problem. */
export function validateConfig(raw: unknown, source = '(inline)'): Readonly<Config> {
  const res = configSchema.safeParse(raw, { reportInput: true });
  if (!res.success) {
    // One line per path: `-5` for a positive integer with a minimum breaks two rules, say it once.
    const byPath = new Map<string, string>();
    for (const i of res.error.issues) {
      if (i.code === 'unrecognized_keys') {
        for (const k of i.keys) byPath.set(formatPath([...i.path, k]), `${formatPath([...i.path, k])}: unknown key`);
        continue;
      }
      const at = formatPath(i.path) || '(root)';
      if (!byPath.has(at)) byPath.set(at, `${at}: ${i.message} (got ${showValue(i.input)})`);
    }
    const problems = [...byPath.values()];
    throw new ConfigError(source, problems);
  }
  return deepFreeze(res.data);
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
  return validateConfig(obj, path);
}

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v as Record<string, unknown>)) deepFreeze(x);
  }
  return v;
}
