// Crash safety. A child process writes to a ledger file and is killed with SIGKILL at an arbitrary
// point, several times; the file is then reopened and checked:
// 1. a plain better-sqlite3 script replays the ledger's write pattern (same schema, WAL,
//    synchronous=FULL, one transaction per cycle of orders + events + fills + position): every
//    cycle it reported committed is there, none is there in part, the database is intact;
// 2. the real Ledger (transpiled to a temp dir) runs a small daemon loop against a deterministic
//    fake exchange, is killed mid-loop, restarts, reconciles its open orders by lookup, and in the
//    end has no orphan order (every open order looked up) and no lost or duplicated fill.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { replayFills } from '../../src/ledger/pnl.js';
import { T0, tempDir } from './helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cleanups: (() => void)[] = [];
afterEach(() => { while (cleanups.length > 0) cleanups.pop()?.(); });

function tmp(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

interface ChildRun {
  lines: string[];
  killed: boolean;
  code: number | null;
}

/**
 * Runs node with `args`; SIGKILLs it once `killWhen(lines)` holds (or lets it finish when
 * killWhen is null). Lines are what the child wrote to stdout.
 */
function runChild(args: string[], killWhen: ((lines: string[]) => boolean) | null): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let buf = '';
    let stderr = '';
    let killed = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buf += chunk;
      const parts = buf.split('\n');
      buf = parts.pop() ?? '';
      lines.push(...parts);
      if (!killed && killWhen !== null && killWhen(lines)) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (buf !== '') lines.push(buf);
      if (!killed && code !== 0) reject(new Error(`child failed (${String(code)} ${String(signal)}): ${stderr}`));
      else resolve({ lines, killed: killed && signal === 'SIGKILL', code });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// 1. The write pattern, in a plain better-sqlite3 script.

const PATTERN_CHILD = String.raw`
const Database = require('better-sqlite3');
const fs = require('node:fs');
const [path, startArg] = process.argv.slice(1);
const N = 20;
const db = new Database(path);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('foreign_keys = ON');
const insOrder = db.prepare("INSERT INTO orders (id, token_id, condition_id, side, price, size, order_type, salt, created_at_ms, state, state_at_ms) VALUES (?, 'tok', 'cond', 'BUY', 500000, 1000000, 'GTC', ?, 0, 'signed', 0)");
const insEvent = db.prepare('INSERT INTO order_events (order_id, at_ms, state, detail) VALUES (?, 0, ?, NULL)');
const setState = db.prepare("UPDATE orders SET state = 'matched', size_matched = size WHERE id = ?");
const insFill = db.prepare("INSERT INTO fills (dedup_key, order_id, token_id, condition_id, side, price, size, notional, fee, liquidity, source, time_ms, recorded_at_ms, realized_delta) VALUES (?, ?, 'tok', 'cond', 'BUY', 500000, 1000000, 500000, 0, 'maker', 'sim', 0, 0, 0)");
const upPos = db.prepare("INSERT INTO positions (token_id, condition_id, size, cost, realized, fees, bought, sold, updated_at_ms) VALUES ('tok', 'cond', ?, ?, 0, 0, ?, 0, 0) ON CONFLICT (token_id) DO UPDATE SET size = size + excluded.size, cost = cost + excluded.cost, bought = bought + excluded.bought");
const cycle = db.transaction((k) => {
  for (let i = 0; i < N; i++) {
    const id = 'c' + k + '-o' + i;
    insOrder.run(id, String(k));
    insEvent.run(id, 'signed');
    insFill.run(id + '@1000000', id);
    setState.run(id);
    insEvent.run(id, 'matched');
  }
  upPos.run(N * 1000000, N * 500000, N * 1000000);
});
for (let k = Number(startArg); ; k++) {
  fs.writeSync(1, 'begin ' + k + '\n');
  cycle.immediate(k);
  fs.writeSync(1, 'commit ' + k + '\n');
}
`;

function lastNumber(lines: string[], word: string): number | null {
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = new RegExp(`^${word} (\\d+)$`).exec(lines[i] ?? '');
    if (m !== null) return Number(m[1]);
  }
  return null;
}

