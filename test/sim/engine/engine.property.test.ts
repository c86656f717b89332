// Property tests of the matching engine. Random sequences of submits (every order type, both
// tokens, post-only, GTD), cancels, cancel-alls, clock advances, tick changes, splits, merges,
// deposits and pauses; after every step the full audit (audit.ts) must be clean: the book never
// crossed, reservations equal to what resting orders need, value conserved net of fees, supplies
// equal to the collateral locked. Along the way: no order fills beyond its size, a cancelled
// order never fills, every fill is at the maker's price and within the taker's limit. A second
// property replays valid streams through a naive reference matcher (sorted arrays, no balances)
// and requires the very same trades, results and resting orders.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { SCALE, type Micros, type Price, type Shares } from '../../../src/core/money.js';
import type { OrderType } from '../../../src/core/order.js';
import { TICKS, snapToTick } from '../../../src/core/tick.js';
import { auditEngine } from '../../../src/sim/engine/audit.js';
import { MatchingEngine } from '../../../src/sim/engine/engine.js';
import type { Trade } from '../../../src/sim/engine/types.js';

const COND = 'c';
const TOK = ['Y', 'N'] as const;
const OWNERS = ['o0', 'o1', 'o2', 'o3'];
const MIN = 5_000_000;

type Cmd =
  | {
      k: 'submit';
      owner: number;
      outcome: 0 | 1;
      buy: boolean;
      yes: number;
      lots: number;
      type: OrderType;
      postOnly: boolean;
      expIn: number;
      raw: boolean;
    }
  | { k: 'cancel'; pick: number; owner: number; asOther: boolean }
  | { k: 'cancelAll'; owner: number }
  | { k: 'advance'; ms: number }
  | { k: 'tick'; tick: number }
  | { k: 'split'; owner: number; lots: number }
  | { k: 'merge'; owner: number; lots: number }
  | { k: 'deposit'; owner: number; amount: number }
  | { k: 'pause'; accepting: boolean };

const submitArb = fc.record({
  k: fc.constant('submit' as const),
  owner: fc.nat(3),
  outcome: fc.constantFrom(0 as const, 1 as const),
  buy: fc.boolean(),
  // YES-terms price in 0.0001 units around 0.5.
  yes: fc.integer({ min: 4000, max: 6000 }),
  lots: fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 500, max: 4000 }) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 600 }) },
  ),
  type: fc.constantFrom<OrderType>('GTC', 'GTC', 'GTD', 'FOK', 'FAK'),
  postOnly: fc.boolean(),
  expIn: fc.integer({ min: -2, max: 40 }),
  raw: fc.integer({ min: 0, max: 9 }).map((x) => x === 0),
});

