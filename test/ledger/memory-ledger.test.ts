// The in-memory ledger against the SQLite one: random call sequences (signed orders and every
// mark of their life, placements matched on arrival, lookups, cumulative matches, direct fills of
// both sides past the position, fees and rebates, dedup keys reused, resolutions with winners and
// general payouts, snapshots, day boundaries on a virtual clock, transactions that throw) are
// applied to both, and after every step every read is equal and every error has the same code.
// Then saveTo: the SQLite file it writes reads as the memory ledger does, order events included.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import type { Micros, Price, Shares } from '../../src/core/money.js';
import { Ledger, LedgerSaveError, MemoryLedger, type LedgerStore } from '../../src/ledger/index.js';
import { compareBinary } from '../../src/ledger/memory/binary-order.js';
import { TimeSums } from '../../src/ledger/memory/time-sums.js';
import type {
  DailyPnl,
  FillInput,
  LedgerOrder,
  LedgerPosition,
  MarkToMarket,
  Settlement,
  SignedOrderInput,
} from '../../src/ledger/types.js';
import { fill, px, sh, T0, tempDir, YES } from './helpers.js';

const C1 = 'cond-1';
const C2 = 'cond-2';
/** Tokens with their condition; token ids chosen so SQLite's BINARY order matters. */
const TOKENS: readonly (readonly [string, string])[] = [
  ['tok-b', C1],
  ['tok-a', C1],
  ['tok-\uff21', C2],
  ['tok-\u{1f600}', C2],
];
const KEYS = ['k0', 'k1', 'k2', 'k3'];

interface OrderSpec {
  readonly token: number;
  readonly side: 'BUY' | 'SELL';
  readonly price: number;
  readonly size: number;
  readonly orderType: string;
  readonly createdOffset: number;
  readonly meta: boolean;
}

type Cmd =
  | { k: 'sign'; o: OrderSpec }
  | { k: 'signBatch'; os: OrderSpec[]; dupOf: number | null; alter: boolean }
  | { k: 'resign'; i: number; alter: boolean }
  | {
      k: 'mark';
      m: 'sent' | 'unknown' | 'canceled' | 'cancelAnswered' | 'cancelNotSent' | 'matched';
      i: number;
    }
  | { k: 'accepted'; i: number; status: string; frac: number; slack: number; fee: number | null }
  | { k: 'rejected'; i: number; dup: boolean }
  | { k: 'cancelling'; is: number[] }
  | { k: 'lookup'; i: number; status: string; frac: number; price: number | null; fee: number | null; again?: boolean }
  | { k: 'cumulative'; i: number; frac: number; fee: number | null; price: number | null; notional: boolean }
  | {
      k: 'fill';
      token: number;
      wrongCond: boolean;
      side: 'BUY' | 'SELL';
      price: number;
      size: number;
      fee: number;
      key: number;
      order: number | null;
      notional: number | null;
    }
  | { k: 'resolve'; c: number; w: number }
  | { k: 'settle'; c: number; p0: number; p1: number; winner: boolean }
  | { k: 'advance'; ms: number }
  | { k: 'snapshot' }
  | { k: 'bind'; mode: 'sandbox' | 'paper'; account: string }
  | { k: 'cycle'; bad: boolean }
  | { k: 'tx'; cmds: Cmd[]; fail: boolean };

const priceArb = fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.constantFrom(0, 1, 500_000, 999_999, 1_000_000));
const orderArb: fc.Arbitrary<OrderSpec> = fc.record({
  token: fc.nat(3),
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  price: priceArb,
  size: fc.oneof(
    fc.integer({ min: 1, max: 20 }).map((n) => n * 1_000_000),
    fc.integer({ min: 1, max: 9_999_999 }),
  ),
  orderType: fc.constantFrom('GTC', 'GTC', 'GTD', 'FOK', 'FAK'),
  createdOffset: fc.integer({ min: -5, max: 5 }),
  meta: fc.boolean(),
});
/** An order by recency (0: the latest), or -1: an id the ledgers do not know. */
const idx = fc.oneof({ weight: 20, arbitrary: fc.nat(5) }, { weight: 1, arbitrary: fc.constant(-1) });
const fracArb = fc.integer({ min: 0, max: 4 });
const feeArb = fc.option(fc.integer({ min: -2_000, max: 50_000 }), { nil: null });

