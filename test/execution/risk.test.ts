// Risk checks: each check drops with its reason; the kill switch trips at the daily-loss limit and
// stays tripped until cleared; a token and its complement are netted as one market; and a
// property: from flat positions, whatever the quotes, the accepted set keeps every limit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Micros, Price, Shares } from '../../src/core/money.js';
import type { Side } from '../../src/core/order.js';
import type { DesiredQuote } from '../../src/core/quote.js';
import {
  checkRisk,
  clearKillSwitch,
  KILL_SWITCH_ARMED,
  lossTripLevel,
  marketExposures,
  tripKillSwitch,
  updateKillSwitch,
  type RiskLimits,
  type RiskState,
  type TokenRiskInfo,
} from '../../src/execution/risk.js';

const SH = 1_000_000;
const NOW = Date.UTC(2026, 0, 1, 12);

function q(tokenId: string, side: Side, price: number, shares: number): DesiredQuote {
  return { tokenId, side, price: Math.round(price * SH) as Price, size: Math.round(shares * SH) as Shares };
}

function token(
  tokenId: string,
  marketId: string,
  complementTokenId: string | null,
  mark: number | null,
  extra: Partial<TokenRiskInfo> = {},
): TokenRiskInfo {
  return {
    tokenId,
    marketId,
    complementTokenId,
    tickSize: 10_000 as Price,
    minOrderSize: (5 * SH) as Shares,
    acceptingOrders: true,
    mark: mark === null ? null : (Math.round(mark * SH) as Price),
    dataAtMs: NOW - 1_000,
    ...extra,
  };
}

const TOKENS = [
  token('Y', 'M1', 'N', 0.6),
  token('N', 'M1', 'Y', 0.4),
  token('Z', 'M2', 'Z2', 0.5),
  token('Z2', 'M2', 'Z', 0.5),
];

function state(
  over: Partial<RiskState> = {},
  positions: Record<string, number> = {},
  tokens: readonly TokenRiskInfo[] = TOKENS,
): RiskState {
  return {
    nowMs: NOW,
    tokens: new Map(tokens.map((t) => [t.tokenId, t])),
    positions: new Map(Object.entries(positions).map(([k, v]) => [k, Math.round(v * SH) as Shares])),
    collateral: null,
    dailyPnl: 0 as Micros,
    day: '2026-01-01',
    killSwitch: KILL_SWITCH_ARMED,
    ...over,
  };
}

function limits(over: Partial<RiskLimits> = {}): RiskLimits {
  return {
    market: { maxPosition: null, maxNotional: null },
    maxTotalExposure: null,
    dailyLossLimit: null,
    maxDataAgeMs: 5_000,
    ...over,
  };
}

const reasons = (r: ReturnType<typeof checkRisk>): string[] => r.dropped.map((d) => d.reason);

