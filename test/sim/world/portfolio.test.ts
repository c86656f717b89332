import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePrice, parseShares, parseMicros, type Price } from '../../../src/core/money.js';
import { PortfolioError, PositionBook, type Fill } from '../../../src/sim/world/portfolio.js';
import {
  CLOSED_POSITIONS_SORT,
  getClosedPositions,
  getPositions,
  POSITIONS_SORT,
} from '../../../src/sim/world/query-positions.js';
import type { MarketRec } from '../../../src/sim/world/model.js';
import type { World } from '../../../src/sim/world/world.js';
import { body, failure, makeWorld, START } from './helpers.js';

const U = '0x' + '1a'.repeat(20);
const V = '0x' + '2b'.repeat(20);

function openMarkets(w: World): MarketRec[] {
  return w.markets.filter((m) => !m.state.closed);
}

function fill(
  m: MarketRec,
  outcome: 0 | 1,
  side: 'BUY' | 'SELL',
  price: string,
  size: string,
  fee = '0',
  timeMs = START,
  user = U,
): Fill {
  return {
    user,
    tokenId: m.tokenIds[outcome],
    conditionId: m.conditionId,
    side,
    price: parsePrice(price),
    size: parseShares(size),
    feeMicros: parseMicros(fee),
    timeMs,
  };
}

describe('PositionBook figures (hand-computed)', () => {
  const w = makeWorld(60, 'pf');
  const m = openMarkets(w)[0];
  if (m === undefined) throw new Error('no open market');
  const mids = new Map<string, Price>([[m.tokenIds[0], parsePrice('0.55')]]);
  const book = new PositionBook(w, (t) => mids.get(t) ?? null);
  book.applyFill(fill(m, 0, 'BUY', '0.50', '10', '0', START + 1_000));
  book.applyFill(fill(m, 0, 'BUY', '0.53', '20', '0.02', START + 2_000));
  book.applyFill(fill(m, 0, 'SELL', '0.60', '12', '0.01', START + 3_000));

  it('average cost, realized on sells, marks to the price function', () => {
    const [p] = body(getPositions(book, { user: U }));
    expect(p).toMatchObject({
      proxyWallet: U,
      asset: `${m.conditionId}:0`,
      conditionId: m.conditionId,
      size: 18,
      avgPrice: 0.520667, // 15.62 / 30, unchanged by the sell
      initialValue: 9.372, // 15.62 − 15.62 × 12/30
      currentValue: 9.9, // 18 × 0.55
      cashPnl: 0.528,
      percentPnl: 5.633803,
      totalBought: 30,
      realizedPnl: 0.942, // 7.20 − 0.01 − 6.248
      percentRealizedPnl: 6.03073, // 0.942 / 15.62
      curPrice: 0.55,
      redeemable: false,
      mergeable: false,
      negativeRisk: m.negRisk,
      title: m.question,
      slug: m.slug,
      icon: m.icon,
      eventSlug: w.eventOf(m).slug,
      outcome: m.outcomes[0],
      oppositeOutcome: m.outcomes[1],
      oppositeAsset: `${m.conditionId}:1`,
      outcomeIndex: 0,
      timestamp: Math.floor((START + 3_000) / 1000),
      endDate: new Date(m.endDateMs).toISOString(),
    });
  });

  it('falls back to the displayed price when the price function has none', () => {
    mids.delete(m.tokenIds[0]);
    const [p] = body(getPositions(book, { user: U }));
    expect(p?.curPrice).toBe(m.state.prices[0] / 1e6);
    mids.set(m.tokenIds[0], parsePrice('0.55'));
  });

  it('holding both outcomes makes both mergeable', () => {
    book.applyFill(fill(m, 1, 'BUY', '0.30', '5', '0', START + 4_000));
    const ps = body(getPositions(book, { user: U }));
    expect(ps.map((p) => [p.outcomeIndex, p.mergeable])).toEqual([
      [0, true],
      [1, true],
    ]);
    expect(body(getPositions(book, { user: U, mergeable: 'true' }))).toHaveLength(2);
  });

  it('resolution: current positions become redeemable claims at 1 / 0, and appear as closed', () => {
    w.resolve(m.conditionId, 0, START + 10_000);
    const ps = body(getPositions(book, { user: U }));
    expect(ps.map((p) => [p.outcomeIndex, p.curPrice, p.currentValue, p.redeemable, p.mergeable])).toEqual([
      [0, 1, 18, true, false],
      [1, 0, 0, true, false],
    ]);
    expect(ps[0]?.cashPnl).toBe(8.628);
    expect(ps[0]?.percentPnl).toBe(92.06146);
    expect(body(getPositions(book, { user: U, redeemable: 'true' }))).toHaveLength(2);

    const closed = body(getClosedPositions(book, { user: U }));
    expect(closed.map((c) => [c.outcomeIndex, c.realizedPnl, c.avgPrice, c.size, c.redeemable, c.timestamp])).toEqual([
      [0, 9.57, 0.520667, 0, true, Math.floor((START + 10_000) / 1000)], // 0.942 + 18 − 9.372
      [1, -1.5, 0.3, 0, true, Math.floor((START + 10_000) / 1000)], // 5 × 0 − 1.50
    ]);
    expect(closed[0]?.percentRealizedPnl).toBe(61.267606);
    expect(closed[0]).not.toHaveProperty('negativeRisk');
    expect(() => book.applyFill(fill(m, 0, 'BUY', '0.50', '1'))).toThrow(PortfolioError);
  });

  it('redeem pays the winner, empties the positions, keeps the realized result', () => {
    expect(book.redeem(U, m.conditionId, START + 20_000)).toBe(18_000_000);
    expect(body(getPositions(book, { user: U, sizeThreshold: '0' }))).toEqual([]);
    const closed = body(getClosedPositions(book, { user: U }));
    expect(closed.map((c) => [c.outcomeIndex, c.realizedPnl, c.redeemable, c.timestamp])).toEqual([
      [0, 9.57, false, Math.floor((START + 20_000) / 1000)],
      [1, -1.5, false, Math.floor((START + 20_000) / 1000)],
    ]);
    expect(book.redeem(U, m.conditionId, START + 30_000)).toBe(0);
  });
});

