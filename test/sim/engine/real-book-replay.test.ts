// The YES-terms book against real exchange data: a recorded market-channel burst (token A and its
// complement B, see test/fixtures/real/SOURCES.md) is replayed into the
// engine as resting level orders of token A only. At every event the engine's top of book for the
// complement B, derived purely by the mirror rule, must equal the best bid/ask the real exchange
// published for B; the one real crossing (a large SELL that took the 0.311 and 0.301 bids and rested
// its rest at 0.301) is replayed as that taker order, and must settle at the makers' prices and leave
// exactly the book the exchange published. The final book must equal the closing snapshot.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { parseMicros, parsePrice, parseShares, type Price, type Shares } from '../../../src/core/money.js';
import { auditEngine } from '../../../src/sim/engine/audit.js';
import { MatchingEngine } from '../../../src/sim/engine/engine.js';
import { realText } from '../../support/fixtures.js';

interface Level {
  price: string;
  size: string;
}
interface BookMsg {
  event_type: 'book';
  market: string;
  asset_id: string;
  bids: Level[];
  asks: Level[];
  tick_size: string;
}
interface Change {
  asset_id: string;
  price: string;
  size: string;
  side: 'BUY' | 'SELL';
  best_bid: string;
  best_ask: string;
}
interface PriceChangeMsg {
  event_type: 'price_change';
  timestamp: string;
  price_changes: Change[];
}

const lines = realText('clob_ws_market_burst_2tokens.jsonl')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as BookMsg | PriceChangeMsg);

describe('replay of a real two-token burst', () => {
  it('mirrors the complement exactly and reproduces the real crossing trade', () => {
    const first = lines[0] as BookMsg;
    const last = lines[lines.length - 1] as BookMsg;
    const A = first.asset_id;
    const changes = lines.slice(1, -1) as PriceChangeMsg[];
    const B = (changes[0]?.price_changes.find((c) => c.asset_id !== A) as Change).asset_id;

    const clock = new VirtualClock(Date.UTC(2026, 8, 29));
    const engine = new MatchingEngine({ clock });
    engine.addMarket({
      conditionId: first.market,
      tokens: [A, B],
      tick: parsePrice(first.tick_size),
      minSize: parseShares('1'),
      makerFeeBps: 0,
      takerFeeBps: 0,
      negRisk: false,
      acceptingOrders: true,
    });
    // Bids of A from one maker, asks of A from another, the crossing taker a third.
    engine.deposit('bidder', parseMicros('100000000'));
    engine.mint('asker', first.market, parseShares('10000000'));
    engine.mint('taker', first.market, parseShares('10000'));

    const levelOrder = new Map<string, string>(); // `${side}@${price}` → order id
    let n = 0;
    const setLevel = (side: 'BUY' | 'SELL', price: string, size: string): void => {
      const key = `${side}@${price}`;
      const old = levelOrder.get(key);
      if (old !== undefined) {
        engine.cancel(old);
        levelOrder.delete(key);
      }
      if (parseShares(size) === 0) return;
      const id = `lvl${++n}`;
      const r = engine.submit({
        id,
        owner: side === 'BUY' ? 'bidder' : 'asker',
        tokenId: A,
        side,
        price: parsePrice(price),
        size: parseShares(size),
        orderType: 'GTC',
        postOnly: true,
      });
      expect(r.ok, `${key} ${size}`).toBe(true);
      levelOrder.set(key, id);
    };
    for (const l of first.bids) setLevel('BUY', l.price, l.size);
    for (const l of first.asks) setLevel('SELL', l.price, l.size);

    let compared = 0;
    for (const msg of changes) {
      const a = msg.price_changes.find((c) => c.asset_id === A) as Change;
      const b = msg.price_changes.find((c) => c.asset_id === B) as Change;
      const top = engine.topOfBook(A);
      const crosses =
        a.side === 'SELL' && top?.bid !== null && top?.bid !== undefined && parsePrice(a.price) <= top.bid;
      if (crosses) {
        // The real event: a SELL took every bid at or above its price and rested the rest.
        const taken = engine.bookView(A)?.bids.filter((l) => l.price >= parsePrice(a.price)) ?? [];
        const takenSize = taken.reduce((s, l) => s + l.size, 0);
        const r = engine.submit({
          id: 'cross',
          owner: 'taker',
          tokenId: A,
          side: 'SELL',
          price: parsePrice(a.price),
          size: (takenSize + parseShares(a.size)) as Shares,
          orderType: 'GTC',
        });
        if (!r.ok) throw new Error(r.message);
        expect(r.trades.map((t) => [t.makerPrice, t.size])).toEqual(taken.map((l) => [l.price, l.size]));
        for (const [key, id] of [...levelOrder]) if (engine.getOrder(id)?.status !== 'LIVE') levelOrder.delete(key);
        levelOrder.set(`SELL@${a.price}`, 'cross');
      } else if (a.side === 'BUY' && parseShares(a.size) === 0 && !levelOrder.has(`BUY@${a.price}`)) {
        // A level the crossing trade already removed: the engine got there first.
      } else {
        setLevel(a.side, a.price, a.size);
      }
      const mine = engine.topOfBook(B);
      const recorded = { bid: parsePrice(b.best_bid), ask: parsePrice(b.best_ask) };
      expect(mine, `event ${msg.timestamp}`).toEqual(recorded as { bid: Price; ask: Price });
      compared++;
      expect(auditEngine(engine)).toEqual([]);
    }
    expect(compared).toBe(49);

    const view = engine.bookView(A);
    const norm = (ls: Level[]): [number, number][] =>
      ls.map((l) => [parsePrice(l.price), parseShares(l.size)] as [number, number]).sort((x, y) => x[0] - y[0]);
    expect(view?.bids.map((l) => [l.price, l.size]).sort((x, y) => (x[0] as number) - (y[0] as number))).toEqual(
      norm(last.bids),
    );
    expect(view?.asks.map((l) => [l.price, l.size]).sort((x, y) => (x[0] as number) - (y[0] as number))).toEqual(
      norm(last.asks),
    );
    // The complement's book is the mirror of the closing snapshot.
    expect(engine.bookView(B)?.asks[0]?.price).toBe(1_000_000 - (view?.bids[0]?.price as number));
  });
});