describe('risk: per-quote checks', () => {
  it('accepts a sound quote set unchanged, in order', () => {
    const quotes = [q('Y', 'BUY', 0.58, 10), q('N', 'BUY', 0.38, 10), q('Z', 'BUY', 0.01, 5), q('Z', 'BUY', 0.99, 5)];
    const r = checkRisk(quotes, state(), limits());
    expect(r.accepted).toEqual(quotes);
    expect(r.dropped).toEqual([]);
    expect(r.killSwitch).toBe(KILL_SWITCH_ARMED);
  });

  it('drops quotes on unknown tokens', () => {
    expect(reasons(checkRisk([q('X', 'BUY', 0.5, 10)], state(), limits()))).toEqual(['unknown-token']);
  });

  it('pulls quotes on stale or missing data', () => {
    const st = state({}, {}, [
      token('Y', 'M1', 'N', 0.6, { dataAtMs: NOW - 5_001 }),
      token('N', 'M1', 'Y', 0.4, { dataAtMs: null }),
      token('Z', 'M2', null, 0.5, { dataAtMs: NOW - 5_000 }),
    ]);
    const r = checkRisk([q('Y', 'BUY', 0.5, 10), q('N', 'BUY', 0.3, 10), q('Z', 'BUY', 0.4, 10)], st, limits());
    expect(reasons(r)).toEqual(['stale-data', 'stale-data']);
    expect(r.dropped[0]?.detail).toMatch(/5001 ms old/);
    expect(r.accepted.map((x) => x.tokenId)).toEqual(['Z']);
  });

  it('drops quotes on a market that does not accept orders', () => {
    const st = state({}, {}, [token('Y', 'M1', null, 0.6, { acceptingOrders: false })]);
    expect(reasons(checkRisk([q('Y', 'BUY', 0.5, 10)], st, limits()))).toEqual(['market-closed']);
  });

  it('drops sizes that are not a positive whole number of 0.01 shares', () => {
    const r = checkRisk(
      [q('Y', 'BUY', 0.5, 0), q('Y', 'BUY', 0.5, 10.005), { ...q('Y', 'BUY', 0.5, 1), size: Number.NaN as Shares }],
      state(),
      limits(),
    );
    expect(reasons(r)).toEqual(['bad-size', 'bad-size', 'bad-size']);
  });

  it('drops prices off the tick and outside [tick, 1 − tick]', () => {
    const r = checkRisk(
      [q('Y', 'BUY', 0.505, 10), q('Y', 'BUY', 0, 10), q('Y', 'SELL', 1, 10), q('Y', 'BUY', 0.01, 10)],
      state({}, { Y: 10 }),
      limits(),
    );
    expect(reasons(r)).toEqual(['off-tick', 'price-out-of-range', 'price-out-of-range']);
    expect(r.dropped[0]?.detail).toBe('price 0.505 is not on tick 0.01');
    // the tick is the token's current one
    const fine = state({}, {}, [token('Y', 'M1', null, 0.6, { tickSize: 1_000 as Price })]);
    expect(checkRisk([q('Y', 'BUY', 0.505, 10)], fine, limits()).accepted).toHaveLength(1);
  });

  it('drops sizes below the market minimum', () => {
    const r = checkRisk([q('Y', 'BUY', 0.5, 4.99), q('Y', 'BUY', 0.49, 5)], state(), limits());
    expect(reasons(r)).toEqual(['below-min-size']);
    expect(r.dropped[0]?.detail).toBe('size 4.99 < minimum 5');
  });

  it('drops sells beyond the shares held, counting earlier sells', () => {
    const r = checkRisk(
      [q('Y', 'SELL', 0.62, 6), q('Y', 'SELL', 0.63, 6), q('N', 'SELL', 0.45, 5)],
      state({}, { Y: 8 }),
      limits(),
    );
    expect(r.accepted).toEqual([q('Y', 'SELL', 0.62, 6)]);
    expect(reasons(r)).toEqual(['insufficient-inventory', 'insufficient-inventory']);
  });

  it('drops bids beyond the collateral, counting earlier bids', () => {
    // 10 × 0.50 = 5, then 10 × 0.40 = 4 → 9 > 8; then 5 × 0.40 = 2 → 7 fits
    const r = checkRisk(
      [q('Y', 'BUY', 0.5, 10), q('Y', 'BUY', 0.4, 10), q('Z', 'BUY', 0.4, 5)],
      state({ collateral: (8 * SH) as Micros }),
      limits(),
    );
    expect(reasons(r)).toEqual(['insufficient-collateral']);
    expect(r.accepted).toHaveLength(2);
  });

  it('bounds the worst-case position: outer quotes of a side are dropped first', () => {
    const r = checkRisk(
      [q('Y', 'BUY', 0.59, 40), q('Y', 'BUY', 0.58, 40), q('Y', 'BUY', 0.57, 20), q('Y', 'BUY', 0.56, 5)],
      state(),
      limits({ market: { maxPosition: (100 * SH) as Shares, maxNotional: null } }),
    );
    expect(r.accepted.map((x) => x.price)).toEqual([590_000, 580_000, 570_000]);
    expect(reasons(r)).toEqual(['max-position']);
    expect(r.dropped[0]?.detail).toBe('worst-case position 105 in M1 beyond 100');
  });

  it('bounds the worst-case notional at the mark of the side held', () => {
    // mark Y 0.60: 10 shares long = 6; limit 7 → a further 5 would be 9
    const r = checkRisk(
      [q('Y', 'BUY', 0.5, 10), q('Y', 'BUY', 0.49, 5), q('N', 'BUY', 0.3, 10)],
      state(),
      limits({ market: { maxPosition: null, maxNotional: (7 * SH) as Micros } }),
    );
    expect(reasons(r)).toEqual(['max-notional']);
    // the No side is the other direction: 10 long No at 0.40 = 4 ≤ 7
    expect(r.accepted.map((x) => x.tokenId)).toEqual(['Y', 'N']);
  });

  it('applies per-market overrides', () => {
    const l = limits({
      market: { maxPosition: (100 * SH) as Shares, maxNotional: null },
      perMarket: new Map([['M2', { maxPosition: (5 * SH) as Shares }]]),
    });
    const r = checkRisk([q('Y', 'BUY', 0.5, 50), q('Z', 'BUY', 0.4, 5), q('Z', 'BUY', 0.39, 5)], state(), l);
    expect(reasons(r)).toEqual(['max-position']);
    expect(r.dropped[0]?.quote).toEqual(q('Z', 'BUY', 0.39, 5));
  });

  it('bounds the total exposure over markets', () => {
    // Y 10 long at 0.60 = 6, Z 10 long at 0.50 = 5 → 11 > 10
    const r = checkRisk(
      [q('Y', 'BUY', 0.5, 10), q('Z', 'BUY', 0.4, 10), q('Z', 'BUY', 0.4, 5)],
      state(),
      limits({ maxTotalExposure: (10 * SH) as Micros }),
    );
    expect(reasons(r)).toEqual(['max-total-exposure']);
    expect(r.dropped[0]?.detail).toBe('total exposure 11 beyond 10');
    expect(r.accepted).toEqual([q('Y', 'BUY', 0.5, 10), q('Z', 'BUY', 0.4, 5)]);
  });
});

