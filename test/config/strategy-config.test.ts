// The strategy as part of config validation (src/config/strategy-check.ts, load.ts): a config file
// naming an unknown strategy, or strategy params its parser refuses, is a ConfigError (exit 2)
// naming the path and value, listed with every other bad path; validateConfig without a registry
// (tests with their own strategies) leaves the strategy alone.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfigFile, validateConfig } from '../../src/config/load.js';
import { registry } from '../../strategies/index.js';

function file(cfg: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'om-strategy-cfg-')), 'c.json');
  writeFileSync(path, JSON.stringify(cfg));
  return path;
}

function problems(fn: () => unknown): readonly string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('strategy in config validation', () => {
  it('an unknown strategy is a config problem listing the known ones, beside the other problems', () => {
    expect(problems(() => loadConfigFile(file({ strategy: { name: 'bandz' }, poll: { intervalMs: 1 } })))).toEqual([
      'poll.intervalMs: Too small: expected number to be >=50 (got 1)',
      `strategy.name: unknown strategy (got "bandz"); known strategies: ${registry.names().join(', ')}`,
    ]);
  });

  it('a parameter the strategy refuses is a config problem naming its path and value', () => {
    const p = problems(() =>
      loadConfigFile(file({ strategy: { name: 'bands', params: { levels: [{ margin: -1, size: 10 }] } } })),
    );
    expect(p).toEqual(['strategy.params.levels[0].margin: price must be ≥ 0 (got -1)']);
    expect(problems(() => loadConfigFile(file({ strategy: { params: { nope: 1 } } })))[0]).toMatch(
      /^strategy\.params: Unrecognized key: "nope"/,
    );
  });

  it('a malformed strategy section is reported once, by the schema', () => {
    expect(problems(() => loadConfigFile(file({ strategy: { name: 7 } })))).toEqual([
      'strategy.name: Invalid input: expected string, received number (got 7)',
    ]);
  });

  it('validateConfig checks the strategy only when given a registry', () => {
    expect(validateConfig({ strategy: { name: 'mine' } }).strategy.name).toBe('mine');
    expect(problems(() => validateConfig({ strategy: { name: 'mine' } }, 'x', { strategies: registry }))[0]).toMatch(
      /^strategy\.name: unknown strategy/,
    );
  });
});
