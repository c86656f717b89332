// The backtest's ledger: in memory (src/ledger/memory-ledger.ts: the SQLite ledger's interface and
// results over Maps, with no SQLite on the per-cycle path), written to a SQLite file once at the
// end when the run asks for one (saveTo).
import type { Clock } from '../../core/clock.js';
import { MemoryLedger } from '../../ledger/memory-ledger.js';

export function openReplayLedger(clock: Clock): MemoryLedger {
  return MemoryLedger.open({ clock });
}