describe('risk: a token and its complement are one market', () => {
  const maxPos = limits({ market: { maxPosition: (100 * SH) as Shares, maxNotional: null } });

  it('nets No holdings against Yes quotes: quotes that reduce the net position pass, growing ones drop', () => {
    const st = state({}, { N: 100 }); // net −100 Yes-equivalent: at the limit
    const r = checkRisk(
      [q('N', 'BUY', 0.38, 5), q('Y', 'BUY', 0.58, 50), q('N', 'SELL', 0.42, 50), q('Y', 'BUY', 0.57, 150)],
      st,
      maxPos,
    );
    expect(r.accepted).toEqual([q('Y', 'BUY', 0.58, 50), q('N', 'SELL', 0.42, 50)]);
    expect(r.dropped.map((d) => [d.quote.tokenId, d.quote.side, d.reason])).toEqual([
      ['N', 'BUY', 'max-position'],
      ['Y', 'BUY', 'max-position'],
    ]);
  });

  it('a hedged pair (Yes and No held alike) carries no exposure', () => {
    const st = state({}, { Y: 100, N: 100, Z: 100 });
    expect(marketExposures(st, maxPos)).toEqual(
      new Map([
        ['M1', 0],
        ['M2', 50 * SH],
      ]),
    );
    // Counted per token, 100 Y + 100 N + 100 Z would be far over 60; netted per market it is 50.
    const r = checkRisk([q('Y', 'BUY', 0.5, 10)], st, limits({ maxTotalExposure: (60 * SH) as Micros }));
    expect(r.accepted).toHaveLength(1);
    const over = checkRisk([q('Y', 'BUY', 0.5, 20)], st, limits({ maxTotalExposure: (60 * SH) as Micros }));
    expect(reasons(over)).toEqual(['max-total-exposure']); // 50 + 20 × 0.60 = 62
  });

  it('reduces an over-limit position whatever the limit', () => {
    const st = state({}, { Y: 300 });
    const r = checkRisk([q('Y', 'SELL', 0.61, 100), q('Y', 'BUY', 0.55, 5), q('N', 'BUY', 0.39, 50)], st, maxPos);
    expect(r.accepted).toEqual([q('Y', 'SELL', 0.61, 100), q('N', 'BUY', 0.39, 50)]);
    expect(reasons(r)).toEqual(['max-position']);
  });

  it('values an unmarked market at 1 per share', () => {
    const st = state({}, {}, [token('Y', 'M1', 'N', null), token('N', 'M1', 'Y', null)]);
    const r = checkRisk(
      [q('Y', 'BUY', 0.5, 10), q('N', 'BUY', 0.5, 11)],
      st,
      limits({ market: { maxPosition: null, maxNotional: (10 * SH) as Micros } }),
    );
    expect(reasons(r)).toEqual(['max-notional']);
    // the complement's mark values the other side when one is known
    const half = state({}, {}, [token('Y', 'M1', 'N', 0.2), token('N', 'M1', 'Y', null)]);
    expect(
      checkRisk(
        [q('N', 'BUY', 0.5, 12)],
        half,
        limits({ market: { maxPosition: null, maxNotional: (10 * SH) as Micros } }),
      ).accepted,
    ).toHaveLength(1);
  });
});

