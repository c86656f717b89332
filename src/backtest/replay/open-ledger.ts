// The backtest's ledger: in memory (src/ledger/memory-ledger.ts: the SQLite ledger's interface and
// results over Maps, with no SQLite on the per-cycle path), written to a SQLite file once at the
// end when the run asks for one (saveTo). Without a file to write, it keeps no operation log
// (history: false): a backtest stops at a failed ledger transaction anyway (nothing catches it),
// so the log's rollback is never needed there, and an order costs about half the memory.
import type { Clock } from '../../core/clock.js';
import { MemoryLedger } from '../../ledger/memory-ledger.js';

/** `saving`: the run writes its ledger to a file at the end (saveTo needs the log). */
export function openReplayLedger(clock: Clock, saving: boolean): MemoryLedger {
  return MemoryLedger.open({ clock, history: saving });
}