const leafArb: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 4, arbitrary: orderArb.map((o): Cmd => ({ k: 'sign', o })) },
  {
    weight: 1,
    arbitrary: fc
      .record({
        os: fc.array(orderArb, { minLength: 1, maxLength: 3 }),
        dupOf: fc.option(idx, { nil: null }),
        alter: fc.boolean(),
      })
      .map((r): Cmd => ({ k: 'signBatch', ...r })),
  },
  { weight: 1, arbitrary: fc.record({ i: idx, alter: fc.boolean() }).map((r): Cmd => ({ k: 'resign', ...r })) },
  {
    weight: 6,
    arbitrary: fc
      .record({
        m: fc.constantFrom(
          'sent' as const,
          'sent' as const,
          'unknown' as const,
          'canceled' as const,
          'cancelAnswered' as const,
          'cancelNotSent' as const,
          'matched' as const,
        ),
        i: idx,
      })
      .map((r): Cmd => ({ k: 'mark', ...r })),
  },
  {
    weight: 4,
    arbitrary: fc
      .record({
        i: idx,
        status: fc.constantFrom('live', 'matched', 'matched', 'MATCHED', 'delayed', 'unmatched', 'bogus'),
        frac: fracArb,
        slack: fc.integer({ min: -2, max: 2 }),
        fee: feeArb,
      })
      .map((r): Cmd => ({ k: 'accepted', ...r })),
  },
  { weight: 1, arbitrary: fc.record({ i: idx, dup: fc.boolean() }).map((r): Cmd => ({ k: 'rejected', ...r })) },
  {
    weight: 1,
    arbitrary: fc.array(idx, { minLength: 1, maxLength: 3 }).map((is): Cmd => ({ k: 'cancelling', is })),
  },
  {
    weight: 4,
    arbitrary: fc
      .record({
        i: idx,
        status: fc.constantFrom('LIVE', 'MATCHED', 'CANCELED', 'ORDER_STATUS_LIVE', 'NOT_FOUND', 'INVALID', 'what'),
        frac: fracArb,
        price: fc.option(priceArb, { nil: null }),
        fee: feeArb,
        again: fc.boolean(),
      })
      .map((r): Cmd => ({ k: 'lookup', ...r })),
  },
  {
    weight: 3,
    arbitrary: fc
      .record({
        i: idx,
        frac: fc.integer({ min: 0, max: 5 }),
        fee: feeArb,
        price: fc.option(priceArb, { nil: null }),
        notional: fc.boolean(),
      })
      .map((r): Cmd => ({ k: 'cumulative', ...r })),
  },
  {
    weight: 6,
    arbitrary: fc
      .record({
        token: fc.nat(3),
        wrongCond: fc.integer({ min: 0, max: 15 }).map((n) => n === 0),
        side: fc.constantFrom('BUY' as const, 'SELL' as const),
        price: priceArb,
        size: fc.integer({ min: 1, max: 8_000_000 }),
        fee: fc.integer({ min: -3_000, max: 40_000 }),
        key: fc.nat(KEYS.length + 12),
        order: fc.option(idx, { nil: null, freq: 3 }),
        notional: fc.option(fc.integer({ min: 0, max: 9_000_000 }), { nil: null, freq: 4 }),
      })
      .map((r): Cmd => ({ k: 'fill', ...r })),
  },
  { weight: 1, arbitrary: fc.record({ c: fc.nat(1), w: fc.nat(1) }).map((r): Cmd => ({ k: 'resolve', ...r })) },
  {
    weight: 1,
    arbitrary: fc
      .record({ c: fc.nat(1), p0: priceArb, p1: priceArb, winner: fc.boolean() })
      .map((r): Cmd => ({ k: 'settle', ...r })),
  },
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        fc.integer({ min: 0, max: 2_000 }),
        fc.integer({ min: 1, max: 20 }).map((h) => h * 3_600_000),
      )
      .map((ms): Cmd => ({ k: 'advance', ms })),
  },
  { weight: 2, arbitrary: fc.constant<Cmd>({ k: 'snapshot' }) },
  {
    weight: 1,
    arbitrary: fc
      .record({
        mode: fc.constantFrom('sandbox' as const, 'paper' as const),
        account: fc.constantFrom('0xAbC', 'paper'),
      })
      .map((r): Cmd => ({ k: 'bind', ...r })),
  },
);

