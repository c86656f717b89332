// Resolution payoffs in a backtest: a synthetic recording (helpers.ts' market and book ladders)
// whose YES book is 0.49 / 0.51, locked at 0.49 from T0 + 10 s to T0 + 12 s (a recorded ask
// reaches our resting 0.49 bid: 10 YES bought), then 0.49 / 0.51 again, so the daemon quotes
// around it; a RESOLVED record at T0 + 20 s settles the market. YES wins: the 10 shares pay
// 1 each (PnL + 10 × (1 − 0.49) net of fees); NO wins: they pay 0 (the cost is lost). Either way
// the resting orders are cancelled by the resolution, nothing is accepted or filled on the market
// after it, its later books are ignored, the marks become the payouts, the report lists the
// settlement and counts it in its PnL, and equal inputs give byte-identical JSON.
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/backtest/engine.js';
import { reportInputFromBacktest } from '../../src/backtest/report/from-backtest.js';
import { computeReport, renderHtml } from '../../src/backtest/report/index.js';
import type { BacktestResult } from '../../src/backtest/types.js';
import { RecordingReader, type RecordingEvent } from '../../src/marketdata/recording/reader.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Level } from '../../src/core/book.js';
import { VirtualClock } from '../../src/core/clock.js';
import { SCALE, type Price, type Shares } from '../../src/core/money.js';
import { RecordingWriter } from '../../src/marketdata/recording/writer.js';
import { COND, NO, T0, testConfig, YES } from './helpers.js';

const T_RES = T0 + 20_000;

const u = (x: number): number => Math.round(x * SCALE);

function ladder(best: number, dir: 1 | -1): Level[] {
  const out: Level[] = [];
  for (let i = 0; i < 20; i++) {
    const p = u(best) + dir * i * u(0.01);
    if (p > 0 && p < SCALE) out.push({ price: p as Price, size: u(100) as Shares });
  }
  return out;
}

const mirror = (ls: readonly Level[]): Level[] => ls.map((l) => ({ price: (SCALE - l.price) as Price, size: l.size }));

/**
 * A book pair every 500 ms for `durationMs`; asks down to 0.49 (locked) in [10 s, 12 s); with
 * `resolve`, a RESOLVED record after the books of T_RES (exchange time 250 ms earlier).
 */
async function writeRecording(durationMs: number, resolve?: string): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'om-resolution-')), 'r.omrc');
  const clock = new VirtualClock(T0);
  const w = await RecordingWriter.open(path);
  for (const tokenId of [YES, NO]) {
    w.settings(
      {
        tokenId,
        conditionId: COND,
        tickSize: u(0.01) as Price,
        minOrderSize: u(5) as Shares,
        negRisk: false,
        makerFeeBps: 100,
        takerFeeBps: 0,
        rewards: null,
      },
      T0,
      T0,
    );
  }
  while (clock.now() - T0 <= durationMs) {
    const since = clock.now() - T0;
    const bids = ladder(0.49, -1);
    const asks = ladder(since >= 10_000 && since < 12_000 ? 0.49 : 0.51, 1);
    w.book(YES, clock.now(), clock.now(), { bids, asks });
    w.book(NO, clock.now(), clock.now(), { bids: mirror(asks), asks: mirror(bids) });
    if (resolve !== undefined && clock.now() === T_RES) w.resolved(COND, resolve, T_RES - 250, T_RES);
    clock.advance(500);
  }
  await w.close();
  return path;
}

function resolvedEvent(winner: string, at = T_RES, conditionId = COND): RecordingEvent {
  return { kind: 'resolved', tokenId: winner, conditionId, exchangeTs: at - 250, localTs: at, restated: false };
}

/** A recording's events, each book taken while it is current (the reader's book() is lazy). */
async function readEvents(path: string): Promise<RecordingEvent[]> {
  const out: RecordingEvent[] = [];
  for await (const e of RecordingReader.fromFile(path)) {
    if (e.kind === 'book' || e.kind === 'delta') {
      const b = e.book();
      out.push({ ...e, book: () => b });
    } else {
      out.push(e);
    }
  }
  return out;
}

/** The synthetic recording's events with a RESOLVED record inserted after every event up to `at`. */
async function withResolution(
  winner: string,
  opts: { at?: number; extra?: RecordingEvent[] } = {},
): Promise<RecordingEvent[]> {
  const at = opts.at ?? T_RES;
  const events = await readEvents(await writeRecording(40_000));
  const i = events.findIndex((e) => e.localTs > at);
  return [...events.slice(0, i), resolvedEvent(winner, at), ...(opts.extra ?? []), ...events.slice(i)];
}

