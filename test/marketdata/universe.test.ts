// The market universe: the selector over /sampling-markets by each of its fields and max N,
// explicit condition and token ids, complements, and scheduled refreshes that add and remove
// markets (on the virtual clock), plus the node-cron schedule's validation.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { parseMarket } from '../../src/exchange/parse/markets.js';
import {
  ClockRefreshScheduler,
  CronExpressionError,
  CronRefreshScheduler,
} from '../../src/marketdata/refresh-scheduler.js';
import {
  diffUniverse,
  resolveUniverse,
  settingsFromClob,
  Universe,
  UniverseError,
  type SelectorSpec,
  type UniverseDiff,
  type UniverseSpec,
} from '../../src/marketdata/universe.js';
import { FakeGateway } from '../support/fake-gateway.js';
import { realJson } from '../support/fixtures.js';
import { binary, SH, T0 } from './helpers.js';

const SEL: SelectorSpec = { active: true, acceptingOrders: true, tags: [], rewardsOnly: false, max: 100 };

function spec(over: { tokens?: string[]; conditions?: string[]; selector?: Partial<SelectorSpec> } = {}): UniverseSpec {
  return { tokens: over.tokens ?? [], conditions: over.conditions ?? [], selector: { ...SEL, ...over.selector } };
}

function world() {
  const clock = new VirtualClock(T0);
  const gw = new FakeGateway(clock);
  gw.addMarket({ conditionId: 'plain' });
  gw.addMarket({ conditionId: 'inactive', active: false });
  gw.addMarket({ conditionId: 'closed', closed: true });
  gw.addMarket({ conditionId: 'archived', archived: true });
  gw.addMarket({ conditionId: 'not-accepting', acceptingOrders: false });
  gw.addMarket({ conditionId: 'no-book', enableOrderBook: false });
  gw.addMarket({ conditionId: 'politics', tags: ['Politics', 'Elections'] });
  gw.addMarket({ conditionId: 'sports', tags: ['sports'] });
  gw.addMarket({ conditionId: 'rewarded', rewardsDaily: 750, tags: ['Politics'] });
  return { clock, gw };
}

const ids = (ms: ReadonlyArray<{ conditionId: string }>): string[] => ms.map((m) => m.conditionId);

describe('selector over /sampling-markets', () => {
  it('takes active, open, accepting markets by default', async () => {
    const { gw } = world();
    expect(ids(await resolveUniverse(gw, spec()))).toEqual(['plain', 'politics', 'sports', 'rewarded']);
  });

  it('active: false lets inactive, closed and archived markets through', async () => {
    const { gw } = world();
    expect(ids(await resolveUniverse(gw, spec({ selector: { active: false } })))).toEqual([
      'plain',
      'inactive',
      'closed',
      'archived',
      'politics',
      'sports',
      'rewarded',
    ]);
  });

  it('acceptingOrders: false lets markets that refuse orders (or have no book) through', async () => {
    const { gw } = world();
    expect(ids(await resolveUniverse(gw, spec({ selector: { acceptingOrders: false } })))).toEqual([
      'plain',
      'not-accepting',
      'no-book',
      'politics',
      'sports',
      'rewarded',
    ]);
  });

  it('tags: any of them, case-insensitively', async () => {
    const { gw } = world();
    expect(ids(await resolveUniverse(gw, spec({ selector: { tags: ['politics'] } })))).toEqual([
      'politics',
      'rewarded',
    ]);
    expect(ids(await resolveUniverse(gw, spec({ selector: { tags: ['SPORTS', 'elections'] } })))).toEqual([
      'politics',
      'sports',
    ]);
    expect(ids(await resolveUniverse(gw, spec({ selector: { tags: ['crypto'] } })))).toEqual([]);
  });

  it('rewardsOnly: markets paying liquidity rewards', async () => {
    const { gw } = world();
    const u = await resolveUniverse(gw, spec({ selector: { rewardsOnly: true } }));
    expect(ids(u)).toEqual(['rewarded']);
    expect(u[0]?.settings.rewards?.dailyRate).toBe(750 * SH);
  });

  it('max: at most N markets, in listing order, without paging past them', async () => {
    const { gw } = world();
    gw.pageSize = 2;
    expect(ids(await resolveUniverse(gw, spec({ selector: { max: 2 } })))).toEqual(['plain', 'politics']);
    // 'politics' is the 7th record: pages of 2 → 4 pages read, not all 5
    expect(gw.calls.samplingPages).toBe(4);
  });

  it('builds settings from the listing and pairs each token with its complement', async () => {
    const { gw } = world();
    gw.addMarket({
      conditionId: 'fine',
      tickSize: 0.001,
      minOrderSize: 15,
      negRisk: true,
      makerBaseFeeBps: 10,
      takerBaseFeeBps: 20,
      question: 'Fine?',
    });
    const [m] = await resolveUniverse(gw, spec({ selector: { tags: [] } })).then((u) =>
      u.filter((x) => x.conditionId === 'fine'),
    );
    expect(m?.settings).toMatchObject({
      tickSize: 1_000,
      minOrderSize: 15 * SH,
      negRisk: true,
      makerBaseFeeBps: 10,
      takerBaseFeeBps: 20,
      question: 'Fine?',
      acceptingOrders: true,
    });
    expect(m?.tokens).toEqual([
      { tokenId: 'fine-yes', outcome: 'Yes', complementTokenId: 'fine-no' },
      { tokenId: 'fine-no', outcome: 'No', complementTokenId: 'fine-yes' },
    ]);
  });

  it('parses the real market record the fake listing is built on', () => {
    const m = parseMarket(realJson('clob_rest_market_single.json'));
    expect(m.rewards.dailyRate).toBe(750 * SH);
    expect(m.tokens.map((t) => t.outcome)).toEqual(['Yes', 'No']);
  });
});

