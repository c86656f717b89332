// `oddsmaker strategies compare`: flag validation (usage errors naming the flag and value), the
// in-process venue gateway answering as the simulator's HTTP server would, and a short comparison
// on a seeded world: every strategy runs, the numbers hold together (fills ↔ volume, PnL, reward
// score only for orders of at least min_size), and the same flags give the same table.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VenueGateway } from '../../src/sim/venue/gateway.js';
import { chooseMarkets, DEFAULT_COMPARE, runStrategy } from '../../src/cli/compare/run.js';
import { renderTable } from '../../src/cli/compare/table.js';
import { UsageError } from '../../src/cli/exit-codes.js';
import { compareSettings, compareStrategies } from '../../src/cli/strategies-compare.js';
import { VirtualClock } from '../../src/core/clock.js';
import type { Micros } from '../../src/core/money.js';
import { DIALECTS } from '../../src/exchange/dialect.js';
import { Venue } from '../../src/sim/venue/index.js';
import { registry } from '../../strategies/index.js';

const tmp = mkdtempSync(join(tmpdir(), 'oddsmaker-compare-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const usage = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  return 'no error';
};

describe('compare: flags', () => {
  it('defaults: every registered strategy, one seeded world', () => {
    const s = compareSettings({});
    expect(s.names).toEqual(registry.names());
    expect(s.options).toEqual(DEFAULT_COMPARE);
    expect(s.format).toBe('text');
  });

  it('bad values are usage errors naming the flag and the value', () => {
    expect(usage(() => compareSettings({ strategies: 'bands,nope' }))).toBe(
      `--strategies: unknown strategy "nope"; known strategies: ${registry.names().join(', ')}`,
    );
    expect(usage(() => compareSettings({ strategies: ' , ' }))).toBe('--strategies names no strategy');
    expect(usage(() => compareSettings({ flow: 'none' }))).toBe('--flow must be one of low, normal, high, got "none"');
    expect(usage(() => compareSettings({ minutes: '1.5' }))).toBe('--minutes must be a whole number, got "1.5"');
    expect(usage(() => compareSettings({ markets: '0' }))).toBe('--markets must be between 1 and 20, got 0');
    expect(usage(() => compareSettings({ pollMs: '10' }))).toBe('--poll-ms must be between 250 and 60000, got 10');
    expect(usage(() => compareSettings({ format: 'csv' }))).toBe('--format must be text, markdown or json, got "csv"');
  });

  it('--params: a JSON object of name → params, each parsed by its strategy', () => {
    const good = join(tmp, 'good.json');
    writeFileSync(good, JSON.stringify({ bands: { maxPosition: 50 } }));
    expect(compareSettings({ params: good, strategies: 'bands' }).params).toEqual({ bands: { maxPosition: 50 } });
    const bad = join(tmp, 'bad.json');
    writeFileSync(bad, JSON.stringify({ bands: { maxPosition: -1 } }));
    expect(usage(() => compareSettings({ params: bad, strategies: 'bands' }))).toMatch(
      /^--params bands\.maxPosition: shares must be ≥ 0 \(got -1\)$/,
    );
    const other = join(tmp, 'other.json');
    writeFileSync(other, JSON.stringify({ rewards: {} }));
    expect(usage(() => compareSettings({ params: other, strategies: 'bands' }))).toBe(
      '--params names "rewards", which is not compared',
    );
    const list = join(tmp, 'list.json');
    writeFileSync(list, '[]');
    expect(usage(() => compareSettings({ params: list }))).toMatch(/expected an object of strategy name → params/);
    expect(usage(() => compareSettings({ params: join(tmp, 'missing.json') }))).toMatch(
      /^--params .*missing\.json: ENOENT/,
    );
  });
});

describe('compare: the in-process venue gateway', () => {
  it("books, settings and listed markets as the HTTP server sends them; another wallet's orders are not found", async () => {
    const clock = new VirtualClock(DEFAULT_COMPARE.startMs);
    const venue = new Venue({ clock, seed: 3, markets: 20, dialect: DIALECTS.spec, flow: 'normal' });
    venue.start();
    clock.advance(120_000);
    const listed = chooseMarkets(venue, 2);
    expect(listed.length).toBeGreaterThan(0);
    const gw = new VenueGateway(venue, DIALECTS.spec, listed);
    const seen: string[] = [];
    for await (const m of gw.samplingMarkets()) {
      seen.push(m.conditionId);
      expect(m.rewards.dailyRate).toBeGreaterThan(0);
    }
    expect(seen).toEqual(listed);
    const rec = venue.market(listed[0] as string);
    if (rec === undefined) throw new Error('no market');
    const [yes, no] = await gw.getBooks([rec.tokenIds[0], rec.tokenIds[1], 'unknown-token']);
    const view = venue.engine.bookView(rec.tokenIds[0]);
    expect(yes?.bids.map((l) => [l.price, l.size])).toEqual(view?.bids.map((l) => [l.price, l.size]));
    expect(yes?.tickSize).toBe(rec.state.tick);
    expect(yes?.hash).toMatch(/^[0-9a-f]{40}$/);
    expect(no?.bids[0]?.price).toBe(1_000_000 - (yes?.asks[0]?.price ?? 0));
    expect((await gw.getMidpoints([rec.tokenIds[0]])).get(rec.tokenIds[0])).toBe(
      venue.engine.midpoint(rec.tokenIds[0]),
    );
    expect((await gw.getMarketSettings(rec.conditionId)).tokens.map((t) => t.tokenId)).toEqual([...rec.tokenIds]);
    await expect(gw.getMarketSettings('0xnope')).rejects.toThrow(/not found/);
    // a flow order: resting in the engine, but not ours
    const flowOrder = venue.engine.internals().orders.keys().next().value as string;
    expect(await gw.getOrder(flowOrder)).toBeNull();
    expect(await gw.getOrder('0xunknown')).toBeNull();
    venue.close();
  });
});

describe('compare: a short run', () => {
  const opts = { minutes: '3', warmupMinutes: '2', markets: '2', worldMarkets: '20', seed: '5', pollMs: '1000' };

  it('every strategy runs on the same markets; the figures hold together; the same flags give the same table', async () => {
    const a = { chunks: [] as string[] };
    const rows = await compareStrategies(opts, { out: { write: (s: string) => a.chunks.push(s) } });
    expect(rows.map((r) => r.strategy)).toEqual(registry.names());
    for (const r of rows) {
      expect(r.markets).toBe(2);
      expect(r.samples).toBe(3); // one reward sample a minute
      expect(r.placed).toBeGreaterThan(0);
      expect(r.warnings).toBe(0);
      expect(r.fills === 0).toBe(r.volume === 0);
      // Exact micros, net of fees; nothing held is marked at 0.
      for (const m of [r.pnlMidMicros, r.pnlLatentMicros, r.feesMicros]) expect(Number.isSafeInteger(m)).toBe(true);
      expect(r.unmarked).toEqual([]);
    }
    const byName = new Map(rows.map((r) => [r.strategy, r]));
    expect(byName.get('rewards')?.rewardScore).toBeGreaterThan(0);
    expect(byName.get('rewards')?.rewardEstimate).toBeGreaterThan(0);
    const text = a.chunks.join('');
    expect(text.split('\n')[0]).toBe(
      'seed 5, 20-market world, 2 markets quoted, flow normal, 2 min warm-up then 3 min of quoting, a cycle every 1000 ms (virtual clock)',
    );
    expect(text).toContain(renderTable(rows, 'text'));
    expect(text).toContain('PnL @ mid: realized + unrealized, net of fees');

    const b = { chunks: [] as string[] };
    const again = await compareStrategies(opts, { out: { write: (s: string) => b.chunks.push(s) } });
    expect(again).toEqual(rows);
    expect(b.chunks.join('')).toBe(text);
  });

  it('json output carries the run and every figure; progress: a line as each strategy starts and finishes', async () => {
    const out: string[] = [];
    const progress: string[] = [];
    let t = 0;
    const now = (): number => (t += 1_500);
    await compareStrategies(
      { ...opts, strategies: 'bands', format: 'json' },
      { out: { write: (s: string) => out.push(s) }, progress: (l) => progress.push(l), now },
    );
    expect(progress).toHaveLength(2);
    expect(progress[0]).toBe('[1/1] bands: running…');
    expect(progress[1]).toMatch(
      /^\[1\/1\] bands: done in 1\.5 s \(total 4\.5 s\): \d+ fills, PnL @ mid -?\d+\.\d\d USDC$/,
    );
    expect(out.join('')).not.toContain('running');
    const j = JSON.parse(out.join('')) as {
      run: { seed: number; marketsQuoted: number };
      results: Array<Record<string, unknown>>;
    };
    expect(j.run).toMatchObject({ seed: 5, marketsQuoted: 2, durationMs: 180_000 });
    expect(Object.keys(j.results[0] ?? {})).toEqual(
      expect.arrayContaining([
        'fills',
        'volume',
        'pnlMidMicros',
        'pnlLatentMicros',
        'feesMicros',
        'unmarked',
        'netInventory',
        'rewardScore',
        'rewardEstimate',
      ]),
    );
  });

  it('a different seed is a different world', async () => {
    const o = { ...DEFAULT_COMPARE, durationMs: 120_000, warmupMs: 60_000, markets: 2, worldMarkets: 20 };
    const a = await runStrategy(registry.get('bands'), {}, { ...o, seed: 1 });
    const b = await runStrategy(registry.get('bands'), {}, { ...o, seed: 2 });
    expect(a).not.toEqual(b);
  });
});

describe('compare: the table', () => {
  it('Markdown escapes the pipes of a heading; money is exact micros rounded half-even to the cent', () => {
    const r = {
      strategy: 's',
      markets: 1,
      fills: 2,
      volume: 3,
      pnlMidMicros: -4_000 as Micros,
      pnlLatentMicros: 1_005_000 as Micros,
      feesMicros: 12_345 as Micros,
      unmarked: ['t'],
      netInventory: 0,
      maxNetInventory: 0,
      rewardScore: 0,
      rewardEstimate: 0,
      samples: 1,
      placed: 4,
      cancelled: 5,
      errors: 0,
      warnings: 0,
    };
    const md = renderTable([r], 'markdown').split('\n');
    expect(md[0]).toContain('max \\|net inventory\\| (shares)');
    // Every money heading names its unit; the two PnLs name their mark.
    expect(md[0]).toContain('| PnL @ mid (USDC) | PnL @ latent (USDC) | fees paid (USDC) |');
    expect(md[0]?.split(' | ')).toHaveLength(13);
    expect(md[2]).toBe('| s | 2 | 3.00 | 0.00 | 1.00 | 0.01 | 1 | 0.00 | 0.00 | 0.00 | 0.00 | 4 | 5 |');
    expect(
      renderTable(
        [{ ...r, pnlMidMicros: -1_015_000 as Micros, pnlLatentMicros: 1_025_001 as Micros }],
        'markdown',
      ).split('\n')[2],
    ).toContain('| -1.02 | 1.03 |');
  });
});