describe('crash safety', () => {
  it('a write pattern killed with SIGKILL mid-way leaves whole transactions only', async () => {
    const path = join(tmp(), 'pattern.db');
    Ledger.open(path, { clock: new VirtualClock(T0) }).close(); // the real schema
    let next = 0;
    for (const killAfter of [3, 17, 41]) {
      const run = await runChild(['-e', PATTERN_CHILD, path, String(next)], (lines) => {
        const c = lastNumber(lines, 'commit');
        return c !== null && c >= next + killAfter;
      });
      expect(run.killed).toBe(true);
      const committed = lastNumber(run.lines, 'commit') ?? -1;
      const begun = lastNumber(run.lines, 'begin') ?? -1;
      expect(committed).toBeGreaterThanOrEqual(next + killAfter);

      const db = new Database(path);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const perCycle = db.prepare<[], { salt: string; n: number }>('SELECT salt, count(*) AS n FROM orders GROUP BY salt').all();
      const cycles = perCycle.map((r) => Number(r.salt)).sort((a, b) => a - b);
      // Every cycle reported committed is there; the one in flight is there whole or not at all.
      const last = cycles.at(-1) ?? -1;
      expect(last === committed || (last === committed + 1 && begun === committed + 1)).toBe(true);
      expect(cycles).toEqual(Array.from({ length: last + 1 }, (_, i) => i));
      expect(perCycle.every((r) => r.n === 20)).toBe(true);
      const count = (sql: string): number => (db.prepare<[], { n: number }>(sql).get()?.n ?? -1);
      expect(count('SELECT count(*) AS n FROM fills')).toBe((last + 1) * 20);
      expect(count('SELECT count(*) AS n FROM order_events')).toBe((last + 1) * 40);
      expect(count("SELECT count(*) AS n FROM orders WHERE state <> 'matched'")).toBe(0);
      expect(db.prepare('SELECT size, cost FROM positions').get()).toEqual({ size: (last + 1) * 20_000_000, cost: (last + 1) * 10_000_000 });
      db.close();
      next = last + 1;
    }
    // The real ledger opens the file afterwards and agrees with it.
    const l = Ledger.open(path, { clock: new VirtualClock(T0) });
    expect(l.position('tok')?.size).toBe(next * 20_000_000);
    expect(l.openOrders()).toEqual([]);
    l.close();
  });

  it('the real ledger, killed mid-loop and restarted, has no orphan order and no lost or duplicated fill', async () => {
    const dir = tmp();
    const childMain = transpileLedger(join(dir, 'build'));
    const path = join(dir, 'daemon.db');
    // Round 1 is killed just after a batch was written (orders signed, maybe sent, not yet
    // answered); round 2 reconciles, continues and is killed at an arbitrary point; round 3 only
    // reconciles.
    const r1 = await runChild([childMain, path, 'run'], (lines) => lines.filter((l) => l.startsWith('signed')).length >= 7);
    const r2 = await runChild([childMain, path, 'run'], (lines) => lines.filter((l) => l.startsWith('cycle')).length >= 5);
    expect([r1.killed, r2.killed]).toEqual([true, true]);
    expect(r2.lines[0]).toMatch(/^reconciled \d+ in flight \d+$/);
    const r3 = await runChild([childMain, path, 'reconcile'], null);
    expect(r3.code).toBe(0);
    expect(r3.lines[0]).toMatch(/^reconciled /);

    const l = Ledger.open(path, { clock: new VirtualClock(T0) });
    try {
      const raw = new Database(path, { readonly: true });
      const all = raw.prepare<[], { id: string }>('SELECT id FROM orders ORDER BY created_at_ms').all().map((r) => r.id);
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
      raw.close();
      expect(all.length).toBeGreaterThanOrEqual(12 * 4);
      let total = 0;
      for (const id of all) {
        const k = Number(id.slice(2));
        const o = l.order(id);
        const fills = l.fillsOfOrder(id);
        const sum = fills.reduce((s, f) => s + f.size, 0);
        // Exactly what the exchange matched: nothing lost, nothing twice.
        expect(sum).toBe(exchangeMatched(k));
        expect(o?.sizeMatched).toBe(sum);
        // No orphan: every order has been looked up, so none is left signed, sent or unknown.
        expect(['live', 'matched']).toContain(o?.state);
        total += sum;
      }
      const fills = l.fills();
      expect(new Set(fills.map((f) => f.dedupKey)).size).toBe(fills.length);
      const replay = replayFills(fills.map((f) => ({ side: f.side, price: f.price, size: f.size, feeMicros: f.feeMicros })));
      expect(l.position('tok')).toMatchObject({ size: total, cost: replay.cost, realized: replay.realized });
    } finally {
      l.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// 2. The real ledger in a child process.

/** What the fake exchange says order k has matched (deterministic, in millionths). */
function exchangeMatched(k: number): number {
  return (k % 6) * 2_000_000; // 0..10 shares of a 10-share order
}

const DAEMON_CHILD = `
import { writeSync } from 'node:fs';
import { VirtualClock } from './src/core/clock.js';
import { Ledger } from './src/ledger/ledger.js';

const [path, mode] = process.argv.slice(2);
const SIZE = 10_000_000;
const matched = (k) => (k % 6) * 2_000_000;
const clock = new VirtualClock(${T0});
const ledger = Ledger.open(path, { clock });
const say = (s) => writeSync(1, s + '\\n');
const orderIndex = (id) => Number(id.slice(2));

// Startup reconciliation: look up every order the ledger thinks open, or that was written but
// maybe never sent. The fake exchange knows every order and how much of it matched.
const open = ledger.openOrders();
for (const o of open) {
  const k = orderIndex(o.id);
  ledger.markLookup(o.id, { status: matched(k) === SIZE ? 'MATCHED' : 'LIVE', sizeMatched: matched(k) });
}
say('reconciled ' + open.length + ' in flight ' + open.filter((o) => o.state !== 'live').length);
if (mode === 'reconcile') { ledger.close(); process.exit(0); }

// Continue numbering after the last order written.
let k0 = 0;
for (;;) {
  const seen = ledger.order('o-' + k0);
  if (seen === null) break;
  k0 += 1;
}
for (let cycle = 0; ; cycle++) {
  const batch = [0, 1, 2, 3].map((i) => ({
    id: 'o-' + (k0 + i), tokenId: 'tok', conditionId: 'cond', side: 'BUY', price: 400_000, size: SIZE,
    orderType: 'GTC', salt: String(k0 + i), createdAtMs: clock.now() + i,
  }));
  ledger.recordSignedOrders(batch); // written before sent
  say('signed ' + cycle);
  for (const o of batch) ledger.markSent(o.id);
  for (const o of batch) {
    const k = orderIndex(o.id);
    // Half the orders learn their first match at placement, the rest only by lookup.
    if (k % 2 === 0 && matched(k) > 0) {
      const m = matched(k) / 2;
      ledger.markAccepted(o.id, { status: 'matched', makingAmount: (m * 2) / 5, takingAmount: m });
    } else {
      ledger.markAccepted(o.id, { status: 'live', makingAmount: null, takingAmount: null });
    }
  }
  for (const o of batch) {
    const k = orderIndex(o.id);
    ledger.markLookup(o.id, { status: matched(k) === SIZE ? 'MATCHED' : 'LIVE', sizeMatched: matched(k) });
    ledger.markLookup(o.id, { status: matched(k) === SIZE ? 'MATCHED' : 'LIVE', sizeMatched: matched(k) / 2 });
  }
  ledger.recordCycle({ startedAtMs: clock.now(), durationMs: 1, books: 1, quotes: 4, placed: 4, cancelled: 0, fills: 4, errors: 0 });
  clock.advance(1000);
  k0 += 4;
  say('cycle ' + cycle);
}
`;

/** Transpiles src/core and src/ledger to `out` (ESM .js) and writes the child daemon; returns its path. */
function transpileLedger(out: string): string {
  const betterSqlite = pathToFileURL(createRequire(import.meta.url).resolve('better-sqlite3')).href;
  for (const sub of ['src/core', 'src/ledger']) {
    const from = join(root, sub);
    const to = join(out, sub);
    mkdirSync(to, { recursive: true });
    for (const f of readdirSync(from).filter((n) => n.endsWith('.ts'))) {
      const js = ts.transpileModule(readFileSync(join(from, f), 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
        fileName: relative(root, join(from, f)),
      }).outputText.replace(/from ['"]better-sqlite3['"]/g, `from '${betterSqlite}'`);
      writeFileSync(join(to, f.replace(/\.ts$/, '.js')), js);
    }
  }
  writeFileSync(join(out, 'package.json'), '{"type":"module"}');
  const main = join(out, 'daemon.mjs');
  writeFileSync(main, DAEMON_CHILD);
  return main;
}
