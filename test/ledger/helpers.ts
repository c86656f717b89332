// Factories for ledger tests: a ledger on a fresh temp file (or in memory) driven by a VirtualClock,
// and signed orders / fills / positions with sensible defaults. Amounts are written as millionths.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualClock } from '../../src/core/clock.js';
import type { Micros, Price, Shares } from '../../src/core/money.js';
import { Ledger, type LedgerOptions } from '../../src/ledger/ledger.js';
import type { FillInput, LedgerPosition, SignedOrderInput } from '../../src/ledger/types.js';

export const T0 = Date.UTC(2026, 5, 12, 10, 0, 0);
export const COND = '0x7ad403c3508f8e3912940fd1a913f227591145ca0614074208e0b962d5fcc422';
export const YES = '16040015440196279900485035793550429453516625694844857319147506590755961451627';
export const NO = '94476829201604408463453426454480212459887267917122244941405244686637914508323';

export const px = (v: number): Price => v as Price;
export const sh = (v: number): Shares => v as Shares;
export const mc = (v: number): Micros => v as Micros;

/** A ledger position as reads return it (condition `c`, no fees, nothing pending), for code that reads positions. */
export function ledgerPosition(tokenId: string, size: number, cost: number, realized: number): LedgerPosition {
  return {
    tokenId,
    conditionId: 'c',
    size: size as Shares,
    cost: cost as Micros,
    avgPrice: null,
    realized: realized as Micros,
    fees: 0 as Micros,
    bought: size as Shares,
    sold: 0 as Shares,
    pendingSize: 0 as Shares,
    updatedAtMs: 0,
  };
}

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'oddsmaker-ledger-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TestLedger {
  ledger: Ledger;
  clock: VirtualClock;
  path: string;
  reopen: (opts?: Partial<LedgerOptions>) => Ledger;
  cleanup: () => void;
}

/** A ledger on a temp file (WAL, FULL), or in memory when `memory` is set. */
export function testLedger(opts: { memory?: boolean; start?: number } & Partial<LedgerOptions> = {}): TestLedger {
  const clock = new VirtualClock(opts.start ?? T0);
  const t = opts.memory === true ? null : tempDir();
  const path = t === null ? ':memory:' : join(t.dir, 'ledger.db');
  const ledgerOpts: LedgerOptions = { ...opts, clock };
  const state: TestLedger = {
    ledger: Ledger.open(path, ledgerOpts),
    clock,
    path,
    reopen: (more = {}) => {
      state.ledger.close();
      state.ledger = Ledger.open(path, { ...ledgerOpts, ...more });
      return state.ledger;
    },
    cleanup: () => {
      state.ledger.close();
      t?.cleanup();
    },
  };
  return state;
}

let orderSeq = 0;

export function signedOrder(over: Partial<SignedOrderInput> = {}): SignedOrderInput {
  orderSeq++;
  return {
    id: `0x${orderSeq.toString(16).padStart(64, '0')}`,
    tokenId: YES,
    conditionId: COND,
    side: 'BUY',
    price: px(500_000),
    size: sh(10_000_000),
    orderType: 'GTC',
    salt: String(1000 + orderSeq),
    createdAtMs: T0,
    ...over,
  };
}

let fillSeq = 0;

export function fill(over: Partial<FillInput> = {}): FillInput {
  fillSeq++;
  return {
    tokenId: YES,
    conditionId: COND,
    side: 'BUY',
    price: px(500_000),
    size: sh(1_000_000),
    feeMicros: mc(0),
    liquidity: 'maker',
    timeMs: T0,
    source: 'sim',
    dedupKey: `trade-${fillSeq}`,
    ...over,
  };
}
