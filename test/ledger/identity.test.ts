// The ledger's identity (migration 8, src/ledger/identity.ts): the first bind records the exchange
// and account, a later bind with the same ones is `same` (accounts compared case-insensitively),
// any other is `other` naming the fields that differ and never overwrites the record; a ledger
// written before migration 8 keeps its data and is bound by the next daemon.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import type { LedgerIdentity } from '../../src/ledger/index.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { migrate } from '../../src/ledger/migrations.js';
import { COND, T0, tempDir, YES } from './helpers.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function tmpPath(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return join(t.dir, 'ledger.sqlite');
}

const LIVE: LedgerIdentity = {
  mode: 'live',
  exchange: 'http://127.0.0.1:8080',
  dialect: 'spec',
  account: '0xAbCdEf0000000000000000000000000000000001',
  simSeed: null,
  simRun: null,
};

describe('ledger identity', () => {
  it('is recorded by the first bind and compared by every later one, across reopening', () => {
    const path = tmpPath();
    const clock = new VirtualClock(T0);
    const l1 = Ledger.open(path, { clock });
    expect(l1.identity()).toBeNull();
    expect(l1.bindIdentity(LIVE)).toEqual({
      status: 'bound',
      identity: { ...LIVE, account: LIVE.account.toLowerCase(), boundAtMs: T0 },
    });
    l1.close();

    clock.advance(60_000);
    const l2 = Ledger.open(path, { clock });
    expect(l2.bindIdentity({ ...LIVE, account: LIVE.account.toUpperCase().replace('0X', '0x') })).toMatchObject({
      status: 'same',
      identity: { boundAtMs: T0 },
    });
    const other = l2.bindIdentity({
      ...LIVE,
      exchange: 'http://127.0.0.1:9090',
      account: '0x00000000000000000000000000000000000000ff',
    });
    expect(other).toMatchObject({
      status: 'other',
      differs: ['exchange', 'account'],
      identity: { exchange: LIVE.exchange },
    });
    // A refused bind changes nothing.
    expect(l2.identity()).toEqual({ ...LIVE, account: LIVE.account.toLowerCase(), boundAtMs: T0 });
    l2.close();
  });

  it('tells sandbox runs apart by their run id, and modes apart', () => {
    const l = Ledger.open(tmpPath(), { clock: new VirtualClock(T0) });
    const run1: LedgerIdentity = {
      mode: 'sandbox',
      exchange: 'sandbox',
      dialect: 'spec',
      account: '0x01',
      simSeed: 42,
      simRun: 'run-1',
    };
    expect(l.bindIdentity(run1).status).toBe('bound');
    expect(l.bindIdentity({ ...run1, simRun: 'run-2' })).toMatchObject({ status: 'other', differs: ['simRun'] });
    expect(l.bindIdentity({ ...LIVE, account: '0x01' })).toMatchObject({
      status: 'other',
      differs: ['mode', 'exchange', 'simSeed', 'simRun'],
    });
    l.close();
  });

  it('a ledger written before migration 8 keeps its orders and is bound by the next daemon', () => {
    const path = tmpPath();
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    expect(migrate(db, T0, 7).to).toBe(7);
    db.prepare(
      `INSERT INTO orders (id, token_id, condition_id, side, price, size, order_type, salt, created_at_ms, state, state_at_ms, size_matched)
      VALUES ('old-1', ?, ?, 'BUY', 500000, 10000000, 'GTC', '7', ?, 'live', ?, 0)`,
    ).run(YES, COND, T0, T0);
    db.close();
    const clock = new VirtualClock(T0);
    const old = Ledger.open(path, { clock }); // migrates to the latest
    expect(old.migration).toMatchObject({ from: 7, applied: [8] });
    expect(old.identity()).toBeNull();
    expect(old.bindIdentity(LIVE).status).toBe('bound');
    expect(old.openOrders().map((o) => o.id)).toEqual(['old-1']);
    old.close();
  });

  it('holds one identity at most', () => {
    const path = tmpPath();
    const l = Ledger.open(path, { clock: new VirtualClock(T0) });
    l.bindIdentity(LIVE);
    l.close();
    const db = new Database(path);
    expect(() =>
      db
        .prepare(
          `INSERT INTO ledger_identity (id, mode, exchange, dialect, account, bound_at_ms) VALUES (2, 'live', 'x', 'spec', 'y', 0)`,
        )
        .run(),
    ).toThrow(/CHECK/);
    db.close();
  });
});