describe('PositionBook: closing, reopening, invalid fills', () => {
  it('a sold-out position is closed with its life average and realized result; buying again reopens it', () => {
    const w = makeWorld(60, 'pf2');
    const m = openMarkets(w)[1];
    if (m === undefined) throw new Error('none');
    const book = new PositionBook(w, () => parsePrice('0.47'));
    book.applyFill(fill(m, 1, 'BUY', '0.40', '10', '0', START + 1_000));
    book.applyFill(fill(m, 1, 'SELL', '0.45', '4', '0', START + 2_000));
    book.applyFill(fill(m, 1, 'SELL', '0.35', '6', '0', START + 3_000));
    expect(body(getPositions(book, { user: U, sizeThreshold: '0' }))).toEqual([]);
    const [c] = body(getClosedPositions(book, { user: U }));
    // 4 × 0.05 + 6 × (−0.05) = −0.10
    expect(c).toMatchObject({
      size: 0,
      avgPrice: 0.4,
      totalBought: 10,
      realizedPnl: -0.1,
      percentRealizedPnl: -2.5,
      curPrice: 0.47,
      initialValue: 0,
      currentValue: 0,
      cashPnl: 0,
      percentPnl: 0,
      redeemable: false,
      mergeable: false,
      timestamp: Math.floor((START + 3_000) / 1000),
    });
    book.applyFill(fill(m, 1, 'BUY', '0.50', '2', '0', START + 4_000));
    expect(body(getClosedPositions(book, { user: U }))).toEqual([]);
    const [p] = body(getPositions(book, { user: U }));
    expect(p).toMatchObject({ size: 2, avgPrice: 0.5, initialValue: 1, totalBought: 12, realizedPnl: -0.1 });
  });

  it('rejects impossible fills without changing anything', () => {
    const w = makeWorld(60, 'pf3');
    const [m, n] = openMarkets(w);
    if (m === undefined || n === undefined) throw new Error('none');
    const book = new PositionBook(w);
    book.applyFill(fill(m, 0, 'BUY', '0.5', '3'));
    const code = (f: () => void): string => {
      try {
        f();
        return 'none';
      } catch (e) {
        return e instanceof PortfolioError ? e.code : 'other';
      }
    };
    expect(code(() => book.applyFill(fill(m, 0, 'SELL', '0.5', '3.01')))).toBe('PORTFOLIO_OVERSELL');
    expect(code(() => book.applyFill(fill(m, 1, 'SELL', '0.5', '1')))).toBe('PORTFOLIO_OVERSELL');
    expect(code(() => book.applyFill({ ...fill(m, 0, 'BUY', '0.5', '1'), conditionId: n.conditionId }))).toBe(
      'PORTFOLIO_BAD_FILL',
    );
    expect(code(() => book.applyFill({ ...fill(m, 0, 'BUY', '0.5', '1'), tokenId: '77' }))).toBe(
      'PORTFOLIO_UNKNOWN_TOKEN',
    );
    expect(code(() => book.applyFill({ ...fill(m, 0, 'BUY', '0.5', '1'), user: 'alice' }))).toBe('PORTFOLIO_BAD_FILL');
    expect(code(() => book.applyFill({ ...fill(m, 0, 'BUY', '0.5', '1'), size: 0 as never }))).toBe(
      'PORTFOLIO_BAD_FILL',
    );
    expect(code(() => book.applyFill({ ...fill(m, 0, 'BUY', '0.5', '1'), feeMicros: -1 as never }))).toBe(
      'PORTFOLIO_BAD_FILL',
    );
    expect(code(() => book.redeem(U, m.conditionId, START))).toBe('PORTFOLIO_NOT_RESOLVED');
    expect(book.sizeOf(U, m.tokenIds[0])).toBe(3_000_000);
    expect(body(getPositions(book, { user: U }))).toHaveLength(1);
  });

  it('conservation: cash out − cash in equals realized + unrealized PnL (any fill sequence)', () => {
    const w = makeWorld(30, 'pf4');
    const m = openMarkets(w)[0];
    if (m === undefined) throw new Error('none');
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            buy: fc.boolean(),
            price: fc.integer({ min: 1, max: 99 }),
            size: fc.integer({ min: 1, max: 5000 }),
            fee: fc.integer({ min: 0, max: 50 }),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        fc.integer({ min: 0, max: 100 }),
        (steps, mark) => {
          const book = new PositionBook(w, () => (mark * 10_000) as Price);
          let cash = 0;
          let held = 0;
          for (const s of steps) {
            const size = s.size * 10_000; // hundredths of a share
            const price = s.price * 10_000;
            if (!s.buy && size > held) continue;
            book.applyFill({
              user: V,
              tokenId: m.tokenIds[0],
              conditionId: m.conditionId,
              side: s.buy ? 'BUY' : 'SELL',
              price: price as Price,
              size: size as never,
              feeMicros: (s.fee * 10_000) as never,
              timeMs: START,
            });
            const notional = (price * size) / 1e6; // exact: cents × hundredths
            cash += s.buy ? -notional - s.fee * 10_000 : notional - s.fee * 10_000;
            held += s.buy ? size : -size;
          }
          const pos = book.current(V)[0];
          const closed = book.closed(V)[0];
          const realized = (pos ?? closed)?.realizedPnl ?? 0;
          const unrealized = pos?.cashPnl ?? 0;
          const value = pos?.currentValue ?? 0;
          // cash + value of what is held = realized + unrealized
          return cash + value === realized + unrealized;
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('GET /positions and /closed-positions parameters', () => {
  const w = makeWorld(300, 'pq');
  const open = openMarkets(w);
  const book = new PositionBook(w, (t) => {
    const ref = w.token(t);
    return ref === undefined ? null : ref.market.state.prices[ref.outcomeIndex];
  });
  // 130 positions of different sizes and prices for U, some sold out, one below 1 share.
  open.slice(0, 130).forEach((m, i) => {
    book.applyFill(
      fill(
        m,
        (i % 2) as 0 | 1,
        'BUY',
        `0.${String(10 + (i % 80)).padStart(2, '0')}`,
        String(2 + ((i * 37) % 200)),
        '0',
        START + i * 1000,
      ),
    );
  });
  const small = open[130];
  if (small === undefined) throw new Error('few markets');
  book.applyFill(fill(small, 0, 'BUY', '0.20', '0.5', '0', START));
  open.slice(131, 151).forEach((m, i) => {
    book.applyFill(fill(m, 0, 'BUY', '0.40', '10', '0', START + i));
    book.applyFill(fill(m, 0, 'SELL', `0.${30 + i}`, '10', '0', START + 50_000 + i * 1000));
  });

  it('user is required; unknown and invalid parameters are data errors', () => {
    expect(failure(getPositions(book, {}))).toEqual({ status: 400, body: { error: 'missing_field: user' } });
    expect(failure(getClosedPositions(book, { limit: '5' }))).toEqual({
      status: 400,
      body: { error: 'missing_field: user' },
    });
    expect(failure(getPositions(book, { user: U, eventId: '3' }))).toEqual({
      status: 400,
      body: { error: 'unknown_field: eventId' },
    });
    expect(failure(getClosedPositions(book, { user: U, sizeThreshold: '1' }))).toEqual({
      status: 400,
      body: { error: 'unknown_field: sizeThreshold' },
    });
    const bad: [Record<string, string>, string][] = [
      [{ limit: '501' }, 'limit'],
      [{ limit: '-1' }, 'limit'],
      [{ offset: '10001' }, 'offset'],
      [{ sizeThreshold: '-1' }, 'sizeThreshold'],
      [{ sizeThreshold: '1e3' }, 'sizeThreshold'],
      [{ redeemable: 'yes' }, 'redeemable'],
      [{ mergeable: '1' }, 'mergeable'],
      [{ sortBy: 'REALIZEDPNL' }, 'sortBy'],
      [{ sortDirection: 'desc' }, 'sortDirection'],
      [{ title: 'x'.repeat(101) }, 'title'],
      [{ market: '0x12' }, 'market'],
    ];
    for (const [q, name] of bad)
      expect(failure(getPositions(book, { user: U, ...q }))).toEqual({
        status: 400,
        body: { error: `invalid_field: ${name}` },
      });
    expect(failure(getPositions(book, { user: 'bob' }))).toEqual({
      status: 400,
      body: { error: 'invalid_field: user' },
    });
    const badClosed: [Record<string, string>, string][] = [
      [{ limit: '51' }, 'limit'],
      [{ offset: '100001' }, 'offset'],
      [{ sortBy: 'TOKENS' }, 'sortBy'],
      [{ title: 'y'.repeat(101) }, 'title'],
    ];
    for (const [q, name] of badClosed)
      expect(failure(getClosedPositions(book, { user: U, ...q }))).toEqual({
        status: 400,
        body: { error: `invalid_field: ${name}` },
      });
  });

  it('defaults: limit 100 / 10, sizeThreshold 1, sorted TOKENS / REALIZEDPNL descending', () => {
    const d = body(getPositions(book, { user: U }));
    expect(d).toHaveLength(100);
    expect(d).toEqual(
      body(
        getPositions(book, {
          user: U,
          limit: '100',
          offset: '0',
          sizeThreshold: '1',
          sortBy: 'TOKENS',
          sortDirection: 'DESC',
          redeemable: 'false',
          mergeable: 'false',
        }),
      ),
    );
    for (let i = 1; i < d.length; i++) expect((d[i]?.size ?? 0) <= (d[i - 1]?.size ?? 0)).toBe(true);
    expect(body(getPositions(book, { user: U, limit: '500' }))).toHaveLength(130);
    expect(body(getPositions(book, { user: U, limit: '500', sizeThreshold: '0' }))).toHaveLength(131);
    expect(body(getPositions(book, { user: U, limit: '500', sizeThreshold: '0.5' }))).toHaveLength(131);
    expect(body(getPositions(book, { user: U, limit: '0' }))).toEqual([]);

    const c = body(getClosedPositions(book, { user: U }));
    expect(c).toHaveLength(10);
    expect(c).toEqual(
      body(
        getClosedPositions(book, { user: U, limit: '10', offset: '0', sortBy: 'REALIZEDPNL', sortDirection: 'DESC' }),
      ),
    );
    for (let i = 1; i < c.length; i++) expect((c[i]?.realizedPnl ?? 0) <= (c[i - 1]?.realizedPnl ?? 0)).toBe(true);
    expect(body(getClosedPositions(book, { user: U, limit: '50' }))).toHaveLength(20);
  });

  it('market and title filters', () => {
    const [a, b] = open;
    if (a === undefined || b === undefined) throw new Error('none');
    const got = body(
      getPositions(book, { user: U, market: `${a.conditionId},${b.conditionId.toUpperCase().replace('0X', '0x')}` }),
    );
    expect(got.map((p) => p.conditionId).sort()).toEqual([a.conditionId, b.conditionId].sort());
    const word = a.question.split(' ')[2] ?? 'the';
    const byTitle = body(getPositions(book, { user: U, title: word.toUpperCase(), limit: '500' }));
    expect(byTitle.length).toBeGreaterThan(0);
    expect(byTitle.every((p) => p.title.toLowerCase().includes(word.toLowerCase()))).toBe(true);
    expect(body(getPositions(book, { user: V }))).toEqual([]);
  });

  it('every sortBy orders by its field in both directions, ties by condition id; pages are disjoint and complete', () => {
    const field: Record<string, (p: Record<string, unknown>) => number | string> = {
      CURRENT: (p) => p['currentValue'] as number,
      INITIAL: (p) => p['initialValue'] as number,
      TOKENS: (p) => p['size'] as number,
      CASHPNL: (p) => p['cashPnl'] as number,
      PERCENTPNL: (p) => p['percentPnl'] as number,
      TITLE: (p) => p['title'] as string,
      RESOLVING: (p) => Date.parse(p['endDate'] as string),
      PRICE: (p) => p['curPrice'] as number,
      AVGPRICE: (p) => p['avgPrice'] as number,
      REALIZEDPNL: (p) => p['realizedPnl'] as number,
      TIMESTAMP: (p) => p['timestamp'] as number,
    };
    const check = (
      rows: Record<string, unknown>[],
      key: (p: Record<string, unknown>) => number | string,
      asc: boolean,
    ): void => {
      for (let i = 1; i < rows.length; i++) {
        const a = rows[i - 1] ?? {};
        const b = rows[i] ?? {};
        const ka = key(a);
        const kb = key(b);
        if (ka === kb)
          expect(
            `${String(a['conditionId'])}:${String(a['outcomeIndex'])}` <
              `${String(b['conditionId'])}:${String(b['outcomeIndex'])}`,
          ).toBe(true);
        else expect(asc ? ka < kb : ka > kb).toBe(true);
      }
    };
    for (const sortBy of POSITIONS_SORT) {
      for (const dir of ['ASC', 'DESC']) {
        const all = body(
          getPositions(book, { user: U, sortBy, sortDirection: dir, limit: '500' }),
        ) as unknown as Record<string, unknown>[];
        check(all, field[sortBy] ?? (() => 0), dir === 'ASC');
        const paged: unknown[] = [];
        for (let off = 0; off < all.length; off += 33)
          paged.push(
            ...body(getPositions(book, { user: U, sortBy, sortDirection: dir, limit: '33', offset: String(off) })),
          );
        expect(paged).toEqual(all);
      }
    }
    for (const sortBy of CLOSED_POSITIONS_SORT) {
      for (const dir of ['ASC', 'DESC']) {
        const all = body(
          getClosedPositions(book, { user: U, sortBy, sortDirection: dir, limit: '50' }),
        ) as unknown as Record<string, unknown>[];
        expect(all).toHaveLength(20);
        check(all, field[sortBy] ?? (() => 0), dir === 'ASC');
      }
    }
  });

  it('redeemable=true keeps only claims in resolved markets', () => {
    const m = open[3];
    if (m === undefined) throw new Error('none');
    expect(body(getPositions(book, { user: U, redeemable: 'true' }))).toEqual([]);
    w.resolve(m.conditionId, 1, START + 999_000);
    const r = body(getPositions(book, { user: U, redeemable: 'true' }));
    expect(r.map((p) => p.conditionId)).toEqual([m.conditionId]);
    expect(r[0]?.curPrice).toBe(1);
  });
});