const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 1, arbitrary: fc.boolean().map((bad): Cmd => ({ k: 'cycle', bad })) },
  { weight: 12, arbitrary: leafArb },
  {
    weight: 1,
    arbitrary: fc
      .record({ cmds: fc.array(leafArb, { minLength: 1, maxLength: 4 }), fail: fc.boolean() })
      .map((r): Cmd => ({ k: 'tx', ...r })),
  },
);

const midsArb = fc.array(fc.option(priceArb, { nil: null, freq: 3 }), {
  minLength: TOKENS.length,
  maxLength: TOKENS.length,
});

type Outcome = { ok: true; v: unknown } | { ok: false; code: string };

class Boom extends Error {
  readonly code = 'TEST_ROLLBACK';
}

function capture(f: () => unknown): Outcome {
  try {
    return { ok: true, v: f() };
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    return { ok: false, code: typeof code === 'string' ? code : `${(e as Error).name}: ${(e as Error).message}` };
  }
}

/** The runner's state: ids of the orders signed so far and their specs (the same for both ledgers). */
interface World {
  readonly clock: VirtualClock;
  readonly ids: string[];
  readonly orders: Map<string, SignedOrderInput>;
  n: number;
}

function orderOf(w: World, o: OrderSpec): SignedOrderInput {
  w.n++;
  const [tokenId, conditionId] = TOKENS[o.token] as readonly [string, string];
  const rec: SignedOrderInput = {
    id: `0x${w.n.toString(16).padStart(4, '0')}`,
    tokenId,
    conditionId,
    side: o.side,
    price: o.price as Price,
    size: o.size as Shares,
    orderType: o.orderType,
    salt: String(w.n),
    createdAtMs: w.clock.now() + o.createdOffset,
    ...(o.meta ? { meta: { key: `q${w.n}`, n: w.n, ok: true, none: null } } : {}),
  };
  return rec;
}

function pick(w: World, i: number): string {
  return w.ids.length === 0 || i < 0 ? '0xmissing' : (w.ids[w.ids.length - 1 - (i % w.ids.length)] as string);
}

function sizeOf(w: World, id: string): number {
  return w.orders.get(id)?.size ?? 4_000_000;
}

