// The engine's invariants, checked from scratch: used by the property tests after every random
// step, and available to the simulator for a health check. Returns a list of violations (empty when
// sound). What it checks:
// - books: never crossed; each level's qty and count equal the sum and number of its orders; every
//   linked order is LIVE, resting, on the right side and index; the best pointers are exact;
// - orders: every id maps to its LIVE resting node or to its finished record (finished.ts), and
//   every resting node and finished record is mapped; 0 ≤ remaining, remaining + matched = size;
// - reservations: each account's reserved collateral is Σ buyNeed(limit, remaining) of its resting
//   BUYs (each node's own `reserved` equal to it), reserved tokens Σ remaining of its resting SELLs;
//   its live list is exactly its resting orders; no balance is negative;
// - value: Σ (free + reserved collateral) + fees + Σ locked = deposited − withdrawn; per market,
//   before resolution Σ YES = Σ NO = locked, after it Σ winner = locked.
import { SCALE } from '../../core/money.js';
import type { RestingSide } from './book-side.js';
import type { MatchingEngine } from './engine.js';
import { buyNeed } from './fees.js';
import type { MarketBook } from './market.js';
import type { OrderNode } from './order.js';

export function auditEngine(engine: MatchingEngine): string[] {
  const { markets, orders, finished, accounts, feesCollected } = engine.internals();
  const bad: string[] = [];
  const resting = new Set<OrderNode>();

  for (const m of markets.values()) {
    if (m.isCrossed())
      bad.push(`market ${m.conditionId}: book crossed (bid ${m.bids.best * m.grid}, ask ${m.asks.best * m.grid})`);
    auditSide(m, m.bids, resting, bad);
    auditSide(m, m.asks, resting, bad);
  }

  let finishedIds = 0;
  for (const [id, o] of orders) {
    if (typeof o === 'number') {
      finishedIds++;
      if (finished.idAt(o) !== id)
        bad.push(`order ${id}: maps to finished entry ${o} holding ${String(finished.idAt(o))}`);
      else {
        const r = finished.record(o);
        if (r.status === 'LIVE') bad.push(`order ${id}: finished entry with status LIVE`);
        if (r.sizeMatched < 0 || r.sizeMatched > r.originalSize)
          bad.push(`order ${id}: matched ${r.sizeMatched} of ${r.originalSize}`);
      }
      continue;
    }
    if (o.id !== id) bad.push(`order ${id}: maps to node ${o.id}`);
    if (o.remaining < 0 || o.matched < 0 || o.remaining + o.matched !== o.size) {
      bad.push(`order ${o.id}: remaining ${o.remaining} + matched ${o.matched} != size ${o.size}`);
    }
    if (o.status !== 'LIVE' || !o.resting)
      bad.push(`order ${o.id}: in the map as a node with status ${o.status}, resting=${String(o.resting)}`);
    if (!resting.has(o)) bad.push(`order ${o.id}: LIVE but not linked in its book`);
  }
  if (finishedIds !== finished.length)
    bad.push(`finished store holds ${finished.length} records but ${finishedIds} ids map to it`);
  for (const o of resting) {
    if (orders.get(o.id) !== o) bad.push(`order ${o.id}: resting but not mapped by its id`);
  }

  let held = 0;
  const liveSeen = new Set<OrderNode>();
  const tokenHeld = new Map<string, number>();
  for (const a of accounts.all()) {
    let needC = 0;
    const needT = new Map<string, number>();
    const live = a.liveOrders();
    if (live.length !== a.liveCount) bad.push(`account ${a.id}: live list of ${live.length} but count ${a.liveCount}`);
    for (const o of live) {
      liveSeen.add(o);
      if (o.account !== a) bad.push(`order ${o.id}: in the live list of ${a.id} but owned by ${o.owner}`);
      if (!resting.has(o)) bad.push(`account ${a.id}: live order ${o.id} is not in a book`);
      if (o.isBuy) {
        const need = buyNeed(o.price, o.remaining, o.market.fees);
        if (o.reserved !== need) bad.push(`order ${o.id}: reserved ${o.reserved} != need ${need}`);
        needC += need;
      } else {
        needT.set(o.tokenId, (needT.get(o.tokenId) ?? 0) + o.remaining);
      }
    }
    if (a.reserved !== needC) bad.push(`account ${a.id}: reserved collateral ${a.reserved} != resting need ${needC}`);
    if (a.available < 0 || a.reserved < 0) bad.push(`account ${a.id}: negative collateral`);
    held += a.available + a.reserved;
    for (const [t, p] of a.positions) {
      const want = needT.get(t) ?? 0;
      if (p.reserved !== want) bad.push(`account ${a.id}: reserved ${t} ${p.reserved} != resting sells ${want}`);
      if (p.available < 0 || p.reserved < 0) bad.push(`account ${a.id}: negative balance of ${t}`);
      tokenHeld.set(t, (tokenHeld.get(t) ?? 0) + p.available + p.reserved);
    }
  }
  for (const o of resting) {
    if (!liveSeen.has(o)) bad.push(`order ${o.id}: resting but missing from its account's live set`);
  }

  let locked = 0;
  for (const m of markets.values()) {
    locked += m.locked;
    const yes = tokenHeld.get(m.tokens[0]) ?? 0;
    const no = tokenHeld.get(m.tokens[1]) ?? 0;
    if (m.winner === -1) {
      if (yes !== m.locked || no !== m.locked)
        bad.push(`market ${m.conditionId}: YES ${yes} / NO ${no} held but ${m.locked} locked`);
    } else {
      const win = m.winner === 0 ? yes : no;
      if (win !== m.locked) bad.push(`market ${m.conditionId}: ${win} winning tokens held but ${m.locked} locked`);
    }
  }
  const total = held + feesCollected + locked;
  const external = accounts.deposited - accounts.withdrawn;
  if (total !== external)
    bad.push(
      `value: held ${held} + fees ${feesCollected} + locked ${locked} = ${total} != deposited − withdrawn ${external}`,
    );
  return bad;
}

