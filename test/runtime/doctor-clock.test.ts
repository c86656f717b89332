// The doctor's clock check (runtime/doctor/exchange-checks.ts checkClock) against an exchange that
// answers GET /time in whole seconds, as Polymarket's does (py-clob-client-v2 get_server_time reads
// an integer). For any true skew, local time and round trip: a FAIL's "at least X s" never claims
// more than the true skew and names its direction; a skew within the allowance always passes; a
// skew beyond the allowance by more than the answer's second and the round trip always fails.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DoctorContext } from '../../src/runtime/doctor/context.js';
import { checkClock } from '../../src/runtime/doctor/exchange-checks.js';

/** A context whose clock reads `before`, then `after`; the exchange reads its time at `atLocal`. */
function context(before: number, after: number, atLocal: number, skewMs: number, maxSkewMs: number): DoctorContext {
  const reads = [before, after];
  return {
    clock: { now: () => reads.shift() ?? after },
    client: { getServerTime: () => Promise.resolve(Math.floor((atLocal + skewMs) / 1000)) },
    maxSkewMs,
  } as unknown as DoctorContext;
}

const BOUND = /^the local clock is at least (\d+\.\d) s (ahead of|behind) the exchange's \(allowed [\d.]+ s\)$/;

describe('doctor clock check', () => {
  it('claims no more skew than there is, passes what is allowed, fails what is clearly not', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }),
        fc.integer({ min: 0, max: 2_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: -120_000, max: 120_000 }),
        fc.integer({ min: 0, max: 30_000 }),
        async (before, rtt, where, skew, allowed) => {
          const after = before + rtt;
          const atLocal = before + Math.floor(where * rtt);
          const out = await checkClock(context(before, after, atLocal, skew, allowed));
          if (Math.abs(skew) <= allowed) expect(out.ok).toBe(true);
          if (Math.abs(skew) > allowed + 1000 + rtt) expect(out.ok).toBe(false);
          if (!out.ok) {
            const m = BOUND.exec(out.problem);
            expect(m, out.problem).not.toBeNull();
            expect(Number(m![1]) * 1000).toBeLessThanOrEqual(Math.abs(skew));
            expect(m![2]).toBe(skew > 0 ? 'behind' : 'ahead of');
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('a 60 s skew with the exchange at the start of its second prints a bound at or just under 60 s', async () => {
    const before = Date.UTC(2026, 10, 26, 12, 0, 0, 999);
    const out = await checkClock(context(before, before + 3, before + 1, 60_000, 5_000));
    expect(out.ok).toBe(false);
    expect(!out.ok && out.problem).toMatch(/^the local clock is at least 59\.9 s behind/);
  });
});