/** Turns a command into one call, the same for both ledgers (ids and amounts fixed here). */
function concrete(w: World, c: Cmd): (l: LedgerStore) => unknown {
  switch (c.k) {
    case 'sign': {
      const o = orderOf(w, c.o);
      w.ids.push(o.id);
      w.orders.set(o.id, o);
      return (l) => l.recordSignedOrder(o);
    }
    case 'signBatch': {
      const os = c.os.map((s) => orderOf(w, s));
      if (c.dupOf !== null && w.ids.length > 0) {
        const prev = w.orders.get(pick(w, c.dupOf));
        if (prev !== undefined) os.push(c.alter ? { ...prev, salt: `${prev.salt}x` } : prev);
      }
      // The batch's first order again: the same (a no-op), or with other contents (refused).
      const first = os[0] as SignedOrderInput;
      if (os.length > 1) os.push(c.alter && c.dupOf === null ? { ...first, salt: `${first.salt}y` } : first);
      for (const o of os) {
        if (!w.orders.has(o.id)) {
          w.ids.push(o.id);
          w.orders.set(o.id, o);
        }
      }
      return (l) => l.recordSignedOrders(os);
    }
    case 'resign': {
      const prev = w.orders.get(pick(w, c.i));
      if (prev === undefined) return (l) => l.recordSignedOrder({ ...orderOf(w, TEMPLATE), price: 2_000_000 as Price });
      const o = c.alter ? { ...prev, size: (prev.size + 1) as Shares } : { ...prev, strategy: 'other' };
      return (l) => l.recordSignedOrder(o);
    }
    case 'mark': {
      const id = pick(w, c.i);
      switch (c.m) {
        case 'sent':
          return (l) => l.markSent(id);
        case 'unknown':
          return (l) => l.markUnknown(id);
        case 'canceled':
          return (l) => l.markCanceled(id, 'gave up');
        case 'cancelAnswered':
          return (l) => l.markCancelAnswered(id);
        case 'cancelNotSent':
          return (l) => l.markCancelNotSent(id, 'breaker open');
        case 'matched':
          return (l) => l.markMatched(id);
      }
      break;
    }
    case 'accepted': {
      const id = pick(w, c.i);
      const o = w.orders.get(id);
      const shares = Math.floor((sizeOf(w, id) * c.frac) / 4);
      const collateral = Math.max(0, Math.ceil((shares * (o?.price ?? 500_000)) / 1_000_000) + c.slack);
      const buy = (o?.side ?? 'BUY') === 'BUY';
      const matched = c.status.toLowerCase() === 'matched';
      const r = {
        status: c.status,
        makingAmount: matched ? (buy ? collateral : shares) : null,
        takingAmount: matched ? (buy ? shares : collateral) : null,
        ...(c.fee === null ? {} : { feeMicros: c.fee as Micros }),
      };
      return (l) => l.markAccepted(id, r);
    }
    case 'rejected': {
      const id = pick(w, c.i);
      return (l) => l.markRejected(id, c.dup ? 'Duplicated.' : 'not enough balance / allowance');
    }
    case 'cancelling': {
      const ids = c.is.map((i) => pick(w, i));
      return (l) => l.markCancelling(ids, 'requote');
    }
    case 'lookup': {
      const id = pick(w, c.i);
      const r = {
        status: c.status,
        sizeMatched: Math.floor((sizeOf(w, id) * c.frac) / 4) as Shares,
        ...(c.price === null ? {} : { price: c.price as Price }),
        ...(c.fee === null ? {} : { feeMicros: c.fee as Micros }),
        timeMs: w.clock.now() - 10,
      };
      // An answer the ledger already holds (live, same status and size): the lookup writes
      // nothing and answers live with no new match, which is what lets the backtest skip it.
      // `again`: the same answer twice, as the exchange gives to every poll of a resting order.
      const lookup = (l: LedgerStore) => {
        const rests = l.restsAsLookedUp(id, r.status, r.sizeMatched);
        const before = l.order(id);
        const out = l.markLookup(id, r);
        if (rests) {
          tally('lookup:rests');
          expect(out).toStrictEqual({ state: 'live', newlyMatched: 0 });
          expect(l.order(id)).toStrictEqual(before);
        }
        return { rests, out };
      };
      return (l) => (c.again ? [lookup(l), lookup(l)] : lookup(l));
    }
    case 'cumulative': {
      const id = pick(w, c.i);
      const size = Math.floor((sizeOf(w, id) * c.frac) / 4) as Shares;
      const opts = {
        ...(c.fee === null ? {} : { feeMicros: c.fee as Micros }),
        ...(c.price === null ? {} : { price: c.price as Price }),
        ...(c.notional ? { notional: Math.floor(size / 3) as Micros } : {}),
        source: 'backtest' as const,
      };
      return (l) => l.recordCumulativeMatch(id, size, opts);
    }
    case 'fill': {
      const [tokenId, cond] = TOKENS[c.token] as readonly [string, string];
      const orderId = c.order === null ? null : pick(w, c.order);
      const f: FillInput = {
        orderId,
        tokenId,
        conditionId: c.wrongCond ? (cond === C1 ? C2 : C1) : cond,
        side: c.side,
        price: c.price as Price,
        size: c.size as Shares,
        feeMicros: c.fee as Micros,
        liquidity: c.fee > 20_000 ? 'taker' : 'maker',
        timeMs: w.clock.now(),
        source: 'sim',
        // A small pool of keys is reused (a repeat, or a clash with other contents).
        dedupKey: c.key < KEYS.length ? (KEYS[c.key] as string) : `f${w.n++}`,
        ...(c.notional === null ? {} : { notional: c.notional as Micros }),
      };
      return (l) => l.recordFill(f);
    }
    case 'resolve': {
      const cond = c.c === 0 ? C1 : C2;
      const winner = TOKENS.filter(([, k]) => k === cond)[c.w]?.[0] as string;
      return (l) => l.resolveMarket(cond, winner, w.clock.now() - 1000);
    }
    case 'settle': {
      const cond = c.c === 0 ? C1 : C2;
      const toks = TOKENS.filter(([, k]) => k === cond).map(([t]) => t);
      const payouts = new Map<string, Price>([
        [toks[0] as string, c.p0 as Price],
        [toks[1] as string, c.p1 as Price],
      ]);
      return (l) => l.settleMarket(cond, payouts, c.winner ? (toks[0] as string) : null);
    }
    case 'advance':
      return () => {
        throw new Error('advance is applied by the runner');
      };
    case 'snapshot':
      return () => {
        throw new Error('snapshot needs mids');
      };
    case 'bind': {
      const id = {
        mode: c.mode,
        exchange: 'sandbox',
        dialect: 'spec',
        account: c.account,
        simSeed: 7,
        simRun: 'run-1',
      };
      return (l) => l.bindIdentity(id);
    }
    case 'cycle': {
      const cyc = {
        startedAtMs: w.clock.now(),
        durationMs: 3,
        books: c.bad ? -1 : 4,
        quotes: 2,
        placed: 1,
        cancelled: 0,
        fills: 0,
        errors: 0,
      };
      return (l) => l.recordCycle(cyc);
    }
    case 'tx': {
      const calls = c.cmds
        .filter((x) => x.k !== 'advance' && x.k !== 'snapshot' && x.k !== 'tx')
        .map((x) => concrete(w, x));
      return (l) =>
        l.transaction(() => {
          // Failures inside are caught, as a caller may: each call alone is whole or nothing.
          const out = calls.map((f) => capture(() => f(l)));
          if (c.fail) throw new Boom('roll back');
          return out;
        });
    }
  }
  throw new Error('unreachable');
}

