// The daemon's scheduled positions check on a virtual clock: the ledger's positions compared with
// the fake venue's GET /positions of the daemon's account. Agreement is one info line, every
// difference still there on a second look a warn line with the token and both sizes (a first look
// differing only by a fill not yet in the ledger is not reported); `<condition>:<index>` assets resolve
// through the universe or, for a market the universe lists partially or not at all, its settings;
// failures are logged and the schedule goes on; runs never overlap; the job ends with the daemon;
// the schedule comes from `ledger.positionsCheckCron`, validated as a config error.
import { describe, expect, it } from 'vitest';
import { ConfigError, validateConfig } from '../../src/config/load.js';
import type { Micros, Price, Shares } from '../../src/core/money.js';
import { Ledger } from '../../src/ledger/index.js';
import { CronExpressionError, CronRefreshScheduler } from '../../src/marketdata/refresh-scheduler.js';
import { Daemon } from '../../src/runtime/daemon.js';
import { createLogger } from '../../src/runtime/logger.js';
import { position } from './fake-account.js';
import { FakeExecutor } from './fake-executor.js';
import { ACCOUNT, harness, tracedBands, type LogLine } from './harness.js';

const SH = 1_000_000;
const PERIOD = 60_000;
/** Two of the harness's order-lookup intervals (2 s): the wait before a difference is confirmed. */
const CONFIRM = 4_000;
const AGREE = 'positions agree with the exchange';
const DIFFER = 'position differs from the exchange';
const FAILED = 'positions check failed';

type H = ReturnType<typeof harness>;

/** A ledger position of `shares` of a token, bought at 0.5 (as an earlier run's fill). */
function hold(h: H, tokenId: string, conditionId: string, shares: number): void {
  h.ledger.recordFill({
    tokenId,
    conditionId,
    side: 'BUY',
    price: 500_000 as Price,
    size: Math.round(shares * SH) as Shares,
    feeMicros: 0 as Micros,
    liquidity: 'maker',
    timeMs: h.clock.now(),
    source: 'sim',
    dedupKey: `${tokenId}:${shares}:${h.clock.now()}`,
  });
}

const checkLines = (h: H): LogLine[] => h.lines.filter((l) => l.msg === AGREE || l.msg === DIFFER || l.msg === FAILED);

async function started(h: H): Promise<void> {
  await h.daemon.start();
  await h.clock.advanceAsync(0);
}

