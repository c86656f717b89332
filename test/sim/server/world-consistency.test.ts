// The simulator's synthetic world is consistent (issue #13): every wallet of GET /v1/leaderboard
// holds the positions and closed positions its figures imply, and its trades are in GET /trades.
// Read over HTTP in both dialects (the polymarket one reshapes the records: token-id assets, closed
// positions without size), every amount compared exactly in integer millionths (core/money.ts).
// Identities checked, per wallet W, category c (OVERALL: every market) and period P:
//  (1) PnL. `all` is the realized-only lifetime ledger and the finite windows are the marked
//      equity change (docs.polymarket.com, "Get the trader leaderboard": "Finite windows
//      (day/week/month) serve the MARKED equity change net of flows; they move with unrealized
//      marks; all is the realized-only lifetime ledger"). Counting each asset once (a resolved,
//      unredeemed claim is listed both as a redeemable position and as a closed one):
//        pnl(ALL)   = Σ closed.realizedPnl + Σ open.realizedPnl           (open: not redeemable)
//        E(now)     = Σ closed.realizedPnl + Σ open.(realizedPnl + cashPnl)
//        E(t0)      = Σ assets [cash(t0) + held(t0) × mark(t0)]           (from /trades)
//        pnl(P)     = E(now) − E(t0),  t0 = world start − 1, 7, 30 days
//      cash(t0): sell notional − buy notional of W's trades at or before t0 (the seeded trades pay
//      no fee); mark(t0): 1 or 0 when the market resolved by t0, else the price of the token's
//      last trade (any wallet) at or before t0.
//  (2) vol(P) = Σ price × size of W's trades after t0 (all of them for ALL); a wallet is on a
//      board exactly when it traded there (vol > 0).
//  (3) positions from trades, per asset: held = bought − sold; held > 0 ⇔ a current position of
//      that size, average price and realized PnL (average cost replayed from the trades) and cash
//      PnL = held × curPrice − basis; a closed position ⇔ held = 0 or the market resolved, with
//      totalBought = bought, avgPrice = buy notional / bought, realizedPnl = sells − buys (+ held
//      × payout for a claim); no position without trades.
//  (4) W's trades (GET /trades?user=W) are exactly W's rows of GET /trades?market=<each market>,
//      and the user and market filters together give their intersection.
// And the live synthetic flow trades under wallets of its own, so a leaderboard wallet's trades
// and positions stay the world's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { divRound, microsFromNumber, mulMicros } from '../../../src/core/money.js';
import { DAY_MS } from '../../../src/sim/world/ids.js';
import { LEADERBOARD_CATEGORIES, LEADERBOARD_PERIODS, type MarketRec } from '../../../src/sim/world/index.js';
import { raw, startTestSim, type TestSim } from './helpers.js';

type Json = Record<string, unknown>;
const WINDOW_MS: Record<string, number> = { DAY: DAY_MS, WEEK: 7 * DAY_MS, MONTH: 30 * DAY_MS };

const m6 = (n: unknown): number => microsFromNumber(n as number, 'half-even');
const key = (r: Json): string => `${String(r['conditionId'])}:${String(r['outcomeIndex'])}`;

