// loadConfig with the user's strategy modules, in-process: `strategy.module` (relative to the
// config file) is registered beside the built-ins and, without `strategy.name`, names the
// strategy; a different `strategy.name` is a config error; `strategies.dir` registers a folder
// (its *.test.* files skipped); the returned config carries absolute paths, so a worker can load
// the same module again (strategyOfConfig); a missing folder is CONFIG_STRATEGY_MODULE (exit 2).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isConfigErrorCode } from '../../src/cli/exit-codes.js';
import { ConfigError, loadConfig, strategyOfConfig } from '../../src/config/load.js';
import { StrategyModuleError } from '../../src/strategy/load-module.js';
import { registry } from '../../strategies/index.js';

// A module of the strategy shape (defineStrategy's output); its params pass through.
const MODULE = (name: string): string => `export default Object.freeze({
  name: ${JSON.stringify(name)}, summary: 'a test strategy', paramDocs: [],
  parseParams: (raw) => raw ?? {},
  create: () => { throw new Error('not run here'); },
});
`;

let dir: string;
const config = (name: string, cfg: unknown): string => {
  const p = join(dir, name);
  writeFileSync(p, JSON.stringify(cfg));
  return p;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'om-user-strategy-'));
  mkdirSync(join(dir, 'mine'));
  writeFileSync(join(dir, 'mine', 'alpha.mjs'), MODULE('alpha'));
  writeFileSync(join(dir, 'mine', 'beta.js'), MODULE('beta'));
  writeFileSync(join(dir, 'mine', 'beta.test.mjs'), 'throw new Error("a test file is not a strategy");\n');
  writeFileSync(join(dir, 'mine', 'notes.txt'), 'not a module');
});

describe('loadConfig: strategy.module', () => {
  it('registers the module beside every built-in, names the strategy by it, and makes its path absolute', async () => {
    const loaded = await loadConfig(config('a.json', { strategy: { module: 'mine/alpha.mjs', params: { k: 1 } } }));
    expect(loaded.config.strategy).toEqual({ name: 'alpha', module: join(dir, 'mine', 'alpha.mjs'), params: { k: 1 } });
    expect(loaded.strategy.name).toBe('alpha');
    expect(loaded.strategies.names()).toEqual([...registry.names(), 'alpha'].sort());
    // A worker gets the config only: it loads the same module again.
    expect(await strategyOfConfig(loaded.config)).toBe(loaded.strategy);
  });

  it("a strategy.name other than the module's is a config error naming both", async () => {
    const err = await loadConfig(config('b.json', { strategy: { name: 'bands', module: 'mine/alpha.mjs' } })).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems[0]).toMatch(
      /^strategy\.name: "bands", but strategy\.module .*alpha\.mjs declares "alpha"/,
    );
  });

  it('without user modules, the built-in registry and its strategy', async () => {
    const loaded = await loadConfig(config('c.json', { strategy: { name: 'bands' } }));
    expect(loaded.strategies.names()).toEqual(registry.names());
    expect(loaded.strategy).toBe(registry.get('bands'));
  });
});

describe('loadConfig: strategies.dir', () => {
  it('registers every .js/.mjs of the folder by its declared name, skipping test files', async () => {
    const loaded = await loadConfig(config('d.json', { strategies: { dir: 'mine' }, strategy: { name: 'beta' } }));
    expect(loaded.strategies.names()).toEqual([...registry.names(), 'alpha', 'beta'].sort());
    expect(loaded.config.strategies?.dir).toBe(join(dir, 'mine'));
    expect(loaded.strategy.name).toBe('beta');
    // The same file as strategy.module and in the folder is one strategy, not a clash.
    const both = await loadConfig(
      config('e.json', { strategies: { dir: 'mine' }, strategy: { module: 'mine/alpha.mjs' } }),
    );
    expect(both.strategy.name).toBe('alpha');
  });

  it('an unknown strategy name lists the user modules too', async () => {
    const err = await loadConfig(config('f.json', { strategies: { dir: 'mine' }, strategy: { name: 'gamma' } })).catch(
      (e: unknown) => e,
    );
    expect((err as ConfigError).problems[0]).toBe(
      `strategy.name: unknown strategy (got "gamma"); known strategies: ${[...registry.names(), 'alpha', 'beta'].sort().join(', ')}`,
    );
  });

  it('a missing folder is a config error (exit 2) naming the config and the folder', async () => {
    const path = config('g.json', { strategies: { dir: 'nope' } });
    const err = await loadConfig(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StrategyModuleError);
    expect(isConfigErrorCode((err as StrategyModuleError).code)).toBe(true);
    expect((err as Error).message).toBe(
      `config ${path}: strategies.dir: ${join(dir, 'nope')}: cannot read the folder: ENOENT`,
    );
  });
});
