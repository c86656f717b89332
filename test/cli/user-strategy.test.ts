// A strategy of the user's own, end to end through the compiled CLI (`npm run build` first): the
// round trip the README shows. `strategies new` writes the template and its test (and refuses to
// overwrite them, exit 2); the template's own test passes under `node --test`; `strategies list
// --config` shows it; a backtest with `strategy.module` runs it on a synthetic recording (and a
// sweep, whose worker threads load the module again); a paper run against the simulator quotes
// with it; `strategies.dir` registers a folder by declared names. A bad module (missing, no
// default export, not a strategy, a built-in's name) exits 2 naming the config and the file.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/server/start.js';
import { writeSynthetic } from '../backtest/helpers.js';
import { assertBuilt, CLI, startSim, tempDir, writePaperConfig } from '../e2e/harness.js';
import { reap, RunChild, writeJson } from './run-child.js';

const NAME = 'my-mm';

function cli(args: readonly string[], cwd?: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
    timeout: 90_000,
    ...(cwd !== undefined ? { cwd } : {}),
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

let dir: string;
let strategies: string;
let recording: string;

beforeAll(async () => {
  assertBuilt();
  dir = tempDir();
  strategies = join(dir, 'strategies');
  recording = await writeSynthetic({ durationMs: 30_000, lockAtMs: 10_000 });
});
afterEach(reap);

/** A backtest config beside the strategies folder, its module path relative to the config file. */
function backtestConfig(name: string, strategy: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return writeJson(dir, name, {
    poll: { intervalMs: 1_000, maxBookAgeMs: 5_000, orderLookupIntervalMs: 1_000 },
    risk: { capital: '1000', dailyLossLimit: '100' },
    strategy,
    ...extra,
  });
}

describe('oddsmaker strategies new', () => {
  it('writes the strategy and its test, whose test passes; refuses to overwrite them (exit 2)', () => {
    const r = cli(['strategies', 'new', NAME, '--dir', strategies]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^  node --test \\S*${NAME}\\.test\\.mjs$`, 'm'));
    const source = readFileSync(join(strategies, `${NAME}.mjs`), 'utf8');
    expect(source).toContain(`name: '${NAME}'`);
    // Outside the checkout the SDK is imported by a relative path to the built one.
    const sdk = /from '([^']+)';/.exec(source)?.[1] ?? '';
    expect(resolve(strategies, sdk)).toBe(resolve('dist/src/strategy/sdk.js'));

    const t = spawnSync(process.execPath, ['--test', join(strategies, `${NAME}.test.mjs`)], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(t.status).toBe(0);
    expect(t.stdout).toMatch(/^# pass 4$/m);
    expect(t.stdout).toMatch(/^# fail 0$/m);

    const again = cli(['strategies', 'new', NAME, '--dir', strategies]);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain(`refusing to overwrite ${join(strategies, `${NAME}.mjs`)}`);
    expect(cli(['strategies', 'new', 'bands', '--dir', strategies]).status).toBe(2);
    expect(cli(['strategies', 'new', 'Bad_Name', '--dir', strategies]).status).toBe(2);
  });

  it('inside the checkout, `oddsmaker/sdk` resolves to the built SDK (package.json exports)', () => {
    expect(createRequire(resolve('test', 'x.js')).resolve('oddsmaker/sdk')).toBe(resolve('dist/src/strategy/sdk.js'));
  });
});

describe('strategy.module and strategies.dir', () => {
  it('strategies list and show --config include the module', () => {
    const config = backtestConfig('list.json', { module: `./strategies/${NAME}.mjs` });
    const r = cli(['strategies', 'list', '--config', config]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${NAME}\\s+One bid a spread under each token's mid`, 'm'));
    expect(r.stdout).toMatch(/^bands\s/m);
    const show = cli(['strategies', 'show', NAME, '--config', config]);
    expect(show.status).toBe(0);
    expect(show.stdout).toMatch(/\nspread\s+price\s+0\.02\s+distance of each quote from the mid/);
    // Without --config only the built-ins.
    expect(cli(['strategies', 'list']).stdout).not.toContain(NAME);
  });

  it('a backtest runs the module (and a sweep, in worker threads)', () => {
    // Bid one cent under the 0.50 mid: the book locking at 0.49 fills it.
    const config = backtestConfig('backtest.json', { module: `strategies/${NAME}.mjs`, params: { spread: 0.01 } });
    const out = join(dir, 'report');
    // The fill model named: the book locking through our bid fills it (`cross`).
    const r = cli(['backtest', '--config', config, '--recording', recording, '--out', out, '--fill-model', 'cross']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^backtest: pnl .*\b[1-9]\d* fills\b/);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
      fills: { count: number; buys: number };
    };
    expect(report.fills.buys).toBeGreaterThan(0);

    const grid = writeJson(dir, 'grid.json', { spread: [0.01, 0.05] });
    const sweepOut = join(dir, 'sweep.json');
    const s = cli([
      'backtest',
      'sweep',
      '--config',
      config,
      '--recording',
      recording,
      '--grid',
      grid,
      '--out',
      sweepOut,
      '--workers',
      '1',
      '--fill-model',
      'cross',
    ]);
    expect(s.status).toBe(0);
    const doc = JSON.parse(readFileSync(sweepOut, 'utf8')) as {
      strategy: string;
      rows: Array<{ params: { spread: number }; fills: number }>;
    };
    expect(doc.strategy).toBe(NAME);
    const fills = new Map(doc.rows.map((row) => [row.params.spread, row.fills]));
    expect(fills.get(0.01)).toBeGreaterThan(0);
    expect(fills.get(0.05)).toBe(0);
  }, 120_000);

  it('strategies.dir registers every module of a folder by its declared name (test files skipped)', () => {
    const config = backtestConfig('dir.json', { name: NAME }, { strategies: { dir: 'strategies' } });
    const r = cli(['strategies', 'list', '--config', config]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${NAME}\\s`, 'm'));
  });

  describe('a paper run', () => {
    let sim: RunningSimulator;
    beforeAll(async () => {
      sim = await startSim(5);
    });
    afterAll(async () => {
      await sim.close();
    });

    it('quotes with the module for a few cycles, then stops cleanly', async () => {
      const paper = join(dir, 'paper');
      mkdirSync(paper, { recursive: true });
      const path = writePaperConfig(paper, sim);
      const cfg = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
      writeFileSync(
        path,
        JSON.stringify({ ...cfg, strategy: { module: join(strategies, `${NAME}.mjs`), params: { spread: 0.03 } } }),
      );
      const c = new RunChild(['--config', path]);
      const started = await c.waitFor((l) => l.msg === 'daemon started', 'daemon started');
      expect(started['strategy']).toBe(NAME);
      await c.waitFor((l) => l.msg === 'cycle' && Number(l['placed']) > 0, 'orders placed');
      await c.waitFor(
        (l) => l.msg === 'cycle' && Number(l['quotes']) > 0 && c.lines.filter((x) => x.msg === 'cycle').length >= 3,
        'three cycles',
      );
      c.child.kill('SIGTERM');
      expect((await c.exit(30_000)).code).toBe(0);
    }, 120_000);
  });
});

describe('a bad module exits 2 naming the config and the file', () => {
  const bad = (file: string, source: string | null): { config: string; file: string } => {
    const folder = join(dir, 'bad');
    mkdirSync(folder, { recursive: true });
    if (source !== null) writeFileSync(join(folder, file), source);
    return { config: writeJson(folder, `${file}.json`, { strategy: { module: file } }), file: join(folder, file) };
  };

  it.each([
    ['missing.mjs', null, /cannot read the file: ENOENT/],
    ['no-default.mjs', 'export const strategy = 1;\n', /no default export/],
    ['not-a-strategy.mjs', 'export default { name: "x" };\n', /not a strategy/],
    [
      'clash.mjs',
      `export { bands as default } from '${resolve('dist/strategies/bands/index.js').replace(/\\/g, '/')}';\n`,
      /"bands" is taken by a built-in strategy/,
    ],
    ['throws.mjs', 'throw new Error("boom");\n', /cannot import it: boom/],
  ] as const)(
    '%s',
    (file, source, why) => {
      const b = bad(file, source);
      for (const args of [
        ['backtest', '--config', b.config, '--recording', recording, '--out', join(dir, 'never')],
        ['run', '--config', b.config],
      ]) {
        const r = cli(args);
        expect(r.status).toBe(2);
        expect(r.stderr).toContain(`config ${b.config}: strategy.module: ${b.file}: `);
        expect(r.stderr).toMatch(why);
      }
    },
    60_000,
  );
});