const TEMPLATE: OrderSpec = {
  token: 0,
  side: 'BUY',
  price: 1,
  size: 1,
  orderType: 'GTC',
  createdOffset: 0,
  meta: false,
};

function midsOf(ms: readonly (number | null)[]): Map<string, Price> {
  const m = new Map<string, Price>();
  ms.forEach((p, i) => {
    if (p !== null) m.set((TOKENS[i] as readonly [string, string])[0], p as Price);
  });
  return m;
}

/** Every read the two ledgers must agree on. */
function reads(l: LedgerStore, w: World, mids: ReadonlyMap<string, Price>): Record<string, Outcome> {
  const last = l.fills(0, -1).length;
  return {
    positions: capture(() => l.positions()),
    open: capture(() => l.positions({ openOnly: true })),
    position: capture(() => TOKENS.map(([t]) => l.position(t))),
    fills: capture(() => l.fills(0)),
    fillsPage: capture(() => l.fills(Math.max(0, last - 3), 2)),
    fillsNone: capture(() => l.fills(last)),
    fillsOfOrder: capture(() => w.ids.slice(-3).map((id) => l.fillsOfOrder(id))),
    openOrders: capture(() => l.openOrders()),
    orders: capture(() => w.ids.map((id) => l.order(id))),
    mtm: capture(() => l.markToMarket(mids)),
    daily: capture(() => l.dailyPnl(mids)),
    // Asked again with an equal map: the in-memory ledger answers from its last computation.
    dailyAgain: capture(() => l.dailyPnl(new Map(mids))),
    settlements: capture(() => l.settlements()),
    settlementsC1: capture(() => l.settlements(C1)),
    resolutions: capture(() => l.resolutions()),
    resolution: capture(() => [l.resolution(C1), l.resolution(C2)]),
    reversals: capture(() => l.fillReversals()),
    identity: capture(() => l.identity()),
  };
}

interface Pair {
  readonly w: World;
  readonly sql: Ledger;
  readonly mem: MemoryLedger;
}

function newPair(): Pair {
  const clock = new VirtualClock(T0);
  return {
    w: { clock, ids: [], orders: new Map(), n: 0 },
    sql: Ledger.open(':memory:', { clock, synchronous: 'NORMAL' }),
    mem: MemoryLedger.open({ clock }),
  };
}

/** Outcomes seen per command kind (ok, or the error code), so a run that tests little fails. */
const seen = new Map<string, number>();
const tally = (k: string): void => {
  seen.set(k, (seen.get(k) ?? 0) + 1);
};

