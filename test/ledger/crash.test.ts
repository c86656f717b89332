// Crash safety of the real ledger. A child process (crash-child.ts: src/ledger's Ledger, run from
// the sources through the test loader) writes to a ledger file and is SIGKILLed at an arbitrary
// point, several times; the parent then reopens the file with the real Ledger and checks:
// 1. cycles, each one ledger.transaction of orders + events + fills + position: every cycle the
//    child reported committed is there, none is there in part, the database is intact;
// 2. a small daemon loop against a deterministic fake exchange, killed mid-loop, restarted (startup
//    reconciliation by lookup), killed again, then reconciled: no orphan order (every open order
//    looked up) and no lost or duplicated fill.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { replayFills } from '../../src/core/pnl.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { NodeChild, reapChildren, TS_LOADER, type Line } from '../support/child.js';
import { CRASH_T0, CYCLE_ORDERS, ORDER_SIZE, exchangeMatched } from './crash-world.js';
import { tempDir } from './helpers.js';

const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await reapChildren();
  while (cleanups.length > 0) cleanups.pop()?.();
});

function tmp(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

/** The crash child in `mode`; SIGKILLed once a line satisfies `killWhen` (null: let it finish). */
async function crashChild(
  args: readonly string[],
  killWhen: ((l: Line, lines: readonly Line[]) => boolean) | null,
): Promise<{ lines: string[]; killed: boolean; code: number | null }> {
  const c = new NodeChild(CHILD, args, { nodeArgs: ['--import', TS_LOADER] });
  if (killWhen !== null) {
    await c.waitFor((l) => killWhen(l, c.lines), `the crash child's kill point (${args[0]})`, 60_000);
    c.child.kill('SIGKILL');
  }
  const exit = await c.exit(60_000);
  if (killWhen === null && exit.code !== 0)
    throw new Error(`crash child failed (${String(exit.code)}): ${c.stderr.join(' | ')}`);
  return { lines: c.lines.map((l) => String(l.msg)), killed: exit.signal === 'SIGKILL', code: exit.code };
}

function lastNumber(lines: readonly string[], word: string): number | null {
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = new RegExp(`^${word} (\\d+)$`).exec(lines[i] ?? '');
    if (m !== null) return Number(m[1]);
  }
  return null;
}

const commits = (lines: readonly Line[]): number =>
  lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('commit ')).length;

function integrityOk(path: string): boolean {
  const raw = new Database(path, { readonly: true });
  try {
    return raw.pragma('integrity_check', { simple: true }) === 'ok';
  } finally {
    raw.close();
  }
}

describe('crash safety of the real ledger', () => {
  it('transactions killed with SIGKILL mid-way are there whole or not at all', async () => {
    const path = join(tmp(), 'cycles.db');
    let next = 0;
    for (const killAfter of [3, 17, 41]) {
      const run = await crashChild(['cycles', path, String(next)], (_, lines) => commits(lines) > killAfter);
      expect(run.killed).toBe(true);
      const committed = lastNumber(run.lines, 'commit') ?? -1;
      const begun = lastNumber(run.lines, 'begin') ?? -1;
      expect(committed).toBeGreaterThanOrEqual(next + killAfter);
      expect(integrityOk(path)).toBe(true);

      const l = Ledger.open(path, { clock: new VirtualClock(CRASH_T0) });
      try {
        // Cycle k is there whole (all its orders, matched, each with its one fill) or not at all.
        const present = (k: number): boolean => {
          const orders = Array.from({ length: CYCLE_ORDERS }, (_, i) => l.order(`c${k}-o${i}`));
          const n = orders.filter((o) => o !== null).length;
          expect(n === 0 || n === CYCLE_ORDERS, `cycle ${k} has ${n} of its ${CYCLE_ORDERS} orders`).toBe(true);
          for (const o of orders) {
            if (o === null) continue;
            expect(o.state).toBe('matched');
            expect(l.fillsOfOrder(o.id).map((f) => f.size)).toEqual([ORDER_SIZE]);
          }
          return n === CYCLE_ORDERS;
        };
        for (let k = 0; k <= committed; k++) expect(present(k), `committed cycle ${k}`).toBe(true);
        // The cycle in flight at the kill: whole if its commit reached the disk, else absent.
        const inFlight = present(committed + 1);
        expect(!inFlight || begun === committed + 1).toBe(true);
        expect(present(committed + 2)).toBe(false);
        const last = inFlight ? committed + 1 : committed;
        const fills = l.fills(0, 100_000);
        expect(fills).toHaveLength((last + 1) * CYCLE_ORDERS);
        const replay = replayFills(
          fills.map((f) => ({ side: f.side, price: f.price, size: f.size, feeMicros: f.feeMicros })),
        );
        expect(l.position('tok')).toMatchObject({ size: (last + 1) * CYCLE_ORDERS * ORDER_SIZE, cost: replay.cost });
        expect(l.openOrders()).toEqual([]);
        next = last + 1;
      } finally {
        l.close();
      }
    }
  });

  it('a daemon loop killed mid-loop and restarted has no orphan order and no lost or duplicated fill', async () => {
    const path = join(tmp(), 'daemon.db');
    const count = (lines: readonly Line[], word: string): number =>
      lines.filter((l) => String(l.msg).startsWith(word)).length;
    // Round 1 is killed just after a batch was written (orders signed, maybe sent, not yet
    // answered); round 2 reconciles, continues and is killed at an arbitrary point; round 3 only
    // reconciles.
    const r1 = await crashChild(['run', path], (_, lines) => count(lines, 'signed') >= 7);
    const r2 = await crashChild(['run', path], (_, lines) => count(lines, 'cycle') >= 5);
    expect([r1.killed, r2.killed]).toEqual([true, true]);
    expect(r2.lines[0]).toMatch(/^reconciled \d+ in flight \d+$/);
    const r3 = await crashChild(['reconcile', path], null);
    expect(r3.code).toBe(0);
    expect(r3.lines[0]).toMatch(/^reconciled /);
    expect(integrityOk(path)).toBe(true);

    const l = Ledger.open(path, { clock: new VirtualClock(CRASH_T0) });
    try {
      const ids: string[] = [];
      for (let k = 0; l.order(`o-${k}`) !== null; k++) ids.push(`o-${k}`);
      expect(ids.length).toBeGreaterThanOrEqual(12 * 4);
      let total = 0;
      for (const id of ids) {
        const o = l.order(id);
        const sum = l.fillsOfOrder(id).reduce((s, f) => s + f.size, 0);
        // Exactly what the exchange matched: nothing lost, nothing twice.
        expect(sum).toBe(exchangeMatched(Number(id.slice(2))));
        expect(o?.sizeMatched).toBe(sum);
        // No orphan: every order has been looked up, so none is left signed, sent or unknown.
        expect(['live', 'matched']).toContain(o?.state);
        total += sum;
      }
      const fills = l.fills(0, 100_000);
      expect(new Set(fills.map((f) => f.dedupKey)).size).toBe(fills.length);
      const replay = replayFills(
        fills.map((f) => ({ side: f.side, price: f.price, size: f.size, feeMicros: f.feeMicros })),
      );
      expect(l.position('tok')).toMatchObject({ size: total, cost: replay.cost, realized: replay.realized });
    } finally {
      l.close();
    }
  });
});
