// The backtest's equity sampler (src/backtest/equity-sampler.ts) against a full valuation of every
// cycle: on random sequences of ledger writes (some moving positions, most not) and mark changes,
// every sample holds the numbers a fresh valuation gives, and an inventory equal to the previous
// sample's is that same list (a run keeps it once).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EquitySampler, type SampledLedger } from '../../src/backtest/equity-sampler.js';
import type { EquitySample } from '../../src/backtest/types.js';
import type { Price } from '../../src/core/money.js';
import { unrealizedPnl } from '../../src/core/pnl.js';
import type { LedgerPosition } from '../../src/ledger/types.js';
import { ledgerPosition as position } from '../ledger/helpers.js';

const TOKENS = ['tok-a', 'tok-b', 'tok-c'];
const CAPITAL = 1_000_000_000;

/** A step: a ledger write (new sizes for some tokens, or none), a new mark, or a sample. */
const stepArb = fc.oneof(
  fc.record({
    k: fc.constant('write' as const),
    token: fc.integer({ min: 0, max: 2 }),
    size: fc.option(fc.integer({ min: -3, max: 3 }), { nil: null }),
  }),
  fc.record({
    k: fc.constant('mark' as const),
    token: fc.integer({ min: 0, max: 2 }),
    mid: fc.option(fc.integer({ min: 1, max: 999 }), { nil: null }),
  }),
  fc.constant({ k: 'sample' as const }),
);

describe('EquitySampler', () => {
  it('samples what a full valuation of each cycle gives, and keeps an unchanged inventory as one list (property)', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 80 }), (steps) => {
        const sizes = new Map<string, number>();
        let operations = 0;
        // As the in-memory ledger: a position is a new object when it changes, else the same one.
        const views = new Map<string, LedgerPosition>();
        const positions = (): LedgerPosition[] =>
          TOKENS.filter((t) => sizes.has(t)).map((t) => {
            const n = sizes.get(t) as number;
            let v = views.get(t);
            if (v === undefined || v.size !== n * 1_000_000) {
              v = position(t, n * 1_000_000, n * 400_000, n * 1_000);
              views.set(t, v);
            }
            return v;
          });
        const ledger: SampledLedger = {
          get operations() {
            return operations;
          },
          positions,
        };
        const lastMid = new Map<string, number | null>();
        const samples: EquitySample[] = [];
        const sampler = new EquitySampler(ledger, CAPITAL, lastMid, samples);
        let t = 0;
        for (const s of steps) {
          if (s.k === 'write') {
            // A write: a position moves (or is opened or closed), or nothing moves (a placement).
            operations++;
            if (s.size !== null) sizes.set(TOKENS[s.token] as string, s.size);
          } else if (s.k === 'mark') {
            lastMid.set(TOKENS[s.token] as string, s.mid === null ? null : s.mid * 1_000);
          } else {
            sampler.sample(++t, 0, 0);
            const got = samples.at(-1) as EquitySample;
            const all = positions();
            let unrealized = 0;
            for (const p of all) {
              const m = lastMid.get(p.tokenId) ?? null;
              if (p.size !== 0 && m !== null) unrealized += unrealizedPnl(p, m as Price);
            }
            const realized = all.reduce((a, p) => a + p.realized, 0);
            expect(got).toEqual({
              t,
              equity: CAPITAL + realized + unrealized,
              pnl: realized + unrealized,
              realized,
              unrealized,
              fees: 0,
              inventory: all.filter((p) => p.size !== 0).map((p) => [p.tokenId, p.size]),
              quotes: 0,
              openOrders: 0,
            });
            const prev = samples.at(-2);
            if (prev !== undefined && JSON.stringify(prev.inventory) === JSON.stringify(got.inventory))
              expect(got.inventory).toBe(prev.inventory);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