describe('risk: kill switch', () => {
  const l = limits({ dailyLossLimit: (100 * SH) as Micros });
  const quotes = [q('Y', 'BUY', 0.5, 10), q('N', 'BUY', 0.3, 10)];

  it("trips when the day's loss reaches the limit and pulls every quote", () => {
    const near = checkRisk(quotes, state({ dailyPnl: (-100 * SH + 1) as Micros }), l);
    expect(near.killSwitch.tripped).toBe(false);
    expect(near.accepted).toHaveLength(2);
    const hit = checkRisk(quotes, state({ dailyPnl: (-100 * SH) as Micros }), l);
    expect(hit.killSwitch).toMatchObject({
      tripped: true,
      trippedAtMs: NOW,
      reason: 'daily loss limit: PnL -100 ≤ -100',
    });
    expect(hit.accepted).toEqual([]);
    expect(reasons(hit)).toEqual(['kill-switch', 'kill-switch']);
  });

  it('stays tripped when the loss recovers, until an operator clears it', () => {
    let ks = checkRisk(quotes, state({ dailyPnl: (-150 * SH) as Micros }), l).killSwitch;
    for (const pnl of [-50, 0, 20]) {
      const r = checkRisk(quotes, state({ dailyPnl: (pnl * SH) as Micros, killSwitch: ks }), l);
      expect(r.accepted).toEqual([]);
      ks = r.killSwitch;
    }
    ks = checkRisk(quotes, state({ dailyPnl: (-150 * SH) as Micros, killSwitch: ks, day: '2026-01-02' }), l).killSwitch;
    expect(ks.tripped).toBe(true); // a new day does not clear it either
    const cleared = clearKillSwitch({ day: '2026-01-02', dailyPnl: (-150 * SH) as Micros });
    const r = checkRisk(quotes, state({ dailyPnl: (-150 * SH) as Micros, killSwitch: cleared, day: '2026-01-02' }), l);
    expect(r.killSwitch.tripped).toBe(false);
    expect(r.accepted).toHaveLength(2);
  });

  it('after a clear on a losing day, a further full limit of loss trips it again; the next day starts from zero', () => {
    const cleared = clearKillSwitch({ day: '2026-01-01', dailyPnl: (-120 * SH) as Micros });
    expect(lossTripLevel(cleared, '2026-01-01', l.dailyLossLimit)).toBe(-220 * SH);
    expect(lossTripLevel(cleared, '2026-01-02', l.dailyLossLimit)).toBe(-100 * SH);
    const s = { nowMs: NOW, day: '2026-01-01' };
    expect(updateKillSwitch(cleared, { ...s, dailyPnl: (-219 * SH) as Micros }, l).tripped).toBe(false);
    expect(updateKillSwitch(cleared, { ...s, dailyPnl: (-220 * SH) as Micros }, l).tripped).toBe(true);
    expect(updateKillSwitch(cleared, { ...s, day: '2026-01-02', dailyPnl: (-100 * SH) as Micros }, l).tripped).toBe(
      true,
    );
    // a clear on a winning day gives no extra room
    const up = clearKillSwitch({ day: '2026-01-01', dailyPnl: (30 * SH) as Micros });
    expect(lossTripLevel(up, '2026-01-01', l.dailyLossLimit)).toBe(-100 * SH);
  });

  it('an operator trip pulls everything and keeps its first reason; no loss limit means no loss trip', () => {
    const ks = tripKillSwitch(KILL_SWITCH_ARMED, 'operator: manual', NOW);
    expect(tripKillSwitch(ks, 'again', NOW + 1)).toBe(ks);
    const r = checkRisk(quotes, state({ killSwitch: ks }), limits());
    expect(r.accepted).toEqual([]);
    expect(r.dropped[0]?.detail).toBe('operator: manual');
    expect(checkRisk(quotes, state({ dailyPnl: (-1e6 * SH) as Micros }), limits()).killSwitch.tripped).toBe(false);
  });
});

