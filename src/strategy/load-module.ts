// Strategies of the user's own: compiled ESM modules (.js/.mjs) loaded at start by dynamic
// import() of a file URL, from config `strategy.module` (one file) and `strategies.dir` (every
// .js/.mjs in the folder but *.test.* files, the template's tests living next to it). Each must
// default-export what defineStrategy returns (checked by shape: name, summary, paramDocs,
// parseParams, create), with a registry name no built-in or other module has. Invariants: every
// problem is a StrategyModuleError (code CONFIG_STRATEGY_MODULE, so the CLI exits 2) naming the
// config file, the setting and the module's file; the registry built here is the only one a run
// resolves its strategy through, built-ins and user modules alike (registry.ts).
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OddsmakerError } from '../core/errors.js';
import type { StrategyModule } from './define.js';
import { createRegistry, type StrategyRegistry } from './registry.js';

export class StrategyModuleError extends OddsmakerError {
  readonly file: string;
  constructor(where: string, file: string, problem: string) {
    super('CONFIG_STRATEGY_MODULE', `${where}: ${file}: ${problem}`, false);
    this.file = file;
  }
}

const NAME_RE = /^[a-z][a-z0-9-]*$/;
const MODULE_FILE_RE = /\.(m?js)$/;
const TEST_FILE_RE = /\.test\.m?js$/;

/** Resolves a path written in a config file: relative ones are relative to the file's folder. */
export function resolveFromConfig(configPath: string, p: string): string {
  return isAbsolute(p) ? p : resolve(configPath, '..', p);
}

/** Why v is not what defineStrategy returns, or null when it is. */
function notAStrategy(v: unknown): string | null {
  if (v === null || typeof v !== 'object')
    return `its default export is ${v === null ? 'null' : typeof v}, not a strategy (export default defineStrategy({...}))`;
  const m = v as Record<string, unknown>;
  const missing = ['parseParams', 'create'].filter((k) => typeof m[k] !== 'function');
  if (
    typeof m.name !== 'string' ||
    typeof m.summary !== 'string' ||
    !Array.isArray(m.paramDocs) ||
    missing.length > 0
  ) {
    return 'its default export is not a strategy: make it the value defineStrategy({...}) returns (from the SDK, oddsmaker/sdk)';
  }
  if (!NAME_RE.test(m.name)) return `strategy name ${JSON.stringify(m.name)} must match ${String(NAME_RE)}`;
  return null;
}

/** Imports one module file and checks its default export; `where` is "config X: strategy.module". */
export async function loadStrategyFile(file: string, where: string): Promise<StrategyModule> {
  let st;
  try {
    st = statSync(file);
  } catch (err) {
    throw new StrategyModuleError(
      where,
      file,
      `cannot read the file: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  if (!st.isFile()) throw new StrategyModuleError(where, file, 'not a file');
  if (!MODULE_FILE_RE.test(file))
    throw new StrategyModuleError(
      where,
      file,
      'expected a compiled ES module (.js or .mjs); compile a .ts strategy first (npx tsc)',
    );
  let ns: Record<string, unknown>;
  try {
    ns = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (err) {
    throw new StrategyModuleError(where, file, `cannot import it: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!('default' in ns))
    throw new StrategyModuleError(where, file, 'no default export (export default defineStrategy({...}))');
  const why = notAStrategy(ns.default);
  if (why !== null) throw new StrategyModuleError(where, file, why);
  return ns.default as StrategyModule;
}

/** Every module of a folder, in file-name order, with its file. */
export async function loadStrategyDir(
  dir: string,
  where: string,
): Promise<Array<{ file: string; strategy: StrategyModule }>> {
  let files: string[];
  try {
    files = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && MODULE_FILE_RE.test(e.name) && !TEST_FILE_RE.test(e.name))
      .map((e) => e.name)
      .sort();
  } catch (err) {
    throw new StrategyModuleError(
      where,
      dir,
      `cannot read the folder: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  const out: Array<{ file: string; strategy: StrategyModule }> = [];
  for (const f of files) out.push({ file: join(dir, f), strategy: await loadStrategyFile(join(dir, f), where) });
  return out;
}

export interface UserStrategySources {
  /** The config file the paths below are relative to (named in every error). */
  readonly configPath: string;
  /** config `strategy.module`, as written. */
  readonly module?: string | undefined;
  /** config `strategies.dir`, as written. */
  readonly dir?: string | undefined;
}

export interface UserStrategies {
  /** Built-ins and user modules: what a run resolves its strategy through. */
  readonly registry: StrategyRegistry;
  /** The `strategy.module`'s strategy, or null without one. */
  readonly module: StrategyModule | null;
}

/** Loads the user's modules and registers them beside the built-ins; a name clash is an error. */
export async function loadUserStrategies(
  builtins: readonly StrategyModule[],
  src: UserStrategySources,
): Promise<UserStrategies> {
  const owner = new Map<string, string>(builtins.map((m) => [m.name, 'a built-in strategy']));
  const all = [...builtins];
  const add = (m: StrategyModule, file: string, where: string): void => {
    const prior = owner.get(m.name);
    if (prior === file) return; // the same file named by strategy.module and found in strategies.dir
    if (prior !== undefined)
      throw new StrategyModuleError(
        where,
        file,
        `strategy name ${JSON.stringify(m.name)} is taken by ${prior}; rename it`,
      );
    owner.set(m.name, file);
    all.push(m);
  };
  if (src.dir !== undefined) {
    const dir = resolveFromConfig(src.configPath, src.dir);
    const where = `config ${src.configPath}: strategies.dir`;
    for (const { file, strategy } of await loadStrategyDir(dir, where)) add(strategy, file, where);
  }
  let module: StrategyModule | null = null;
  if (src.module !== undefined) {
    const file = resolveFromConfig(src.configPath, src.module);
    const where = `config ${src.configPath}: strategy.module`;
    module = await loadStrategyFile(file, where);
    add(module, file, where);
  }
  return { registry: createRegistry(all), module };
}
