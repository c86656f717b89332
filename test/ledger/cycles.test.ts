// Cycle log retention: raw rows for the retention window, older ones folded into hourly rows that
// add up exactly (the reward score, share millionths, summed too), compaction every N records.
import { afterEach, describe, expect, it } from 'vitest';
import type { CycleInput } from '../../src/ledger/types.js';
import { testLedger, type TestLedger } from './helpers.js';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 0, 1);
let t: TestLedger;
afterEach(() => t.cleanup());

const cycle = (startedAtMs: number, over: Partial<CycleInput> = {}): CycleInput => ({
  startedAtMs,
  durationMs: 10,
  books: 4,
  quotes: 8,
  placed: 2,
  cancelled: 1,
  fills: 0,
  errors: 0,
  ...over,
});

describe('cycles', () => {
  it('keeps recent cycles raw and folds older ones into hourly totals', () => {
    t = testLedger({ start: START, cycleRetentionMs: 2 * HOUR, cycleCompactEvery: 1_000_000 });
    // 3 hours of cycles every 10 minutes, durations 1..18.
    for (let i = 0; i < 18; i++) {
      t.ledger.recordCycle(
        cycle(START + i * 600_000, {
          durationMs: i + 1,
          errors: i % 5 === 0 ? 1 : 0,
          rewardScore: (i + 1) * 1_500_000,
        }),
      );
    }
    t.clock.advanceTo(START + 3 * HOUR);
    expect(t.ledger.compactCycles()).toBe(6); // the first hour is past the 2 h retention
    expect(t.ledger.recentCycles(100)).toHaveLength(12);
    expect(t.ledger.cycleHours()).toEqual([
      {
        hourMs: START,
        cycles: 6,
        durationSumMs: 1 + 2 + 3 + 4 + 5 + 6,
        durationMaxMs: 6,
        books: 24,
        quotes: 48,
        placed: 12,
        cancelled: 6,
        fills: 0,
        errors: 2,
        rewardScore: 21 * 1_500_000,
      },
    ]);
    // Folding the same hour in two passes adds up.
    t.clock.advanceTo(START + 3 * HOUR + 30 * 60_000);
    expect(t.ledger.compactCycles()).toBe(3);
    expect(t.ledger.cycleHours()).toEqual([
      expect.objectContaining({ hourMs: START, cycles: 6 }),
      expect.objectContaining({ hourMs: START + HOUR, cycles: 3, durationSumMs: 7 + 8 + 9, durationMaxMs: 9 }),
    ]);
    t.clock.advanceTo(START + 4 * HOUR);
    t.ledger.compactCycles();
    expect(t.ledger.cycleHours().find((h) => h.hourMs === START + HOUR)).toMatchObject({
      cycles: 6,
      durationSumMs: 7 + 8 + 9 + 10 + 11 + 12,
      durationMaxMs: 12,
      rewardScore: (7 + 8 + 9 + 10 + 11 + 12) * 1_500_000,
    });
  });

  it('compacts on its own every N recorded cycles', () => {
    t = testLedger({ memory: true, start: START, cycleRetentionMs: HOUR, cycleCompactEvery: 10 });
    for (let i = 0; i < 25; i++) {
      t.ledger.recordCycle(cycle(t.clock.now()));
      t.clock.advance(10 * 60_000);
    }
    // The 10th record (t = START + 90 min) folds rows before START + 30 min, the 20th (t = START +
    // 190 min) those before START + 130 min: cycles 0..12; the 25th does not compact.
    const raw = t.ledger.recentCycles(100);
    const folded = t.ledger.cycleHours().reduce((s, h) => s + h.cycles, 0);
    expect(raw.length + folded).toBe(25);
    expect(folded).toBe(13);
  });

  it('refuses negative or fractional counters', () => {
    t = testLedger({ memory: true });
    expect(() => t.ledger.recordCycle(cycle(START, { placed: -1 }))).toThrow(/placed/);
    expect(() => t.ledger.recordCycle(cycle(START, { durationMs: 1.5 }))).toThrow(/durationMs/);
    // The score is stored in share millionths: a float in shares is a caller's bug, not rounded here.
    expect(() => t.ledger.recordCycle(cycle(START, { rewardScore: 8.888 }))).toThrow(/rewardScore/);
    expect(() => t.ledger.recordCycle(cycle(START, { rewardScore: -1 }))).toThrow(/rewardScore/);
    expect(t.ledger.recentCycles()).toEqual([]);
  });

  it('round-trips the reward score, 0 when the caller gives none', () => {
    t = testLedger({ memory: true, start: START });
    t.ledger.recordCycle(cycle(START, { rewardScore: 8_888_889 }));
    t.ledger.recordCycle(cycle(START + 1_000));
    t.ledger.recordCycle(cycle(START + 2_000, { rewardScore: Number.MAX_SAFE_INTEGER }));
    expect(t.ledger.recentCycles().map((c) => c.rewardScore)).toEqual([Number.MAX_SAFE_INTEGER, 0, 8_888_889]);
    expect(t.ledger.recentCycles(1)[0]).toEqual({
      seq: 3,
      ...cycle(START + 2_000),
      rewardScore: Number.MAX_SAFE_INTEGER,
    });
  });
});