describe('risk: property', () => {
  const quoteArb = fc
    .record({
      tokenId: fc.constantFrom('Y', 'N', 'Z', 'Z2'),
      side: fc.constantFrom<Side>('BUY', 'SELL'),
      price: fc.integer({ min: -2, max: 102 }).map((c) => c * 10_000 + (c % 7 === 0 ? 5_000 : 0)),
      size: fc.integer({ min: 0, max: 6_000 }).map((c) => c * 10_000 + (c % 11 === 0 ? 1 : 0)),
    })
    .map((r): DesiredQuote => ({ tokenId: r.tokenId, side: r.side, price: r.price as Price, size: r.size as Shares }));

  it('from flat positions, the accepted set keeps every limit and every quote is accepted or dropped once', () => {
    fc.assert(
      fc.property(
        fc.array(quoteArb, { maxLength: 25 }),
        fc.record({
          pos: fc.integer({ min: 1, max: 80 }),
          notional: fc.integer({ min: 1, max: 40 }),
          total: fc.integer({ min: 1, max: 60 }),
          coll: fc.integer({ min: 1, max: 60 }),
        }),
        (quotes, lim) => {
          const l = limits({
            market: { maxPosition: (lim.pos * SH) as Shares, maxNotional: (lim.notional * SH) as Micros },
            maxTotalExposure: (lim.total * SH) as Micros,
          });
          const st = state({ collateral: (lim.coll * SH) as Micros });
          const r = checkRisk(quotes, st, l);
          expect(r.accepted.length + r.dropped.length).toBe(quotes.length);
          // No shares held: nothing can be sold.
          expect(r.accepted.every((x) => x.side === 'BUY')).toBe(true);
          let bids = 0n;
          const up = new Map<string, number>();
          const down = new Map<string, number>();
          for (const x of r.accepted) {
            const info = st.tokens.get(x.tokenId);
            if (info === undefined) throw new Error('accepted an unknown token');
            expect(x.price % info.tickSize).toBe(0);
            expect(x.price).toBeGreaterThanOrEqual(info.tickSize);
            expect(x.price).toBeLessThanOrEqual(SH - info.tickSize);
            expect(x.size).toBeGreaterThanOrEqual(info.minOrderSize);
            expect(x.size % 10_000).toBe(0);
            bids += BigInt(x.price) * BigInt(x.size);
            const yes = x.tokenId === 'Y' || x.tokenId === 'Z';
            const m = info.marketId;
            if (yes) up.set(m, (up.get(m) ?? 0) + x.size);
            else down.set(m, (down.get(m) ?? 0) + x.size);
          }
          expect(bids).toBeLessThanOrEqual(BigInt(lim.coll * SH) * BigInt(SH));
          let total = 0;
          for (const [m, markYes] of [
            ['M1', 0.6],
            ['M2', 0.5],
          ] as const) {
            const u = up.get(m) ?? 0;
            const d = down.get(m) ?? 0;
            expect(Math.max(u, d)).toBeLessThanOrEqual(lim.pos * SH);
            const exp = Math.max(Math.ceil(u * markYes), Math.ceil(d * (1 - markYes)));
            expect(exp).toBeLessThanOrEqual(lim.notional * SH + 1);
            total += exp;
          }
          expect(total).toBeLessThanOrEqual(lim.total * SH + 2);
        },
      ),
      { numRuns: 400 },
    );
  });
});