/** Σ of the fills' signed cash flows: proceeds of sells − cost of buys − fees. */
function cashFlows(r: BacktestResult): number {
  return r.fills.reduce((s, f) => s + (f.side === 'SELL' ? f.notional : -f.notional) - f.feeMicros, 0);
}

function heldAt(r: BacktestResult, token: string, t: number): number {
  return r.fills
    .filter((f) => f.tokenId === token && f.timeMs <= t)
    .reduce((s, f) => s + (f.side === 'BUY' ? f.size : -f.size), 0);
}

function checkStoppedTrading(r: BacktestResult): void {
  const res = r.resolutions[0]!;
  // The bands strategy had a bid and an ask resting: the resolution cancelled them.
  expect(res.ordersCanceled).toBeGreaterThan(0);
  // Nothing of the market traded, rested or was accepted after the event; whatever the daemon
  // still sent before its data went stale was refused by the venue.
  expect(r.venueFills.every((f) => f.timeMs <= T_RES)).toBe(true);
  for (const o of r.orders.filter((x) => x.createdAtMs > T_RES)) expect(o.state).toBe('rejected');
  expect(r.orders.every((o) => o.state !== 'live')).toBe(true);
  // (one sent at the event's very instant, after it, is refused too)
  expect(
    r.orders
      .filter((o) => o.createdAtMs <= T_RES && o.sizeMatched === 0)
      .every((o) => o.state === 'canceled' || o.state === 'rejected'),
  ).toBe(true);
  expect(r.orders.filter((o) => o.state === 'canceled' && o.stateAtMs >= T_RES)).toHaveLength(res.ordersCanceled);
  // The cycles well after the event quote nothing (stale data) and hold nothing. (Cadence
  // `update` samples only cycles that changed something: the last sample then holds to the end.)
  const late = r.equity.filter((e) => e.t > T_RES + 10_000);
  const holding = late.length > 0 ? late : r.equity.slice(-1);
  expect(holding.length).toBeGreaterThan(0);
  expect(holding[0]!.t).toBeGreaterThan(T_RES);
  for (const e of holding) expect([e.quotes, e.openOrders, e.inventory.length]).toEqual([0, 0, 0]);
  // The later books are ignored: the marks stay at the payouts.
  const winner = res.winnerTokenId;
  for (const tok of [YES, NO]) {
    const series = r.mids[tok]!;
    expect([series.t.at(-1), series.mid.at(-1)]).toEqual([T_RES, tok === winner ? 1_000_000 : 0]);
  }
}