/** Applies one step to both ledgers and checks the outcome and every read are equal. */
function step(p: Pair, c: Cmd, ms: readonly (number | null)[]): void {
  const mids = midsOf(ms);
  if (c.k === 'advance') {
    p.w.clock.advance(c.ms);
  } else {
    const call: (l: LedgerStore) => unknown = c.k === 'snapshot' ? (l) => l.pnlSnapshot(mids) : concrete(p.w, c);
    const a = capture(() => call(p.sql));
    const b = capture(() => call(p.mem));
    expect(b, `outcome of ${JSON.stringify(c)}`).toStrictEqual(a);
    tally(`${c.k}:${a.ok ? 'ok' : a.code}`);
  }
  const want = reads(p.sql, p.w, mids);
  expect(reads(p.mem, p.w, mids)).toStrictEqual(want);
  const v = <T>(o: Outcome | undefined): T | null => (o !== undefined && o.ok ? (o.v as T) : null);
  const positions = v<LedgerPosition[]>(want.positions) ?? [];
  const daily = v<DailyPnl>(want.daily);
  if ((v<Settlement[]>(want.settlements) ?? []).length > 0) tally('read:settlements');
  if (positions.some((x) => x.size < 0)) tally('read:short');
  if (positions.some((x) => x.pendingSize !== 0)) tally('read:pending');
  if ((v<MarkToMarket>(want.mtm)?.unmarked.length ?? 0) > 0) tally('read:unmarked');
  if (daily !== null && daily.baselineAtMs !== null) tally('read:baseline');
  if (daily !== null && daily.realized !== 0) tally('read:daily-realized');
  if ((v<LedgerOrder[]>(want.openOrders) ?? []).some((o) => o.state === 'closing')) tally('read:closing');
}

const runArb = fc.array(fc.tuple(cmdArb, midsArb), { minLength: 10, maxLength: 60, size: 'max' });

describe('MemoryLedger equals the SQLite Ledger', () => {
  it('on random call sequences: every outcome, error code and read, after every step', () => {
    fc.assert(
      fc.property(runArb, (steps) => {
        const p = newPair();
        try {
          for (const [c, ms] of steps) step(p, c, ms);
          // Order events (memory replays its log into SQLite to read them): same log as the Ledger's.
          for (const id of p.w.ids.slice(-4)) expect(p.mem.orderEvents(id)).toStrictEqual(p.sql.orderEvents(id));
        } finally {
          p.sql.close();
        }
      }),
      { numRuns: 250, seed: 15_2026 },
    );
    // The sequences reached what they are meant to test (a weak generator would pass vacuously).
    for (const k of [
      'accepted:ok',
      'lookup:ok',
      'lookup:rests',
      'cumulative:ok',
      'fill:ok',
      'fill:INVARIANT',
      'mark:LEDGER_BAD_TRANSITION',
      'lookup:LEDGER_UNKNOWN_STATUS',
      'resign:LEDGER_DUPLICATE_ORDER',
      'signBatch:LEDGER_DUPLICATE_ORDER',
      'settle:INVARIANT',
      'tx:TEST_ROLLBACK',
      'read:settlements',
      'read:short',
      'read:pending',
      'read:unmarked',
      'read:baseline',
      'read:daily-realized',
      'read:closing',
      'cycle:ok',
      'cycle:INVARIANT',
    ])
      expect(seen.get(k) ?? 0, k).toBeGreaterThan(10);
  });

  it("the day's PnL is computed again after anything it reads changes, a snapshot at midnight included", () => {
    const midnight = Date.UTC(2026, 5, 13);
    const clock = new VirtualClock(midnight);
    const sql = Ledger.open(':memory:', { clock, synchronous: 'NORMAL' });
    const mem = MemoryLedger.open({ clock });
    try {
      const both = <T>(f: (l: LedgerStore) => T): T => {
        const want = f(sql);
        expect(f(mem)).toStrictEqual(want);
        return want;
      };
      const mids = new Map([[YES, px(450_000)]]);
      const buy = fill({ price: px(400_000), size: sh(10_000_000) });
      both((l) => l.recordFill(buy));
      expect(both((l) => l.dailyPnl(mids))).toMatchObject({ baselineAtMs: null, total: 500_000 });
      // A snapshot at this very instant (midnight) becomes the day's baseline.
      both((l) => l.pnlSnapshot(mids));
      expect(both((l) => l.dailyPnl(mids))).toMatchObject({ baselineAtMs: midnight, total: 0 });
      // The same map, written to: the mark moves.
      mids.set(YES, px(500_000));
      expect(both((l) => l.dailyPnl(mids)).total).toBe(500_000);
      // A fill at the same mark: the position moves.
      both((l) => l.recordFill(fill({ side: 'SELL', price: px(500_000), size: sh(5_000_000) })));
      expect(both((l) => l.dailyPnl(mids))).toMatchObject({ realized: 500_000, unrealizedChange: 0 });
      // The next day: a new baseline (the snapshot is before it) and no realized PnL yet.
      clock.advance(86_400_000);
      expect(both((l) => l.dailyPnl(mids))).toMatchObject({ dayStartMs: midnight + 86_400_000, realized: 0 });
    } finally {
      sql.close();
    }
  });

  it('fills are settled as recorded in a resolved market, and pending shares zeroed', () => {
    const p = newPair();
    const o: OrderSpec = { ...TEMPLATE, price: 400_000, size: 10_000_000 };
    step(p, { k: 'sign', o }, [500_000, null, null, null]);
    step(p, { k: 'cumulative', i: 0, frac: 2, fee: 100, price: null, notional: false }, [null, null, null, null]);
    expect(p.mem.position('tok-b')?.pendingSize).toBe(5_000_000);
    step(p, { k: 'resolve', c: 0, w: 0 }, [null, null, null, null]);
    expect(p.mem.settlements()).toHaveLength(1);
    step(p, { k: 'lookup', i: 0, status: 'MATCHED', frac: 4, price: null, fee: null }, [null, null, null, null]);
    expect(p.mem.settlements()).toHaveLength(2);
    expect(p.mem.position('tok-b')).toMatchObject({ size: 0, pendingSize: 0 });
    p.sql.close();
  });

  it('a transaction that throws leaves nothing of its writes', () => {
    const p = newPair();
    step(p, { k: 'sign', o: TEMPLATE }, [null, null, null, null]);
    const before = reads(p.mem, p.w, new Map());
    step(
      p,
      {
        k: 'tx',
        fail: true,
        cmds: [
          { k: 'mark', m: 'sent', i: 0 },
          { k: 'sign', o: { ...TEMPLATE, price: 7 } },
        ],
      },
      [null, null, null, null],
    );
    expect(p.mem.operations).toBe(1);
    const after = reads(p.mem, p.w, new Map());
    expect(after.openOrders).toStrictEqual(before.openOrders);
    expect(p.mem.order(p.w.ids[1] as string)).toBeNull();
    p.sql.close();
  });
});