describe('explicit markets', () => {
  it('condition ids: settings from /clob-markets and both tokens', async () => {
    const { gw } = world();
    gw.addMarket({ conditionId: 'explicit', tickSize: 0.001, minOrderSize: 10, rewardsDaily: 5 });
    const u = await resolveUniverse(gw, spec({ conditions: ['explicit', 'sports'] }));
    expect(ids(u)).toEqual(['explicit', 'sports']);
    expect(gw.calls.settings).toEqual(['explicit', 'sports']);
    expect(u[0]?.settings).toMatchObject({
      tickSize: 1_000,
      minOrderSize: 10 * SH,
      acceptingOrders: true,
      question: '',
      endDateMs: null,
    });
    expect(u[0]?.settings.rewards?.dailyRate).toBe(5 * SH);
    expect(u[1]?.settings.rewards).toBeNull();
    expect(u[0]?.tokens.map((t) => [t.tokenId, t.complementTokenId])).toEqual([
      ['explicit-yes', 'explicit-no'],
      ['explicit-no', 'explicit-yes'],
    ]);
    expect(gw.calls.samplingPages).toBe(0); // the selector is not used
  });

  it('token ids: their market is found through their books; only they are quoted, complements known', async () => {
    const { gw } = world();
    const u = await resolveUniverse(gw, spec({ tokens: ['sports-no', 'plain-yes', 'plain-no'] }));
    expect(ids(u)).toEqual(['sports', 'plain']);
    expect(u[0]?.tokens).toEqual([{ tokenId: 'sports-no', outcome: 'No', complementTokenId: 'sports-yes' }]);
    expect(u[1]?.tokens.map((t) => t.tokenId)).toEqual(['plain-yes', 'plain-no']);
  });

  it('conditions and tokens together: a condition brings its whole market', async () => {
    const { gw } = world();
    const u = await resolveUniverse(gw, spec({ conditions: ['plain'], tokens: ['plain-no', 'sports-yes'] }));
    expect(u.map((m) => [m.conditionId, m.tokens.map((t) => t.tokenId)])).toEqual([
      ['plain', ['plain-yes', 'plain-no']],
      ['sports', ['sports-yes']],
    ]);
  });

  it('an unknown token id fails with an error naming it', async () => {
    const { gw } = world();
    const err = await resolveUniverse(gw, spec({ tokens: ['plain-yes', 'nope'] })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UniverseError);
    expect((err as UniverseError).code).toBe('UNIVERSE_UNKNOWN_TOKEN');
    expect((err as Error).message).toContain('nope');
  });

  it('settingsFromClob keeps fees, tick, minimum and rewards', async () => {
    const { gw } = world();
    gw.addMarket({ conditionId: 'fees', makerBaseFeeBps: 0, takerBaseFeeBps: 200, tickSize: 0.0001 });
    const s = settingsFromClob(await gw.getMarketSettings('fees'));
    expect(s).toMatchObject({
      conditionId: 'fees',
      takerBaseFeeBps: 200,
      tickSize: 100,
      rewards: null,
      negRisk: false,
    });
  });
});