describe('positions check: agreement and differences', () => {
  it('is scheduled, asks for the daemon account, and logs one info line when the positions agree', async () => {
    const h = harness({ positionsCheckMs: PERIOD });
    hold(h, 'm1-yes', 'm1', 4);
    hold(h, 'm2-no', 'm2', 2.5);
    h.gw.positions = [position('m1:0', 4 * SH), position('m2:1', 2.5 * SH)];
    await started(h);
    expect(h.lines.find((l) => l.msg === 'positions check scheduled')).toMatchObject({
      schedule: `every ${PERIOD} ms`,
      address: ACCOUNT,
    });
    await h.clock.advanceAsync(PERIOD - 1);
    expect(h.gw.positionCalls).toEqual([]); // not at start: on the schedule
    await h.clock.advanceAsync(1);
    expect(h.gw.positionCalls).toEqual([ACCOUNT]);
    expect(checkLines(h)).toEqual([
      expect.objectContaining({
        msg: AGREE,
        level: 30,
        positions: 2,
        exchangePositions: 2,
        component: 'positions-check',
      }),
    ]);
    expect(h.daemon.status().positionsCheck).toMatchObject({
      address: ACCOUNT,
      runs: 1,
      running: false,
      last: {
        outcome: 'agree',
        ledgerPositions: 2,
        exchangePositions: 2,
        differences: [],
        error: null,
        atMs: h.clock.now(),
      },
    });

    // A fill recorded while running is part of the next check.
    const bid = h.executor.ordersOf('m1-yes').find((o) => o.price === 490_000);
    h.executor.fill(bid?.id as string, 1.25 * SH);
    h.gw.positions = [position('m1:0', 5.25 * SH), position('m2:1', 2.5 * SH)];
    await h.clock.advanceAsync(PERIOD);
    expect(checkLines(h).map((l) => l.msg)).toEqual([AGREE, AGREE]);
    expect(h.daemon.status().positionsCheck?.runs).toBe(2);
    await h.daemon.stop();
  });

  it('logs each difference at warn with its token, asset and both sizes, and keeps them in status', async () => {
    const h = harness({ positionsCheckMs: PERIOD });
    hold(h, 'm1-yes', 'm1', 4);
    hold(h, 'm2-no', 'm2', 2);
    h.gw.positions = [position('m1:0', 3.5 * SH), position('m2:0', 1 * SH)];
    await started(h);
    await h.clock.advanceAsync(PERIOD);
    expect(checkLines(h)).toEqual([]); // differing: looked at again before anything is reported
    expect(h.daemon.status().positionsCheck?.running).toBe(true);
    await h.clock.advanceAsync(CONFIRM);
    expect(h.gw.positionCalls).toHaveLength(2);
    // One line per difference, in token order.
    expect(checkLines(h)).toEqual([
      expect.objectContaining({
        msg: DIFFER,
        level: 40,
        kind: 'size_mismatch',
        token: 'm1-yes',
        asset: 'm1:0',
        ledgerSize: '4',
        exchangeSize: '3.5',
        diff: '-0.5',
      }),
      expect.objectContaining({
        msg: DIFFER,
        level: 40,
        kind: 'missing_on_exchange',
        token: 'm2-no',
        asset: null,
        ledgerSize: '2',
        exchangeSize: '0',
        diff: '-2',
      }),
      expect.objectContaining({
        msg: DIFFER,
        level: 40,
        kind: 'missing_in_ledger',
        token: 'm2-yes',
        asset: 'm2:0',
        ledgerSize: '0',
        exchangeSize: '1',
        diff: '1',
      }),
    ]);
    const last = h.daemon.status().positionsCheck?.last;
    expect(last?.outcome).toBe('differ');
    expect(last?.unconfirmed).toBe(0);
    expect(last?.differences.map((d) => [d.kind, d.tokenId, d.ledgerSize, d.exchangeSize])).toEqual([
      ['size_mismatch', 'm1-yes', 4 * SH, 3.5 * SH],
      ['missing_on_exchange', 'm2-no', 2 * SH, 0],
      ['missing_in_ledger', 'm2-yes', 0, 1 * SH],
    ]);
    // Nothing is corrected: the ledger is as it was, and the check reports until the sides agree.
    expect(h.ledger.positions({ openOnly: true }).map((p) => [p.tokenId, p.size])).toEqual([
      ['m1-yes', 4 * SH],
      ['m2-no', 2 * SH],
    ]);
    h.gw.positions = [position('m1:0', 4 * SH), position('m2:1', 2 * SH)];
    await h.clock.advanceAsync(PERIOD);
    expect(
      checkLines(h)
        .slice(3)
        .map((l) => l.msg),
    ).toEqual([AGREE]);
    expect(h.daemon.status().positionsCheck?.last?.outcome).toBe('agree');
    await h.daemon.stop();
  });

  it('a difference gone on the second look (a fill the ledger records meanwhile) is not reported', async () => {
    const h = harness({ positionsCheckMs: PERIOD });
    await started(h);
    const bid = h.executor.ordersOf('m1-yes').find((o) => o.price === 490_000);
    // The exchange has matched 2 shares of our bid; the order manager has not looked it up yet.
    h.gw.positions = [position('m1:0', 2 * SH)];
    await h.clock.advanceAsync(PERIOD);
    expect(h.gw.positionCalls).toHaveLength(1);
    h.executor.fill(bid?.id as string, 2 * SH); // ...and now it has
    await h.clock.advanceAsync(CONFIRM);
    expect(h.gw.positionCalls).toHaveLength(2);
    expect(checkLines(h)).toEqual([expect.objectContaining({ msg: AGREE, positions: 1, unconfirmed: 1 })]);
    expect(h.daemon.status().positionsCheck?.last).toMatchObject({ outcome: 'agree', differences: [], unconfirmed: 1 });
    await h.daemon.stop();
  });

  it('resolves indexed assets of a market quoted by one token, or out of the universe, from its settings (fetched once)', async () => {
    // Only m1's second outcome is quoted: the universe lists [m1-no], so index 1 cannot be read
    // from it; m2 is not in the universe at all (a position left from an earlier run).
    const h = harness({ positionsCheckMs: PERIOD, config: { markets: { tokens: ['m1-no'] } } });
    hold(h, 'm1-no', 'm1', 3);
    hold(h, 'm2-yes', 'm2', 1);
    h.gw.positions = [position('m1:1', 3 * SH), position('m2:0', 1 * SH)];
    await started(h);
    expect(h.daemon.status().markets.map((m) => m.tokens)).toEqual([['m1-no']]);
    const settingsAtStart = h.gw.calls.settings.length;
    await h.clock.advanceAsync(PERIOD);
    expect(checkLines(h).map((l) => l.msg)).toEqual([AGREE]);
    await h.clock.advanceAsync(PERIOD);
    expect(checkLines(h).map((l) => l.msg)).toEqual([AGREE, AGREE]);
    expect(h.gw.calls.settings.slice(settingsAtStart).sort()).toEqual(['m1', 'm2']);
    await h.daemon.stop();
  });

  it('answers positions named by token id (the public exchange, paper mode) without any settings request', async () => {
    const h = harness({ positionsCheckMs: PERIOD });
    hold(h, 'm1-no', 'm1', 7);
    h.gw.positions = [position('m1-no', 7 * SH, { conditionId: 'm1', outcomeIndex: 1 })];
    await started(h);
    const settingsAtStart = h.gw.calls.settings.length;
    await h.clock.advanceAsync(PERIOD);
    expect(checkLines(h).map((l) => l.msg)).toEqual([AGREE]);
    expect(h.gw.calls.settings.length).toBe(settingsAtStart);
    await h.daemon.stop();
  });
});