/** A file a ledger without history is asked to write (it refuses before touching the disk). */
const NEVER_WRITTEN = join(tmpdir(), 'oddsmaker-never-written.sqlite');

describe('MemoryLedger without history', () => {
  it('on random call sequences: the outcomes, reads and write count of the ledger with history, until a transaction it cannot roll back', () => {
    let broken = 0;
    fc.assert(
      fc.property(runArb, (steps) => {
        const clock = new VirtualClock(T0);
        const w: World = { clock, ids: [], orders: new Map(), n: 0 };
        const full = MemoryLedger.open({ clock });
        const lean = MemoryLedger.open({ clock, history: false });
        let stopped = false;
        for (const [c, ms] of steps) {
          const mids = midsOf(ms);
          if (c.k === 'advance') {
            clock.advance(c.ms);
            continue;
          }
          const call: (l: LedgerStore) => unknown = c.k === 'snapshot' ? (l) => l.pnlSnapshot(mids) : concrete(w, c);
          if (stopped) {
            expect(capture(() => call(lean))).toStrictEqual({ ok: false, code: 'LEDGER_NOT_ROLLED_BACK' });
            continue;
          }
          const before = lean.operations;
          const a = capture(() => call(full));
          const b = capture(() => call(lean));
          expect(b, `outcome of ${JSON.stringify(c)}`).toStrictEqual(a);
          if (c.k === 'tx' && !a.ok && lean.operations !== before) {
            // Writes the full ledger rolled back and this one could not: it takes no more calls.
            stopped = true;
            broken++;
            expect(capture(() => lean.order(w.ids[0] ?? 'x'))).toStrictEqual({
              ok: false,
              code: 'LEDGER_NOT_ROLLED_BACK',
            });
            continue;
          }
          expect(lean.operations).toBe(full.operations);
          expect(reads(lean, w, mids)).toStrictEqual(reads(full, w, mids));
        }
        expect(capture(() => lean.saveTo(NEVER_WRITTEN))).toStrictEqual({ ok: false, code: 'LEDGER_NO_HISTORY' });
      }),
      { numRuns: 150, seed: 15_2027 },
    );
    // Some sequences reached a failed transaction that had written (the case this mode changes).
    expect(broken).toBeGreaterThan(5);
  });

  it('refuses order events and a file, naming why', () => {
    const lean = MemoryLedger.open({ clock: new VirtualClock(T0), history: false });
    expect(capture(() => lean.orderEvents('x'))).toStrictEqual({ ok: false, code: 'LEDGER_NO_HISTORY' });
    expect(() => lean.saveTo(NEVER_WRITTEN)).toThrow(/opened without history/);
    expect(existsSync(NEVER_WRITTEN)).toBe(false);
  });
});