const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 12, arbitrary: submitArb },
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant('cancel' as const),
      pick: fc.nat(),
      owner: fc.nat(3),
      asOther: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('cancelAll' as const), owner: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 15_000 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('tick' as const),
      tick: fc.constantFrom(...TICKS.filter((t) => t <= 10_000)),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('split' as const),
      owner: fc.nat(3),
      lots: fc.integer({ min: 1, max: 3000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('merge' as const),
      owner: fc.nat(3),
      lots: fc.integer({ min: 1, max: 3000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('deposit' as const),
      owner: fc.nat(3),
      amount: fc.integer({ min: 0, max: 50_000_000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('pause' as const),
      accepting: fc.integer({ min: 0, max: 3 }).map((x) => x !== 0),
    }),
  },
);

/** The own-terms price of a command on the current tick (snapped unless `raw`). */
function ownPrice(c: Extract<Cmd, { k: 'submit' }>, tick: number): number {
  const yes = c.yes * 100;
  const own = c.outcome === 0 ? yes : SCALE - yes;
  return c.raw ? own : snapToTick(own, tick as Price, c.buy ? 'floor' : 'ceil');
}

describe('engine invariants under random operation', () => {
  it('audit clean after every step; no overfill; cancelled orders never fill; fills at maker price within limits', () => {
    // What the random runs exercised in total, so a generator that stopped reaching a path fails.
    const seen = new Map<string, number>();
    const count = (k: string): void => void seen.set(k, (seen.get(k) ?? 0) + 1);
    fc.assert(
      fc.property(
        fc.array(cmdArb, { minLength: 1, maxLength: 100, size: 'max' }),
        fc.constantFrom(0, 10, 100, 1000),
        fc.constantFrom(0, 25, 200),
        fc.constantFrom(-1, 0, 1),
        (cmds, makerBps, takerBps, winner) => {
          const clock = new VirtualClock(Date.UTC(2026, 0, 1));
          const engine = new MatchingEngine({ clock });
          engine.addMarket({
            conditionId: COND,
            tokens: [TOK[0], TOK[1]],
            tick: 10_000 as Price,
            minSize: MIN as Shares,
            makerFeeBps: makerBps,
            takerFeeBps: takerBps,
            negRisk: false,
            acceptingOrders: true,
          });
          for (const o of OWNERS) {
            engine.deposit(o, 60_000_000 as Micros);
            engine.mint(o, COND, 40_000_000 as Shares);
          }
          let tick = 10_000;
          const ids: string[] = [];
          const limits = new Map<string, { buy: boolean; price: number; outcome: 0 | 1; size: number }>();
          const filled = new Map<string, number>();
          const dead = new Set<string>();
          const problems: string[] = [];
          engine.onOrderUpdate((u) => {
            if (u.status === 'CANCELED' || u.status === 'CANCELED_MARKET_RESOLVED') dead.add(u.orderId);
            count(`update:${u.reason}`);
          });
          const onTrade = (t: Trade): void => {
            count(`trade:${t.kind}`);
            if (t.takerFee > 0) count('fee');
            for (const id of [t.makerOrderId, t.takerOrderId]) {
              if (dead.has(id)) problems.push(`cancelled order ${id} filled`);
              filled.set(id, (filled.get(id) ?? 0) + t.size);
            }
            if (t.makerOwner === t.takerOwner) problems.push(`self trade ${t.id}`);
            const mk = limits.get(t.makerOrderId);
            const tk = limits.get(t.takerOrderId);
            if (mk === undefined || tk === undefined) return;
            const makerYes = mk.outcome === 0 ? mk.price : SCALE - mk.price;
            if (t.yesPrice !== makerYes) problems.push(`trade ${t.id} not at the maker price`);
            if (tk.buy ? t.takerPrice > tk.price : t.takerPrice < tk.price)
              problems.push(`trade ${t.id} beyond the taker limit`);
            if (t.makerPrice + t.takerPrice !== (t.makerTokenId === t.takerTokenId ? 2 * t.takerPrice : SCALE))
              problems.push(`trade ${t.id} prices inconsistent`);
          };
          engine.onTrade(onTrade);

          let n = 0;
          for (const c of cmds) {
            switch (c.k) {
              case 'submit': {
                const id = `id${n++}`;
                const price = ownPrice(c, tick);
                const size = c.lots * 10_000;
                const r = engine.submit({
                  id,
                  owner: OWNERS[c.owner] as string,
                  tokenId: TOK[c.outcome],
                  side: c.buy ? 'BUY' : 'SELL',
                  price: price as Price,
                  size: size as Shares,
                  orderType: c.type,
                  postOnly: c.postOnly && (c.type === 'GTC' || c.type === 'GTD'),
                  ...(c.type === 'GTD' ? { expirationSec: Math.floor(clock.now() / 1000) + c.expIn } : {}),
                });
                count(r.ok ? `ok:${c.type}:${r.status}` : `reject:${r.code}`);
                if (r.ok) {
                  ids.push(id);
                  limits.set(id, { buy: c.buy, price, outcome: c.outcome, size });
                  if (r.sizeMatched > size) problems.push(`${id} matched beyond its size on arrival`);
                }
                break;
              }
              case 'cancel': {
                if (ids.length === 0) break;
                const id = ids[c.pick % ids.length] as string;
                const owner = c.asOther ? OWNERS[c.owner] : engine.getOrder(id)?.owner;
                const before = engine.getOrder(id);
                const r = engine.cancel(id, owner);
                if (r.canceled && before?.status !== 'LIVE')
                  problems.push(`cancelled a ${before?.status ?? 'missing'} order`);
                if (r.canceled && owner !== before?.owner) problems.push("cancelled another owner's order");
                break;
              }
              case 'cancelAll':
                engine.cancelAll(OWNERS[c.owner] as string);
                break;
              case 'advance':
                clock.advance(c.ms);
                break;
              case 'tick':
                tick = c.tick;
                engine.setTick(COND, c.tick as Price);
                break;
              case 'split':
                try {
                  engine.split(OWNERS[c.owner] as string, COND, (c.lots * 10_000) as Shares);
                } catch {
                  /* short of collateral */
                }
                break;
              case 'merge':
                try {
                  engine.merge(OWNERS[c.owner] as string, COND, (c.lots * 10_000) as Shares);
                } catch {
                  /* short of tokens */
                }
                break;
              case 'deposit':
                engine.deposit(OWNERS[c.owner] as string, c.amount as Micros);
                break;
              case 'pause':
                engine.setAcceptingOrders(COND, c.accepting);
                break;
            }
            const bad = auditEngine(engine);
            if (bad.length > 0) return expect.fail(`after ${JSON.stringify(c)}: ${bad.join('; ')}`);
          }
          if (winner !== -1) {
            // Resolution: every resting order cancelled, then all redeem; conservation must hold
            // throughout and, once everyone redeemed, nothing may stay locked.
            engine.resolve(COND, TOK[winner as 0 | 1]);
            expect(auditEngine(engine)).toEqual([]);
            expect(OWNERS.flatMap((o) => engine.openOrders(o))).toEqual([]);
            for (const o of OWNERS) engine.redeem(o, COND);
            expect(auditEngine(engine)).toEqual([]);
            expect(engine.market(COND)?.lockedCollateral).toBe(0);
            count('resolved');
          }
          for (const id of ids) {
            const rec = engine.getOrder(id);
            if (rec === undefined) continue;
            if (rec.sizeMatched > rec.originalSize) problems.push(`${id} overfilled`);
            if ((filled.get(id) ?? 0) !== rec.sizeMatched)
              problems.push(`${id}: trades ${filled.get(id) ?? 0} != sizeMatched ${rec.sizeMatched}`);
          }
          expect(problems).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
    for (const k of [
      'resolved',
      'update:resolved',
      'trade:transfer',
      'trade:mint',
      'trade:merge',
      'fee',
      'update:self-trade',
      'update:expired',
      'update:canceled',
      'ok:GTC:live',
      'ok:GTC:matched',
      'ok:GTD:live',
      'ok:FOK:matched',
      'ok:FAK:matched',
      'reject:INVALID_TICK',
      'reject:INVALID_MIN_SIZE',
      'reject:NOT_ENOUGH_BALANCE',
      'reject:POST_ONLY_CROSSES',
      'reject:FOK_NOT_FILLED',
      'reject:FAK_NO_MATCH',
      'reject:MARKET_NOT_READY',
      'reject:INVALID_ORDER',
    ])
      expect(seen.get(k) ?? 0, k).toBeGreaterThan(0);
  });
});

// ------------------------------------------------------------------ reference model

interface RefOrder {
  id: string;
  owner: string;
  isBid: boolean;
  yes: number;
  remaining: number;
  seq: number;
  expiresAt: number;
}
interface RefTrade {
  maker: string;
  taker: string;
  size: number;
  yes: number;
}

/** Price-time priority written the slow, obvious way: filter, sort, walk. */
class RefBook {
  private resting: RefOrder[] = [];
  private seq = 0;

  expire(now: number): void {
    this.resting = this.resting.filter((o) => o.expiresAt === 0 || now < o.expiresAt);
  }

  private crossing(isBid: boolean, yes: number): RefOrder[] {
    return this.resting
      .filter((o) => o.isBid !== isBid && (isBid ? o.yes <= yes : o.yes >= yes))
      .sort((a, b) => (isBid ? a.yes - b.yes : b.yes - a.yes) || a.seq - b.seq);
  }

  submit(o: Omit<RefOrder, 'seq'>, type: OrderType, postOnly: boolean): { code: string; trades: RefTrade[] } {
    const cross = this.crossing(o.isBid, o.yes);
    const others = cross.filter((r) => r.owner !== o.owner).reduce((s, r) => s + r.remaining, 0);
    if (postOnly && cross.length > 0) return { code: 'POST_ONLY_CROSSES', trades: [] };
    if (type === 'FOK' && others < o.remaining) return { code: 'FOK_NOT_FILLED', trades: [] };
    if (type === 'FAK' && others === 0) return { code: 'FAK_NO_MATCH', trades: [] };
    const trades: RefTrade[] = [];
    const me = { ...o, seq: this.seq++ };
    for (const r of cross) {
      if (me.remaining === 0) break;
      if (r.owner === me.owner) {
        this.resting = this.resting.filter((x) => x !== r);
        continue;
      }
      const f = Math.min(r.remaining, me.remaining);
      r.remaining -= f;
      me.remaining -= f;
      trades.push({ maker: r.id, taker: me.id, size: f, yes: r.yes });
      if (r.remaining === 0) this.resting = this.resting.filter((x) => x !== r);
    }
    if (me.remaining > 0 && (type === 'GTC' || type === 'GTD')) this.resting.push(me);
    return { code: 'OK', trades };
  }

  cancel(id: string): boolean {
    const before = this.resting.length;
    this.resting = this.resting.filter((o) => o.id !== id);
    return this.resting.length !== before;
  }

  live(): string[] {
    return this.resting.map((o) => `${o.id}:${o.remaining}`).sort();
  }
}

describe('engine against a naive reference matcher', () => {
  it('produces the same results, trades and resting orders', () => {
    const stepArb = fc.oneof(
      {
        weight: 8,
        arbitrary: fc.record({
          k: fc.constant('s' as const),
          owner: fc.nat(2),
          outcome: fc.constantFrom(0 as const, 1 as const),
          buy: fc.boolean(),
          ticks: fc.integer({ min: 40, max: 60 }),
          lots: fc.integer({ min: 5, max: 40 }),
          type: fc.constantFrom<OrderType>('GTC', 'GTC', 'GTD', 'FOK', 'FAK'),
          postOnly: fc.boolean(),
          expIn: fc.integer({ min: 1, max: 30 }),
        }),
      },
      { weight: 2, arbitrary: fc.record({ k: fc.constant('c' as const), pick: fc.nat() }) },
      { weight: 1, arbitrary: fc.record({ k: fc.constant('a' as const), ms: fc.integer({ min: 0, max: 10_000 }) }) },
    );
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 120, size: 'max' }), (steps) => {
        const clock = new VirtualClock(Date.UTC(2026, 0, 1));
        const engine = new MatchingEngine({ clock });
        engine.addMarket({
          conditionId: COND,
          tokens: ['Y', 'N'],
          tick: 10_000 as Price,
          minSize: 5_000_000 as Shares,
          makerFeeBps: 0,
          takerFeeBps: 0,
          negRisk: false,
          acceptingOrders: true,
        });
        for (const o of OWNERS.slice(0, 3)) {
          engine.deposit(o, 1e12 as Micros);
          engine.mint(o, COND, 1e12 as Shares);
        }
        const ref = new RefBook();
        const ids: string[] = [];
        let n = 0;
        for (const s of steps) {
          if (s.k === 'a') {
            clock.advance(s.ms);
            continue;
          }
          ref.expire(clock.now());
          if (s.k === 'c') {
            if (ids.length === 0) continue;
            const id = ids[s.pick % ids.length] as string;
            expect(engine.cancel(id).canceled).toBe(ref.cancel(id));
          } else {
            const id = `r${n++}`;
            const own = s.ticks * 10_000;
            const yes = s.outcome === 0 ? own : SCALE - own;
            const isBid = (s.outcome === 0) === s.buy;
            const postOnly = s.postOnly && (s.type === 'GTC' || s.type === 'GTD');
            const expiresAt = s.type === 'GTD' ? (Math.floor(clock.now() / 1000) + s.expIn) * 1000 : 0;
            const size = s.lots * 1_000_000;
            const r = engine.submit({
              id,
              owner: OWNERS[s.owner] as string,
              tokenId: s.outcome === 0 ? 'Y' : 'N',
              side: s.buy ? 'BUY' : 'SELL',
              price: own as Price,
              size: size as Shares,
              orderType: s.type,
              postOnly,
              ...(expiresAt !== 0 ? { expirationSec: expiresAt / 1000 } : {}),
            });
            const want = ref.submit(
              { id, owner: OWNERS[s.owner] as string, isBid, yes, remaining: size, expiresAt },
              s.type,
              postOnly,
            );
            expect(r.ok ? 'OK' : r.code).toBe(want.code);
            const got = r.ok
              ? r.trades.map((t) => ({
                  maker: t.makerOrderId,
                  taker: t.takerOrderId,
                  size: t.size as number,
                  yes: t.yesPrice as number,
                }))
              : [];
            expect(got).toEqual(want.trades);
            if (r.ok) ids.push(id);
          }
          const live = OWNERS.flatMap((o) => engine.openOrders(o))
            .map((o) => `${o.id}:${o.originalSize - o.sizeMatched}`)
            .sort();
          expect(live).toEqual(ref.live());
        }
      }),
      { numRuns: 300 },
    );
  });
});