describe('positions check: failures, overlap and stop', () => {
  it('a failed check is logged and recorded, never thrown; the schedule and the quoting go on', async () => {
    const h = harness({ positionsCheckMs: PERIOD });
    hold(h, 'm1-yes', 'm1', 1);
    h.gw.positions = [position('m1:0', 1 * SH)];
    await started(h);
    h.gw.failPositions(1);
    await h.clock.advanceAsync(PERIOD);
    expect(checkLines(h)).toEqual([expect.objectContaining({ msg: FAILED, level: 40, address: ACCOUNT })]);
    expect(h.daemon.status()).toMatchObject({
      state: 'running',
      quoting: true,
      positionsCheck: { runs: 1, last: { outcome: 'error', differences: [] } },
    });
    expect(h.daemon.status().positionsCheck?.last?.error).toContain('503');
    await h.clock.advanceAsync(PERIOD);
    expect(checkLines(h).map((l) => l.msg)).toEqual([FAILED, AGREE]);
    expect(h.daemon.status().cycles).toBeGreaterThan(100);
    await h.daemon.stop();
  });

  it('never overlaps: a run due while one is in flight is skipped, and an operator run joins it', async () => {
    const h = harness({ positionsCheckMs: PERIOD });
    h.gw.positionsLatencyMs = PERIOD * 1.5; // each check outlasts the period
    await started(h);
    await h.clock.advanceAsync(PERIOD + 1); // the first check is in flight
    expect(h.daemon.status().positionsCheck?.running).toBe(true);
    const joined = h.daemon.checkPositions();
    await h.clock.advanceAsync(PERIOD * 1.5); // t = 2.5 P: done; the tick at 2 P was skipped
    expect(h.gw.positionCalls).toHaveLength(1);
    expect((await joined)?.outcome).toBe('agree');
    await h.clock.advanceAsync(PERIOD * 2); // t = 4.5 P: the tick at 3 P ran, to 4.5 P
    expect(h.gw.positionCalls).toHaveLength(2);
    expect(h.daemon.status().positionsCheck?.runs).toBe(2);
    await h.daemon.stop();
  });

  it('stops with the daemon: the check in flight is aborted without a line, and no check runs after', async () => {
    const h = harness({ positionsCheckMs: PERIOD });
    hold(h, 'm1-yes', 'm1', 1);
    h.gw.positions = [position('m1:0', 1 * SH)];
    h.gw.positionsLatencyMs = 10_000;
    await started(h);
    await h.clock.advanceAsync(PERIOD + 1);
    expect(h.gw.positionCalls).toHaveLength(1);
    await h.daemon.stop(); // does not wait for the check's answer
    expect(h.ledger.isOpen).toBe(false);
    await h.clock.advanceAsync(PERIOD * 10);
    expect(h.gw.positionCalls).toHaveLength(1);
    expect(checkLines(h)).toEqual([]);
    expect(h.daemon.status().positionsCheck).toMatchObject({ runs: 0, running: false, last: null });
    expect(await h.daemon.checkPositions()).toBeNull();
    expect(h.clock.pending()).toBe(0);
  });

  it('stops with the daemon while a difference waits for its second look: nothing is reported', async () => {
    const h = harness({ positionsCheckMs: PERIOD });
    h.gw.positions = [position('m1:0', 9 * SH)];
    await started(h);
    await h.clock.advanceAsync(PERIOD + 1);
    expect(h.daemon.status().positionsCheck?.running).toBe(true);
    await h.daemon.stop();
    await h.clock.advanceAsync(CONFIRM + PERIOD);
    expect(h.gw.positionCalls).toHaveLength(1);
    expect(checkLines(h)).toEqual([]);
    expect(h.clock.pending()).toBe(0);
  });

  it('is off without an account address', async () => {
    const h = harness({ positionsCheckMs: PERIOD, address: null });
    await started(h);
    await h.clock.advanceAsync(PERIOD * 3);
    expect(h.gw.positionCalls).toEqual([]);
    expect(h.daemon.status().positionsCheck).toBeNull();
    expect(await h.daemon.checkPositions()).toBeNull();
    await h.daemon.stop();
  });
});