describe('MemoryLedger.saveTo', () => {
  const dirs: (() => void)[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) d();
  });

  it('writes a SQLite ledger whose reads equal the memory ledger’s', () => {
    const { dir, cleanup } = tempDir();
    dirs.push(cleanup);
    let run = 0;
    fc.assert(
      fc.property(runArb, midsArb, (steps, endMids) => {
        const p = newPair();
        try {
          for (const [c, ms] of steps) step(p, c, ms);
          const path = join(dir, `saved-${run++}.db`);
          const summary = p.mem.saveTo(path);
          expect(summary.fills).toBe(p.mem.fills(0, -1).length);
          const saved = Ledger.open(path, { clock: p.w.clock });
          try {
            const mids = midsOf(endMids);
            expect(reads(saved, p.w, mids)).toStrictEqual(reads(p.mem, p.w, mids));
            for (const id of p.w.ids) expect(saved.orderEvents(id)).toStrictEqual(p.sql.orderEvents(id));
          } finally {
            saved.close();
          }
        } finally {
          p.sql.close();
        }
      }),
      { numRuns: 40, seed: 20_261_125 },
    );
  });

  it('refuses an existing file with LEDGER_SAVE_EXISTS and leaves it as it was', () => {
    const { dir, cleanup } = tempDir();
    dirs.push(cleanup);
    const p = newPair();
    step(p, { k: 'sign', o: TEMPLATE }, [null, null, null, null]);
    const path = join(dir, 'l.db');
    p.mem.saveTo(path);
    const err = capture(() => p.mem.saveTo(path));
    expect(err).toStrictEqual({ ok: false, code: 'LEDGER_SAVE_EXISTS' });
    expect(() => p.mem.saveTo(path)).toThrow(LedgerSaveError);
    expect(existsSync(path)).toBe(true);
    const saved = Ledger.open(path, { clock: p.w.clock });
    expect(saved.openOrders()).toHaveLength(1);
    saved.close();
    p.sql.close();
  });

  it('saves after close, while every other call says LEDGER_CLOSED', () => {
    const { dir, cleanup } = tempDir();
    dirs.push(cleanup);
    const p = newPair();
    step(p, { k: 'sign', o: TEMPLATE }, [null, null, null, null]);
    p.mem.close();
    expect(p.mem.isOpen).toBe(false);
    expect(capture(() => p.mem.positions())).toStrictEqual({ ok: false, code: 'LEDGER_CLOSED' });
    const path = join(dir, 'closed.db');
    expect(p.mem.saveTo(path).orders).toBe(1);
    p.sql.close();
  });
});

describe('the in-memory ledger’s helpers', () => {
  it('compareBinary orders strings as SQLite BINARY does (UTF-8 bytes)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        const want = Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
        expect(Math.sign(compareBinary(a, b))).toBe(want);
      }),
      { numRuns: 2000, seed: 15 },
    );
    expect(Math.sign(compareBinary('\u{1f600}', '\uff21'))).toBe(1);
  });

  it('TimeSums answers as a scan does, with times in order or not', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: -1000, max: 1000 })), { maxLength: 80 }),
        fc.boolean(),
        fc.integer({ min: -1, max: 52 }),
        (entries, sorted, t) => {
          const es = sorted ? [...entries].sort((x, y) => x[0] - y[0]) : entries;
          const s = new TimeSums(2);
          for (const [at, v] of es) s.push(at, v);
          const sum = es.reduce((acc, [at, v]) => (at >= t ? acc + v : acc), 0);
          expect(s.sumSince(t)).toBe(sum);
          let best = -1;
          es.forEach(([at], i) => {
            if (at <= t && (best < 0 || at >= (es[best] as [number, number])[0])) best = i;
          });
          expect(s.latestAtOrBefore(t)).toBe(best);
        },
      ),
      { numRuns: 500, seed: 16 },
    );
  });
});
