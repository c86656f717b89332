// The child process of the ledger crash tests (crash.test.ts): the real Ledger of src/ledger, run by
// node through the test loader (test/support/ts-loader), writing to a ledger file until the parent
// SIGKILLs it. It says what it did on stdout, one line at a time and synchronously (writeSync), so
// a line the parent read was written before the kill:
//   cycles <path> <first>   one ledger.transaction per cycle k: 20 orders signed, sent, accepted and
//                           fully matched by lookup (orders, events, fills, position in one commit);
//                           "begin k" before and "commit k" after each;
//   run <path>              a small daemon loop against a deterministic fake exchange: startup
//                           reconciliation by lookup ("reconciled N in flight M"), then batches of 4
//                           orders written before sending ("signed c"), matches learnt at placement
//                           and by lookup, one cycle record ("cycle c");
//   reconcile <path>        the startup reconciliation only, then exit 0.
import { writeSync } from 'node:fs';
import { VirtualClock } from '../../src/core/clock.js';
import type { Price, Shares } from '../../src/core/money.js';
import { Ledger } from '../../src/ledger/ledger.js';
import type { SignedOrderInput } from '../../src/ledger/types.js';
import { CRASH_T0, CYCLE_ORDERS, ORDER_SIZE, exchangeMatched } from './crash-world.js';

const [mode, path, first] = process.argv.slice(2) as [string, string, string | undefined];
const clock = new VirtualClock(CRASH_T0);
const ledger = Ledger.open(path, { clock });
const say = (s: string): void => {
  writeSync(1, `${s}\n`);
};

function order(id: string, salt: string, atMs: number): SignedOrderInput {
  return {
    id,
    tokenId: 'tok',
    conditionId: 'cond',
    side: 'BUY',
    price: 400_000 as Price,
    size: ORDER_SIZE as Shares,
    orderType: 'GTC',
    salt,
    createdAtMs: atMs,
  };
}

const lookup = (sizeMatched: number): { status: string; sizeMatched: Shares } => ({
  status: sizeMatched === ORDER_SIZE ? 'MATCHED' : 'LIVE',
  sizeMatched: sizeMatched as Shares,
});

function cycles(start: number): never {
  for (let k = start; ; k++) {
    say(`begin ${k}`);
    ledger.transaction(() => {
      const batch = Array.from({ length: CYCLE_ORDERS }, (_, i) => order(`c${k}-o${i}`, String(k), clock.now()));
      ledger.recordSignedOrders(batch);
      for (const o of batch) {
        ledger.markSent(o.id);
        ledger.markAccepted(o.id, { status: 'live', makingAmount: null, takingAmount: null });
        ledger.markLookup(o.id, lookup(ORDER_SIZE));
      }
    });
    say(`commit ${k}`);
  }
}

/** Startup reconciliation: every order the ledger holds open (or written, maybe never sent) is looked up. */
function reconcile(): void {
  const open = ledger.openOrders();
  for (const o of open) ledger.markLookup(o.id, lookup(exchangeMatched(Number(o.id.slice(2)))));
  say(`reconciled ${open.length} in flight ${open.filter((o) => o.state !== 'live').length}`);
}

function run(): never {
  // Continue numbering after the last order written.
  let k0 = 0;
  while (ledger.order(`o-${k0}`) !== null) k0 += 1;
  for (let cycle = 0; ; cycle++) {
    const batch = [0, 1, 2, 3].map((i) => order(`o-${k0 + i}`, String(k0 + i), clock.now() + i));
    ledger.recordSignedOrders(batch); // written before sent
    say(`signed ${cycle}`);
    for (const o of batch) ledger.markSent(o.id);
    for (const o of batch) {
      const k = Number(o.id.slice(2));
      // Half the orders learn their first match at placement, the rest only by lookup.
      if (k % 2 === 0 && exchangeMatched(k) > 0) {
        const m = exchangeMatched(k) / 2;
        ledger.markAccepted(o.id, { status: 'matched', makingAmount: (m * 2) / 5, takingAmount: m });
      } else {
        ledger.markAccepted(o.id, { status: 'live', makingAmount: null, takingAmount: null });
      }
    }
    for (const o of batch) {
      const k = Number(o.id.slice(2));
      ledger.markLookup(o.id, lookup(exchangeMatched(k)));
      // A stale answer (less matched than already known) must change nothing.
      ledger.markLookup(o.id, lookup(exchangeMatched(k) / 2));
    }
    ledger.recordCycle({
      startedAtMs: clock.now(),
      durationMs: 1,
      books: 1,
      quotes: 4,
      placed: 4,
      cancelled: 0,
      fills: 4,
      errors: 0,
    });
    clock.advance(1000);
    k0 += 4;
    say(`cycle ${cycle}`);
  }
}

if (mode === 'cycles') cycles(Number(first ?? '0'));
reconcile();
if (mode === 'reconcile') {
  ledger.close();
  process.exit(0);
}
run();