async function pages(t: TestSim, path: string, limit: number, maxOffset: number): Promise<Json[]> {
  const out: Json[] = [];
  for (let offset = 0; offset <= maxOffset; offset += limit) {
    const r = await raw(t.sim, 'GET', `${path}${path.includes('?') ? '&' : '?'}limit=${limit}&offset=${offset}`);
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`);
    const page = r.json as Json[];
    out.push(...page);
    if (page.length < limit) return out;
  }
  throw new Error(`${path}: more rows than the offset bound pages`);
}

/** Average-cost replay of one asset's trades (oldest first), as the exchange accounts positions. */
interface Replay {
  bought: number;
  sold: number;
  buyCost: number;
  sellProceeds: number;
  size: number;
  basis: number;
  realized: number;
}
function replay(trades: readonly Json[]): Replay {
  const r: Replay = { bought: 0, sold: 0, buyCost: 0, sellProceeds: 0, size: 0, basis: 0, realized: 0 };
  for (const t of trades) {
    const size = m6(t['size']);
    const notional = mulMicros(m6(t['price']), size, 'half-even');
    if (t['side'] === 'BUY') {
      r.bought += size;
      r.buyCost += notional;
      r.size += size;
      r.basis += notional;
    } else {
      const released =
        size === r.size ? r.basis : Number(divRound(BigInt(r.basis) * BigInt(size), BigInt(r.size), 'half-even'));
      r.sold += size;
      r.sellProceeds += notional;
      r.realized += notional - released;
      r.basis -= released;
      r.size -= size;
    }
  }
  return r;
}

for (const dialect of ['spec', 'polymarket'] as const) {
  describe(`the synthetic world is consistent (${dialect} dialect)`, () => {
    let t: TestSim;
    const boards = new Map<string, Json[]>();
    const marketTrades = new Map<string, Json[]>();
    const userTrades = new Map<string, Json[]>();
    const positions = new Map<string, Json[]>();
    const closed = new Map<string, Json[]>();
    const wallets = new Set<string>();
    let markets: readonly MarketRec[] = [];
    let nowMs = 0;

    beforeAll(async () => {
      // Seed 1: a world with resolved markets (claims), partial sells and both outcomes held.
      t = await startTestSim({ dialect, markets: 60, seed: 1 });
      markets = t.sim.venue.world.markets;
      nowMs = t.sim.venue.world.startMs;
      for (const category of LEADERBOARD_CATEGORIES) {
        for (const period of LEADERBOARD_PERIODS) {
          const rows = await pages(t, `/v1/leaderboard?category=${category}&timePeriod=${period}`, 50, 1000);
          boards.set(`${category}/${period}`, rows);
          for (const r of rows) wallets.add(String(r['proxyWallet']));
        }
      }
      for (const m of markets)
        marketTrades.set(m.conditionId, await pages(t, `/trades?market=${m.conditionId}`, 500, 10_000));
      for (const list of marketTrades.values()) for (const tr of list) wallets.add(String(tr['proxyWallet']));
      for (const w of wallets) {
        userTrades.set(w, await pages(t, `/trades?user=${w}`, 500, 10_000));
        positions.set(w, await pages(t, `/positions?user=${w}&sizeThreshold=0`, 500, 10_000));
        closed.set(w, await pages(t, `/closed-positions?user=${w}`, 50, 100_000));
      }
    }, 120_000);
    afterAll(async () => {
      await t.close();
    });

    const marketOf = (cid: unknown): MarketRec => {
      const m = markets.find((x) => x.conditionId === cid);
      if (m === undefined) throw new Error(`unknown market ${String(cid)}`);
      return m;
    };
    const inCategory = (category: string, cid: unknown): boolean =>
      category === 'OVERALL' || marketOf(cid).category.toUpperCase() === category;
    const payout = (m: MarketRec, outcomeIndex: unknown): number =>
      m.state.winner === Number(outcomeIndex) ? 1_000_000 : 0;
    /** Chronological (oldest first): the listings are newest first, ties latest first. */
    const chrono = (list: readonly Json[]): Json[] => [...list].reverse();

    it('the world has a leaderboard, and every wallet on it has trades', () => {
      const all = boards.get('OVERALL/ALL') ?? [];
      expect(all.length).toBeGreaterThan(10);
      expect((boards.get('OVERALL/DAY') ?? []).length).toBeGreaterThan(0);
      // Every kind of position the identities must hold for is there: claims, partial sells, closed.
      const cur = [...positions.values()].flat();
      expect(cur.some((p) => p['redeemable'] === true)).toBe(true);
      expect(cur.some((p) => p['redeemable'] === false && p['realizedPnl'] !== 0)).toBe(true);
      expect([...closed.values()].flat().some((c) => c['realizedPnl'] !== 0)).toBe(true);
      const noTrades = [...wallets].filter(
        (w) => (userTrades.get(w) ?? []).length === 0 && all.some((r) => r['proxyWallet'] === w),
      );
      expect(
        noTrades.length,
        `${noTrades.length} of ${all.length} wallets on OVERALL/ALL have no trade in /trades`,
      ).toBe(0);
    });

    it("(4) a wallet's trades are its rows of the per-market listings, and both filters intersect", async () => {
      const bad: string[] = [];
      for (const w of wallets) {
        const mine = (userTrades.get(w) ?? []).map((x) => JSON.stringify(x)).sort();
        const fromMarkets = [...marketTrades.values()]
          .flat()
          .filter((x) => x['proxyWallet'] === w)
          .map((x) => JSON.stringify(x))
          .sort();
        if (JSON.stringify(mine) !== JSON.stringify(fromMarkets))
          bad.push(`${w}: ${mine.length} by user, ${fromMarkets.length} by market`);
      }
      expect(bad.slice(0, 5), `${bad.length} wallets`).toEqual([]);
      let checked = 0;
      for (const w of [...wallets].slice(0, 10)) {
        const first = (userTrades.get(w) ?? [])[0];
        if (first === undefined) continue;
        const both = await pages(t, `/trades?user=${w}&market=${String(first['conditionId'])}`, 500, 10_000);
        expect(both).toEqual((userTrades.get(w) ?? []).filter((x) => x['conditionId'] === first['conditionId']));
        checked++;
      }
      expect(checked).toBeGreaterThan(0);
    });

    it("(2) volume = Σ price × size of the wallet's trades in the period; on a board exactly when it traded there", () => {
      const bad: string[] = [];
      for (const [board, rows] of boards) {
        const [category = '', period = ''] = board.split('/');
        const t0s = period === 'ALL' ? -Infinity : Math.floor((nowMs - (WINDOW_MS[period] ?? 0)) / 1000);
        const vol = new Map<string, number>();
        for (const list of marketTrades.values()) {
          for (const tr of list) {
            if (!inCategory(category, tr['conditionId']) || Number(tr['timestamp']) <= t0s) continue;
            const w = String(tr['proxyWallet']);
            vol.set(w, (vol.get(w) ?? 0) + mulMicros(m6(tr['price']), m6(tr['size']), 'half-even'));
          }
        }
        const onBoard = new Set(rows.map((r) => String(r['proxyWallet'])));
        for (const r of rows) {
          const want = vol.get(String(r['proxyWallet'])) ?? 0;
          if (m6(r['vol']) !== want)
            bad.push(`${board} ${String(r['proxyWallet'])}: vol ${String(r['vol'])}, trades ${want / 1e6}`);
        }
        for (const [w, v] of vol)
          if (v > 0 && !onBoard.has(w)) bad.push(`${board} ${w}: traded ${v / 1e6} but not on the board`);
      }
      expect(bad.slice(0, 8), `${bad.length} mismatches`).toEqual([]);
    });

    it("(3) every position and closed position is explained by the wallet's trades", () => {
      const bad: string[] = [];
      let explained = 0;
      for (const w of wallets) {
        const byAsset = new Map<string, Json[]>();
        for (const tr of chrono(userTrades.get(w) ?? [])) {
          const k = key(tr);
          const list = byAsset.get(k);
          if (list === undefined) byAsset.set(k, [tr]);
          else list.push(tr);
        }
        const cur = new Map((positions.get(w) ?? []).map((p) => [key(p), p]));
        const done = new Map((closed.get(w) ?? []).map((p) => [key(p), p]));
        for (const k of [...cur.keys(), ...done.keys()])
          if (!byAsset.has(k)) bad.push(`${w} ${k}: a position without trades`);
        for (const [k, trades] of byAsset) {
          const m = marketOf(trades[0]?.['conditionId']);
          const r = replay(trades);
          const held = r.bought - r.sold;
          const resolved = m.state.winner !== null;
          const p = cur.get(k);
          const c = done.get(k);
          const where = `${w} ${k}`;
          if (held > 0) {
            if (p === undefined) {
              bad.push(`${where}: holds ${held / 1e6} by its trades, no position`);
              continue;
            }
            const curPrice = resolved
              ? payout(m, p['outcomeIndex'])
              : m.state.prices[Number(p['outcomeIndex']) as 0 | 1];
            if (m6(p['size']) !== held) bad.push(`${where}: size ${String(p['size'])} ≠ ${held / 1e6}`);
            if (m6(p['avgPrice']) !== Number(divRound(BigInt(r.basis) * 1_000_000n, BigInt(held), 'half-even')))
              bad.push(`${where}: avgPrice ${String(p['avgPrice'])}`);
            if (m6(p['realizedPnl']) !== r.realized)
              bad.push(`${where}: realizedPnl ${String(p['realizedPnl'])} ≠ ${r.realized / 1e6}`);
            if (m6(p['curPrice']) !== curPrice)
              bad.push(`${where}: curPrice ${String(p['curPrice'])} ≠ ${curPrice / 1e6}`);
            if (m6(p['cashPnl']) !== mulMicros(held, curPrice, 'half-even') - r.basis)
              bad.push(`${where}: cashPnl ${String(p['cashPnl'])}`);
            if (p['redeemable'] !== resolved) bad.push(`${where}: redeemable ${String(p['redeemable'])}`);
          } else if (p !== undefined) {
            bad.push(`${where}: a position of ${String(p['size'])} after selling all it bought`);
          }
          if (held === 0 || resolved) {
            if (c === undefined) {
              bad.push(`${where}: closed by its trades or resolution, no closed position`);
              continue;
            }
            const realized =
              r.sellProceeds - r.buyCost + (resolved ? mulMicros(held, payout(m, c['outcomeIndex']), 'half-even') : 0);
            if (m6(c['totalBought']) !== r.bought)
              bad.push(`${where}: totalBought ${String(c['totalBought'])} ≠ ${r.bought / 1e6}`);
            if (m6(c['avgPrice']) !== Number(divRound(BigInt(r.buyCost) * 1_000_000n, BigInt(r.bought), 'half-even')))
              bad.push(`${where}: closed avgPrice ${String(c['avgPrice'])}`);
            if (m6(c['realizedPnl']) !== realized)
              bad.push(`${where}: closed realizedPnl ${String(c['realizedPnl'])} ≠ ${realized / 1e6}`);
          } else if (c !== undefined) {
            bad.push(`${where}: closed while holding ${held / 1e6} of an unresolved market`);
          }
          explained++;
        }
      }
      expect(bad.slice(0, 8), `${bad.length} mismatches`).toEqual([]);
      expect(explained).toBeGreaterThan(0);
    });

    it('(1) PnL: ALL = realized PnL of the positions; DAY/WEEK/MONTH = marked equity change', () => {
      const bad: string[] = [];
      for (const [board, rows] of boards) {
        const [category = '', period = ''] = board.split('/');
        for (const row of rows) {
          const w = String(row['proxyWallet']);
          const done = (closed.get(w) ?? []).filter((c) => inCategory(category, c['conditionId']));
          const doneKeys = new Set(done.map(key));
          const open = (positions.get(w) ?? []).filter(
            (p) => inCategory(category, p['conditionId']) && !doneKeys.has(key(p)),
          );
          const realized =
            done.reduce((a, c) => a + m6(c['realizedPnl']), 0) + open.reduce((a, p) => a + m6(p['realizedPnl']), 0);
          let want = realized;
          if (period !== 'ALL') {
            const t0Ms = nowMs - (WINDOW_MS[period] ?? 0);
            const t0s = Math.floor(t0Ms / 1000);
            const eNow = realized + open.reduce((a, p) => a + m6(p['cashPnl']), 0);
            let eT0 = 0;
            const held = new Map<string, number>();
            for (const tr of userTrades.get(w) ?? []) {
              if (!inCategory(category, tr['conditionId']) || Number(tr['timestamp']) > t0s) continue;
              const size = m6(tr['size']);
              const notional = mulMicros(m6(tr['price']), size, 'half-even');
              eT0 += tr['side'] === 'BUY' ? -notional : notional;
              held.set(key(tr), (held.get(key(tr)) ?? 0) + (tr['side'] === 'BUY' ? size : -size));
            }
            for (const [k, size] of held) {
              if (size === 0) continue;
              const [cid, idx] = k.split(':');
              const m = marketOf(cid);
              let mark: number;
              if (m.state.winner !== null && (m.state.resolvedAtMs ?? Infinity) <= t0Ms) mark = payout(m, idx);
              else {
                const last = (marketTrades.get(m.conditionId) ?? []).find(
                  (x) => key(x) === k && Number(x['timestamp']) <= t0s,
                );
                if (last === undefined) {
                  bad.push(`${board} ${w} ${k}: held at t0 without a trade before`);
                  continue;
                }
                mark = m6(last['price']);
              }
              eT0 += mulMicros(size, mark, 'half-even');
            }
            want = eNow - eT0;
          }
          if (m6(row['pnl']) !== want)
            bad.push(`${board} ${w}: pnl ${String(row['pnl'])}, positions and trades give ${want / 1e6}`);
        }
      }
      expect(bad.slice(0, 8), `${bad.length} mismatches`).toEqual([]);
    });
  });
}

describe('live synthetic flow trades under wallets of its own', () => {
  it("leaves the leaderboard wallets' trades and positions as the world made them", async () => {
    const u = await startTestSim({ flow: 'normal', markets: 10 });
    try {
      const world = u.sim.venue.world;
      const leaders = (await pages(u, '/v1/leaderboard?timePeriod=ALL', 50, 1000)).map((r) => String(r['proxyWallet']));
      const before = await Promise.all(
        leaders.map(async (w) => [
          await pages(u, `/trades?user=${w}`, 500, 10_000),
          await pages(u, `/positions?user=${w}`, 500, 10_000),
        ]),
      );
      const post = (path: string, body: unknown): ReturnType<typeof raw> =>
        raw(u.sim, 'POST', path, { body: JSON.stringify(body) });
      await post('/_sim/flow', { action: 'freeze' });
      expect((await post('/_sim/flow', { action: 'advance', ms: 5 * 60_000 })).status).toBe(200);
      const live = (await pages(u, '/trades', 500, 10_000)).filter(
        (x) => Number(x['timestamp']) * 1000 >= world.startMs,
      );
      expect(live.length).toBeGreaterThan(0);
      expect(live.filter((x) => world.userByWallet(String(x['proxyWallet'])) !== undefined)).toEqual([]);
      // An engine account that is not an address is shown under a wallet of its own too.
      expect(world.userByWallet(u.sim.venue.wallets.walletOf('flow-lp-7'))).toBeUndefined();
      const after = await Promise.all(
        leaders.map(async (w) => [
          await pages(u, `/trades?user=${w}`, 500, 10_000),
          await pages(u, `/positions?user=${w}`, 500, 10_000),
        ]),
      );
      expect(after.map(([tr]) => tr)).toEqual(before.map(([tr]) => tr));
      expect(after.map(([, ps]) => ps?.map((p) => [key(p), p['size'], p['realizedPnl']]))).toEqual(
        before.map(([, ps]) => ps?.map((p) => [key(p), p['size'], p['realizedPnl']])),
      );
    } finally {
      await u.close();
    }
  });
});
