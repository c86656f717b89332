// Ledger throughput: what a backtest can push through an in-memory ledger (fills with one
// transaction per cycle, or one per fill; cumulative lookups), and what durable commits cost on a
// file (a batch of 15 signed orders per commit, synchronous FULL vs NORMAL). Prints BENCH lines.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualClock } from '../src/core/clock.js';
import type { Micros, Price, Shares } from '../src/core/money.js';
import { Ledger } from '../src/ledger/ledger.js';
import type { FillInput, SignedOrderInput } from '../src/ledger/types.js';

const COND = '0xcond';
const TOKENS = ['token-a', 'token-b', 'token-c', 'token-d'];

function out(name: string, value: number, unit: string): void {
  process.stdout.write(`BENCH ${name} ${value.toFixed(value >= 100 ? 0 : 2)} ${unit}\n`);
}

function timed(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

/** Alternating buys and sells per token, never selling more than held. */
function makeFill(i: number): FillInput {
  const token = TOKENS[i % TOKENS.length] ?? 'token-a';
  const round = Math.floor(i / TOKENS.length);
  return {
    tokenId: token,
    conditionId: COND,
    side: round % 2 === 0 ? 'BUY' : 'SELL',
    price: (400_000 + (round % 50) * 1_000) as Price,
    size: 1_000_000 as Shares,
    feeMicros: 0 as Micros,
    liquidity: 'maker',
    timeMs: i,
    source: 'backtest',
    dedupKey: `f${i}`,
  };
}

function order(i: number): SignedOrderInput {
  return {
    id: `0x${i.toString(16).padStart(64, '0')}`,
    tokenId: TOKENS[i % TOKENS.length] ?? 'token-a',
    conditionId: COND,
    side: 'BUY',
    price: 500_000 as Price,
    size: 10_000_000 as Shares,
    orderType: 'GTC',
    salt: String(i),
    createdAtMs: i,
  };
}

function memoryFills(perTx: number, total: number): number {
  const ledger = Ledger.open(':memory:', { clock: new VirtualClock(0), synchronous: 'NORMAL' });
  try {
    const ms = timed(() => {
      for (let i = 0; i < total; i += perTx) {
        if (perTx === 1) ledger.recordFill(makeFill(i));
        else
          ledger.transaction(() => {
            for (let j = i; j < i + perTx; j++) ledger.recordFill(makeFill(j));
          });
      }
    });
    return total / (ms / 1000);
  } finally {
    ledger.close();
  }
}

function memoryLookups(orders: number, steps: number): number {
  const ledger = Ledger.open(':memory:', { clock: new VirtualClock(0), synchronous: 'NORMAL' });
  try {
    ledger.recordSignedOrders(Array.from({ length: orders }, (_, i) => order(i)));
    let n = 0;
    const ms = timed(() => {
      for (let s = 1; s <= steps; s++) {
        ledger.transaction(() => {
          for (let i = 0; i < orders; i++) {
            // Every other poll sees a new match; the rest repeat the last value.
            ledger.markLookup(order(i).id, { status: 'LIVE', sizeMatched: (Math.ceil(s / 2) * 100_000) as Shares });
            n++;
          }
        });
      }
    });
    return n / (ms / 1000);
  } finally {
    ledger.close();
  }
}

function fileBatches(sync: 'FULL' | 'NORMAL', batches: number): { commitMs: number; ordersPerS: number } {
  const dir = mkdtempSync(join(tmpdir(), 'oddsmaker-ledger-bench-'));
  const ledger = Ledger.open(join(dir, 'bench.db'), { clock: new VirtualClock(0), synchronous: sync });
  try {
    let k = 0;
    const ms = timed(() => {
      for (let b = 0; b < batches; b++) {
        ledger.recordSignedOrders(Array.from({ length: 15 }, () => order(k++)));
      }
    });
    return { commitMs: ms / batches, ordersPerS: k / (ms / 1000) };
  } finally {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function cycles(total: number): number {
  const ledger = Ledger.open(':memory:', {
    clock: new VirtualClock(0),
    synchronous: 'NORMAL',
    cycleCompactEvery: 1000,
  });
  try {
    const ms = timed(() => {
      for (let i = 0; i < total; i++) {
        ledger.recordCycle({
          startedAtMs: i * 1000,
          durationMs: 3,
          books: 10,
          quotes: 20,
          placed: 4,
          cancelled: 4,
          fills: 1,
          errors: 0,
        });
      }
    });
    return total / (ms / 1000);
  } finally {
    ledger.close();
  }
}

export async function run(): Promise<void> {
  memoryFills(10, 5_000); // warm-up
  out('ledger_fills_memory_tx_per_10', memoryFills(10, 100_000), 'fills/s');
  out('ledger_fills_memory_tx_per_fill', memoryFills(1, 50_000), 'fills/s');
  out('ledger_lookups_memory', memoryLookups(100, 200), 'lookups/s');
  out('ledger_cycles_memory', cycles(50_000), 'cycles/s');
  const full = fileBatches('FULL', 200);
  const normal = fileBatches('NORMAL', 200);
  out('ledger_commit_15_orders_file_full', full.commitMs, 'ms');
  out('ledger_commit_15_orders_file_normal', normal.commitMs, 'ms');
  out('ledger_signed_orders_file_full', full.ordersPerS, 'orders/s');
  process.stdout.write(
    '# file commits: one transaction of 15 signed orders (+ their events), WAL; FULL fsyncs the log at each commit\n',
  );
  await Promise.resolve();
}
