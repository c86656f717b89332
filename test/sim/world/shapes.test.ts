// Every record the world renders, checked field by field against the interface's tables.
import { describe, expect, it } from 'vitest';
import type { Price, Shares, Micros } from '../../../src/core/money.js';
import { PositionBook } from '../../../src/sim/world/portfolio.js';
import { getClosedPositions, getPositions } from '../../../src/sim/world/query-positions.js';
import {
  listMarkets,
  listSamplingMarkets,
  listSamplingSimplifiedMarkets,
} from '../../../src/sim/world/query-markets.js';
import { getLeaderboard } from '../../../src/sim/world/query-leaderboard.js';
import { publicSearch } from '../../../src/sim/world/query-events.js';
import {
  toWireClobMarketSettings,
  toWireMarket,
  toWireSamplingMarket,
  toWireSimplifiedMarket,
} from '../../../src/sim/world/render-market.js';
import { toWireComment, toWireEvent, toWireEventFull, toWireTag } from '../../../src/sim/world/render-catalog.js';
import { TradeLog } from '../../../src/sim/world/trades.js';
import { LEADERBOARD_CATEGORIES, LEADERBOARD_PERIODS } from '../../../src/sim/world/model.js';
import {
  checkComment,
  checkShape,
  CLOB_SETTINGS,
  CLOSED_POSITION,
  envelope,
  EVENT,
  EVENT_FULL,
  LEADERBOARD_ENTRY,
  MARKET,
  POSITION,
  SAMPLING_MARKET,
  SEARCH,
  SIMPLIFIED_MARKET,
  TAG,
  TRADE,
  type FieldType,
} from './shape.js';
import { body, makeWorld } from './helpers.js';

const w = makeWorld(400, 'shapes');

function expectShape(v: unknown, s: FieldType): void {
  expect(checkShape(v, s)).toEqual([]);
}

describe('wire shapes match the interface tables', () => {
  it('§2.8 market records, base and sampling; §2.9 simplified; §2.10 settings', () => {
    for (const m of w.markets) {
      expectShape(toWireMarket(m), MARKET);
      expectShape(toWireSamplingMarket(w, m), SAMPLING_MARKET);
      expectShape(toWireSimplifiedMarket(m), SIMPLIFIED_MARKET);
      expectShape(toWireClobMarketSettings(m), CLOB_SETTINGS);
    }
  });

  it('listing envelopes', () => {
    expectShape(body(listMarkets(w, {})), envelope(MARKET));
    expectShape(body(listSamplingMarkets(w, {})), envelope(SAMPLING_MARKET));
    expectShape(body(listSamplingSimplifiedMarkets(w, {})), envelope(SIMPLIFIED_MARKET));
  });

  it('no null anywhere in market records (none of §2.8 says "or null")', () => {
    for (const m of w.markets) expect(JSON.stringify(toWireSamplingMarket(w, m))).not.toContain('null');
  });

  it('§2.15 tags, §2.16 events (list and full, with event markets and series)', () => {
    for (const t of w.tags) expectShape(toWireTag(t), TAG);
    for (const e of w.events) {
      expectShape(toWireEvent(w, e), EVENT);
      expectShape(toWireEventFull(w, e), EVENT_FULL);
    }
    expect(w.events.some((e) => w.seriesOf(e).length > 0)).toBe(true);
  });

  it('§2.13/2.14 comments with nested replies and profiles', () => {
    for (const c of w.comments) expect(checkComment(toWireComment(w, c))).toEqual([]);
  });

  it('§2.17 leaderboard entries, with null only in xUsername/verifiedBadge', () => {
    let nulls = 0;
    let strings = 0;
    for (const category of LEADERBOARD_CATEGORIES) {
      for (const timePeriod of LEADERBOARD_PERIODS) {
        const rows = body(getLeaderboard(w, { category, timePeriod, limit: '50' }));
        for (const r of rows) {
          expectShape(r, LEADERBOARD_ENTRY);
          if (r.xUsername === null) nulls++;
          else strings++;
        }
      }
    }
    expect(nulls).toBeGreaterThan(0);
    expect(strings).toBeGreaterThan(0);
  });

  it('§2.11/§2.12 positions and protocol §8 trades', () => {
    const book = new PositionBook(w, () => null);
    const log = new TradeLog(w);
    const user = '0x' + 'ab'.repeat(20);
    const open = w.markets.filter((m) => !m.state.closed).slice(0, 6);
    open.forEach((m, i) => {
      const f = {
        user,
        tokenId: m.tokenIds[0],
        conditionId: m.conditionId,
        side: 'BUY' as const,
        price: 400_000 as Price,
        size: ((i + 2) * 1_000_000) as Shares,
        feeMicros: 0 as Micros,
        timeMs: 1_000 * (i + 1),
      };
      book.applyFill(f);
      log.append(f);
    });
    const first = open[0];
    if (first === undefined) throw new Error('no open market');
    book.applyFill({
      user,
      tokenId: first.tokenIds[0],
      conditionId: first.conditionId,
      side: 'SELL',
      price: 500_000 as Price,
      size: 2_000_000 as Shares,
      feeMicros: 0 as Micros,
      timeMs: 10_000,
    });
    const pos = body(getPositions(book, { user }));
    expect(pos.length).toBe(5);
    for (const p of pos) expectShape(p, POSITION);
    const closed = body(getClosedPositions(book, { user }));
    expect(closed.length).toBe(1);
    for (const p of closed) expectShape(p, CLOSED_POSITION);
    for (const t of body(log.query({ user }))) expectShape(t, TRADE);
  });

  it('protocol §8 public search', () => {
    expectShape(body(publicSearch(w, { q: 'will' })), SEARCH);
  });

  it('the checker itself catches missing, extra and mistyped fields', () => {
    const m = toWireMarket(
      w.markets[0] ??
        (() => {
          throw new Error('empty');
        })(),
    ) as unknown as Record<string, unknown>;
    const { question: _q, ...missing } = m;
    expect(checkShape(missing, MARKET)).toEqual(['$.question: missing']);
    expect(checkShape({ ...m, extra: 1 }, MARKET)).toEqual(['$.extra: not in the table']);
    expect(checkShape({ ...m, minimum_tick_size: '0.01' }, MARKET)).toHaveLength(1);
    expect(checkShape({ ...m, end_date_iso: '2026-01-01' }, MARKET)).toHaveLength(1);
    expect(checkShape({ ...m, game_start_time: null }, MARKET)).toHaveLength(1);
  });
});