describe('refresh', () => {
  it('adds and removes markets on the schedule and reports each change', async () => {
    const { clock, gw } = world();
    const diffs: UniverseDiff[] = [];
    const errors: unknown[] = [];
    const u = new Universe({
      port: gw,
      spec: spec({ selector: { tags: ['politics', 'sports'] } }),
      scheduler: new ClockRefreshScheduler(clock, 60_000),
      onChange: (d) => diffs.push(d),
      onError: (e) => errors.push(e),
    });
    await u.refresh();
    expect(ids(u.markets())).toEqual(['politics', 'sports', 'rewarded']);
    u.start();
    await clock.advanceAsync(60_000);
    expect(diffs).toHaveLength(0); // nothing changed: no report
    gw.removeMarket('sports');
    gw.addMarket({ conditionId: 'new-politics', tags: ['politics'] });
    await clock.advanceAsync(60_000);
    expect(diffs).toHaveLength(1);
    expect(ids(diffs[0]?.added ?? [])).toEqual(['new-politics']);
    expect(ids(diffs[0]?.removed ?? [])).toEqual(['sports']);
    expect(ids(u.markets())).toEqual(['politics', 'rewarded', 'new-politics']);
    u.stop();
    gw.removeMarket('politics');
    await clock.advanceAsync(120_000);
    expect(diffs).toHaveLength(1); // stopped: no more refreshes
    expect(errors).toEqual([]);
  });

  it('a failed refresh keeps the previous universe and is reported', async () => {
    const { clock, gw } = world();
    const errors: unknown[] = [];
    const u = new Universe({
      port: gw,
      spec: spec(),
      scheduler: new ClockRefreshScheduler(clock, 1_000),
      onChange: () => undefined,
      onError: (e) => errors.push(e),
    });
    await u.refresh();
    const before = u.markets();
    gw.failNext('sampling');
    u.start();
    await clock.advanceAsync(1_000);
    expect(errors).toHaveLength(1);
    expect(u.markets()).toBe(before);
    u.stop();
  });

  it('a refresh that is still running when the next is due is skipped, not stacked', async () => {
    const { clock, gw } = world();
    gw.latencyMs = 2_500;
    const u = new Universe({
      port: gw,
      spec: spec(),
      scheduler: new ClockRefreshScheduler(clock, 1_000),
      onChange: () => undefined,
      onError: () => undefined,
    });
    u.start();
    await clock.advanceAsync(5_000);
    // runs start at 1000 and 4000 (each reads one page, 2.5 s)
    expect(gw.calls.samplingPages).toBe(2);
    u.stop();
  });

  it('diffUniverse reports added, removed and changed token sets', () => {
    const a = binary('a');
    const b = binary('b');
    const bOne = { ...b, tokens: b.tokens.slice(0, 1) };
    const d = diffUniverse([a, b], [bOne, binary('c')]);
    expect(ids(d.added)).toEqual(['c']);
    expect(ids(d.removed)).toEqual(['a']);
    expect(ids(d.changed)).toEqual(['b']);
  });
});

describe('cron schedule', () => {
  it('rejects an invalid expression as a config error', () => {
    expect(() => new CronRefreshScheduler('every ten minutes')).toThrow(CronExpressionError);
    let caught: unknown = null;
    try {
      new CronRefreshScheduler('61 * * * *');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(CronExpressionError);
    expect((caught as CronExpressionError).code).toBe('CONFIG_CRON');
  });

  it('accepts the default expression, starts and stops cleanly', () => {
    const s = new CronRefreshScheduler('*/10 * * * *');
    expect(s.describe()).toBe('cron */10 * * * * (UTC)');
    s.start(
      async () => undefined,
      () => undefined,
    );
    s.stop();
    s.stop();
  });
});