describe('positions check: its schedule in config', () => {
  it('defaults to every 5 minutes; the daemon schedules it with node-cron on ledger.positionsCheckCron', async () => {
    expect(validateConfig({}).ledger.positionsCheckCron).toBe('*/5 * * * *');
    const h = harness();
    const config = validateConfig({ markets: { conditions: ['m1'] }, ledger: { positionsCheckCron: '*/2 * * * *' } });
    const ledger = Ledger.open(':memory:', { clock: h.clock, synchronous: 'NORMAL' });
    const daemon = new Daemon({
      config,
      clock: h.clock,
      gateway: h.gw,
      executor: new FakeExecutor(h.clock, ledger),
      ledger,
      address: ACCOUNT,
      logger: createLogger({ clock: h.clock, level: 'silent' }),
      strategy: tracedBands([]),
    });
    expect(daemon.status().positionsCheck).toMatchObject({
      schedule: 'cron */2 * * * * (UTC)',
      address: ACCOUNT,
      runs: 0,
    });
    await daemon.stop(); // never started: nothing was scheduled
    await h.daemon.stop();
  });

  it('a bad cron expression is a ConfigError naming ledger.positionsCheckCron and the value', () => {
    for (const bad of ['every 5 minutes', '61 * * * *', '']) {
      let err: unknown;
      try {
        validateConfig({ ledger: { positionsCheckCron: bad } });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems;
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain('ledger.positionsCheckCron');
      expect(problems[0]).toContain(JSON.stringify(bad));
    }
    expect(validateConfig({ ledger: { positionsCheckCron: '30 */10 * * * *' } }).ledger.positionsCheckCron).toBe(
      '30 */10 * * * *',
    );
    // The scheduler refuses it too, naming the key it was given.
    expect(() => new CronRefreshScheduler('nope', 'UTC', { path: 'ledger.positionsCheckCron' })).toThrow(
      CronExpressionError,
    );
    expect(() => new CronRefreshScheduler('nope', 'UTC', { path: 'ledger.positionsCheckCron' })).toThrow(
      /^ledger\.positionsCheckCron: not a valid cron expression: "nope"$/,
    );
    expect(() => new CronRefreshScheduler('nope')).toThrow(/^markets\.refreshCron:/);
  });
});