describe('backtest resolution payoffs', () => {
  it('YES wins: the YES inventory pays 1 a share, minus its cost, in the ledger, the result and the report', async () => {
    const r = await runBacktest({ recording: await withResolution(YES), config: testConfig(), seed: 7 });
    const held = heldAt(r, YES, T_RES + 5_000);
    expect(held).toBe(10_000_000);
    expect(r.resolutions).toHaveLength(1);
    const res = r.resolutions[0]!;
    const buy = r.fills.find((f) => f.tokenId === YES && f.side === 'BUY')!;
    expect(res).toMatchObject({
      conditionId: COND,
      winnerTokenId: YES,
      timeMs: T_RES,
      exchangeTimeMs: T_RES - 250,
      sharesSettled: 10_000_000,
      payout: 10_000_000,
    });
    expect(res.tokens.slice().sort()).toEqual([YES, NO].sort());
    expect(res.settlements).toEqual([
      {
        tokenId: YES,
        payout: 1_000_000,
        shares: 10_000_000,
        proceeds: 10_000_000,
        realized: 10_000_000 - buy.notional,
        recordedAtMs: T_RES,
      },
    ]);
    expect(res.realized).toBe(10_000_000 - 4_900_000);
    // Total PnL = the fills' cash flows + the payout of the shares held; nothing left to mark.
    expect(r.pnl.total).toBe(cashFlows(r) + 10_000_000);
    expect(r.pnl.total).toBe(10_000_000 - 4_900_000 - buy.feeMicros);
    expect(r.pnl.unrealized).toBe(0);
    expect(r.pnl.positions).toEqual([]);
    // Equity after the settlement is capital + that PnL.
    expect(r.equity.at(-1)!.pnl).toBe(r.pnl.total);
    expect(r.equity.at(-1)!.equity).toBe(r.capital + r.pnl.total);
    checkStoppedTrading(r);

    const input = reportInputFromBacktest(r);
    const report = computeReport(input);
    // The report's PnL is the ledger's (one PnL): realized net of the fee.
    expect(report.pnl).toEqual({
      totalMicros: r.pnl.total,
      realizedMicros: r.pnl.realized,
      unrealizedMicros: 0,
      feesMicros: buy.feeMicros,
      unmarkedTokens: [],
    });
    expect(r.pnl.realized).toBe(10_000_000 - 4_900_000 - buy.feeMicros);
    expect(report.settlements).toEqual([
      {
        conditionId: COND,
        winnerTokenId: YES,
        timeMs: T_RES,
        tokens: [
          {
            tokenId: YES,
            payout: 1_000_000,
            sharesMicros: 10_000_000,
            payoutMicros: 10_000_000,
            realizedMicros: 5_100_000,
          },
        ],
        sharesMicros: 10_000_000,
        payoutMicros: 10_000_000,
        realizedMicros: 5_100_000,
      },
    ]);
    expect(renderHtml(report, input)).toContain('Settlements');
  }, 60_000);

  it('NO wins: the YES inventory pays 0 and its cost is lost', async () => {
    const r = await runBacktest({ recording: await withResolution(NO), config: testConfig(), seed: 7 });
    const buy = r.fills.find((f) => f.tokenId === YES && f.side === 'BUY')!;
    const res = r.resolutions[0]!;
    expect(res).toMatchObject({ winnerTokenId: NO, sharesSettled: 10_000_000, payout: 0, realized: -buy.notional });
    expect(res.settlements).toEqual([
      { tokenId: YES, payout: 0, shares: 10_000_000, proceeds: 0, realized: -4_900_000, recordedAtMs: T_RES },
    ]);
    expect(r.pnl.total).toBe(cashFlows(r));
    expect(r.pnl.total).toBe(-4_900_000 - buy.feeMicros);
    expect(r.pnl.positions).toEqual([]);
    checkStoppedTrading(r);
    const report = computeReport(reportInputFromBacktest(r));
    expect(report.pnl.totalMicros).toBe(r.pnl.total);
    expect(report.settlements[0]).toMatchObject({ winnerTokenId: NO, payoutMicros: 0, realizedMicros: -4_900_000 });
  }, 60_000);

  it('with cadence `update` too, the resolved market is no longer pushed to the daemon', async () => {
    const r = await runBacktest({
      recording: await withResolution(YES),
      config: testConfig(),
      seed: 7,
      cadence: 'update',
    });
    expect(r.resolutions[0]).toMatchObject({ winnerTokenId: YES, sharesSettled: 10_000_000, payout: 10_000_000 });
    expect(r.pnl.total).toBe(cashFlows(r) + 10_000_000);
    checkStoppedTrading(r);
  }, 60_000);

  it('a RESOLVED record written to a recording file replays the same as the event list', async () => {
    const fromFile = await runBacktest({ recording: await writeRecording(40_000, NO), config: testConfig(), seed: 5 });
    const fromList = await runBacktest({ recording: await withResolution(NO), config: testConfig(), seed: 5 });
    expect(fromFile.resolutions).toHaveLength(1);
    expect(JSON.stringify(fromFile)).toBe(JSON.stringify(fromList));
  }, 60_000);

  it('a repeated record changes nothing; the same inputs give byte-identical JSON', async () => {
    const events = await withResolution(YES, { extra: [resolvedEvent(YES, T_RES)] });
    const a = JSON.stringify(await runBacktest({ recording: events, config: testConfig(), seed: 11 }));
    const b = JSON.stringify(await runBacktest({ recording: events, config: testConfig(), seed: 11 }));
    expect(a).toBe(b);
    const once = JSON.stringify(
      await runBacktest({ recording: await withResolution(YES), config: testConfig(), seed: 11 }),
    );
    // One more event read, otherwise the same run.
    expect(a.replace(/"events":\d+/, '')).toBe(once.replace(/"events":\d+/, ''));
    expect((JSON.parse(a) as BacktestResult).resolutions).toHaveLength(1);
  }, 60_000);

  it('refuses a recording that resolves a market twice for different winners, or for a token not of it', async () => {
    const twice = await withResolution(YES, { extra: [resolvedEvent(NO, T_RES)] });
    await expect(runBacktest({ recording: twice, config: testConfig(), seed: 1 })).rejects.toThrow(
      /resolves market .* twice/,
    );
    const stranger = await withResolution('12345');
    await expect(runBacktest({ recording: stranger, config: testConfig(), seed: 1 })).rejects.toThrow(
      /not one of its tokens/,
    );
  }, 60_000);

  it('a resolution recorded before the daemon starts leaves nothing to replay for that market', async () => {
    const events = await readEvents(await writeRecording(5_000));
    const firstBook = events.findIndex((e) => e.kind === 'book');
    const early = [...events.slice(0, firstBook), resolvedEvent(YES, T0), ...events.slice(firstBook)];
    await expect(runBacktest({ recording: early, config: testConfig(), seed: 1 })).rejects.toThrow(/nothing to replay/);
  }, 60_000);
});
