// `oddsmaker run` exit codes for the strategy part of the config, as the README promises: an
// unknown strategy name and a strategy parameter its parser refuses are config errors, exit 2,
// with one message naming the path and value (the known strategies listed), before anything is
// started: no log line, no ledger or data directory created (the child runs in an empty directory).
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../e2e/harness.js';
import { reap, RunChild, writeJson } from './run-child.js';

beforeAll(() => {
  assertBuilt();
});
afterEach(reap);

async function run(cfg: unknown): Promise<{ code: number | null; stderr: string[]; lines: number; dataDir: boolean }> {
  const dir = mkdtempSync(join(tmpdir(), 'om-exit-'));
  const path = writeJson(dir, 'config.json', { mode: 'sandbox', health: { enabled: false }, ...(cfg as object) });
  const c = new RunChild(['--config', path], { cwd: dir });
  const e = await c.exit(30_000);
  return { code: e.code, stderr: c.stderr, lines: c.lines.length, dataDir: existsSync(join(dir, 'data')) };
}

describe('oddsmaker run: strategy config errors exit 2', () => {
  it('an unknown strategy', async () => {
    const r = await run({ strategy: { name: 'bandz' } });
    expect(r.code).toBe(2);
    expect(r.stderr.join('\n')).toMatch(
      /strategy\.name: unknown strategy \(got "bandz"\); known strategies: .*\bbands\b/,
    );
    expect(r.lines).toBe(0);
    expect(r.dataDir).toBe(false);
  }, 40_000);

  it('a strategy parameter the strategy refuses', async () => {
    const r = await run({ strategy: { name: 'bands', params: { levels: [{ margin: -1, size: 10 }] } } });
    expect(r.code).toBe(2);
    expect(r.stderr.join('\n')).toContain('strategy.params.levels[0].margin: price must be ≥ 0 (got -1)');
    expect(r.lines).toBe(0);
    expect(r.dataDir).toBe(false);
  }, 40_000);
});