function auditSide(m: MarketBook, side: RestingSide, resting: Set<OrderNode>, bad: string[]): void {
  let best = side.isBid ? -1 : side.slots;
  let orders = 0;
  for (let i = 0; i < side.levels.length; i++) {
    const lv = side.levels[i];
    if (lv === null || lv === undefined) continue;
    let qty = 0;
    let count = 0;
    let prev: OrderNode | null = null;
    for (let o = lv.head; o !== null; o = o.next) {
      if (o.prev !== prev) bad.push(`order ${o.id}: broken prev link`);
      prev = o;
      qty += o.remaining;
      count++;
      resting.add(o);
      if (o.status !== 'LIVE' || !o.resting) bad.push(`order ${o.id}: linked with status ${o.status}`);
      if (o.idx !== i || o.market !== m || o.isBid !== side.isBid)
        bad.push(`order ${o.id}: on the wrong level or side`);
      if (o.yesPrice !== i * m.grid) bad.push(`order ${o.id}: YES price ${o.yesPrice} at index ${i} × grid ${m.grid}`);
      if (o.remaining <= 0) bad.push(`order ${o.id}: resting with nothing left`);
      if (o.yesPrice <= 0 || o.yesPrice >= SCALE) bad.push(`order ${o.id}: price out of range`);
    }
    if (lv.tail !== prev) bad.push(`market ${m.conditionId}: level ${i} tail is not its last order`);
    if (qty !== lv.qty || count !== lv.count)
      bad.push(`market ${m.conditionId}: level ${i} qty/count ${lv.qty}/${lv.count} != ${qty}/${count}`);
    orders += count;
    if (count > 0) best = side.isBid ? Math.max(best, i) : Math.min(best, i);
  }
  if (best !== side.best)
    bad.push(`market ${m.conditionId}: ${side.isBid ? 'bid' : 'ask'} best ${side.best} != ${best}`);
  if (orders !== side.orders) bad.push(`market ${m.conditionId}: side order count ${side.orders} != ${orders}`);
}
