// A trade the exchange fails on chain is reversed in the ledger, end to end, polymarket dialect:
// the daemon in sandbox mode (buildRuntime: the simulator on loopback speaking the public
// exchange's shapes, the HTTP gateway, the real order manager, trade feed and ledger) on the
// virtual clock. Another trader sells into our best bid with the simulator set to fail that
// trade's settlement; the daemon books the fill (trade feed or lookup, whichever is first), sees
// the trade go RETRYING → FAILED on GET /data/trades, reverses it once in the ledger (the order
// keeps its matched size, as on the exchange), and the positions check (ledger vs GET /positions)
// agrees afterwards. Real loopback I/O and virtual time advance together (`drive`), no real sleep.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/load.js';
import { VirtualClock } from '../../src/core/clock.js';
import { Ledger } from '../../src/ledger/index.js';
import type { PositionsCheckResult } from '../../src/runtime/positions-check.js';
import { Venue } from '../../src/sim/venue/index.js';
import { driveUntil as drive } from '../support/drive.js';
import { ourBids, sellInto, startQuoting, startSandboxRuntime } from '../support/sandbox-runtime.js';

const T0 = Date.UTC(2026, 2, 2, 12, 0, 0);

async function until<T>(clock: VirtualClock, p: Promise<T>, what: string): Promise<T> {
  let out: { v: T } | null = null;
  let err: unknown = null;
  void p.then(
    (v) => {
      out = { v };
    },
    (e: unknown) => {
      err = e ?? new Error(String(e));
    },
  );
  await drive(clock, () => out !== null || err !== null, what);
  if (err !== null) throw err;
  return (out as unknown as { v: T }).v;
}

describe('a trade failed on chain, end to end (polymarket dialect)', () => {
  it('is reversed in the ledger once, and the positions check agrees with GET /positions afterwards', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oddsmaker-trade-failure-'));
    const clock = new VirtualClock(T0);
    const config = validateConfig({
      mode: 'sandbox',
      exchange: { dialect: 'polymarket' },
      sandbox: { seed: 5, markets: 6, flow: 'low', limits: 'off' },
      markets: { selector: { max: 2 } },
      poll: { intervalMs: 1_000, maxBookAgeMs: 5_000, orderLookupIntervalMs: 1_000 },
      strategy: { name: 'bands', params: {} },
      ledger: { path: join(dir, 'ledger.sqlite') },
      log: { level: 'info' },
      health: { enabled: false },
    });
    const sandbox = await startSandboxRuntime(config, clock);
    const { rt, sim, lines } = sandbox;
    expect(sim.venue.dialect.name).toBe('polymarket');
    let closed = false;
    try {
      const bid = await startQuoting(sandbox, clock);
      const ledger = rt.ops.ledger as Ledger;

      // Another trader sells into our best bid (minted shares, a FAK at our price), and that
      // trade's settlement is made to fail: set in the same turn as the sale, so no other trade of
      // ours can take the forced failure.
      const { tokenId } = bid.record;
      const ourOrder = bid.record.id;
      const owner = Venue.ownerOf(sim.account.address);
      const taker = '0x00000000000000000000000000000000000000cc';
      sim.venue.settlement.configure({ minedAfterMs: 1_000, confirmedAfterMs: 4_000 });
      sim.venue.settlement.failNext(1);
      sellInto(sim, bid, taker, `0x${'cd'.repeat(32)}`);
      expect(sim.venue.settlement.pendingForcedFailures).toBe(0);
      const trade = sim.venue.settlement.ofOwner(owner).find((x) => x.trade.makerOrderId === ourOrder);
      if (trade === undefined) throw new Error('our bid did not trade');
      const filled = trade.trade.size;

      // The fill is booked, pending; then the trade fails on chain and the ledger reverses it.
      await drive(
        clock,
        () => ledger.tradeLegs({ orderId: ourOrder }).length > 0,
        'our leg of the trade in the ledger',
      );
      expect(ledger.tradeLegs({ orderId: ourOrder })[0]).toMatchObject({
        tradeId: trade.trade.id,
        size: filled,
        side: 'BUY',
      });
      await drive(
        clock,
        () => sim.venue.settlement.get(trade.trade.id)?.status === 'FAILED',
        'the trade failed on the exchange',
      );
      expect(sim.venue.settlement.stats.failed).toBe(1);
      await drive(clock, () => ledger.fillReversals().length > 0, 'the reversal in the ledger');
      const [reversal] = ledger.fillReversals();
      expect(reversal).toMatchObject({
        tradeId: trade.trade.id,
        orderId: ourOrder,
        tokenId,
        side: 'BUY',
        size: filled,
      });
      expect(ledger.tradeLegs({ orderId: ourOrder })[0]).toMatchObject({
        status: 'FAILED',
        reversalSeq: reversal?.seq,
      });
      // The operator is warned, naming the trade.
      expect(lines.some((l) => l.level === 40 && l.component === 'trades' && l.tradeId === trade.trade.id)).toBe(true);
      // The exchange keeps the order's match, and so does the ledger.
      const exchangeOrder = sim.venue.ordersOf(owner).find((o) => o.record.id === ourOrder);
      expect(ledger.order(ourOrder)?.sizeMatched).toBe(exchangeOrder?.record.sizeMatched);

      // A second trade into one of our bids settles normally: pending (in /status too) until
      // CONFIRMED, then confirmed; the check below then compares a position that is really held.
      const next = ourBids(sim)[0];
      if (next === undefined) throw new Error('no bid after the failure');
      sellInto(sim, next, taker, `0x${'ce'.repeat(32)}`);
      await drive(
        clock,
        () => ledger.tradeLegs({ orderId: next.record.id }).length > 0,
        'the second trade in the ledger',
      );
      const held = ledger.position(next.record.tokenId);
      expect(held?.pendingSize).toBeGreaterThan(0);
      expect(rt.daemon.status().positions.find((p) => p.tokenId === next.record.tokenId)?.pendingSize).toBe(
        held?.pendingSize,
      );

      // Quotes pulled so the synthetic flow trades with us no more; the lookups and the trade
      // feed catch up, then the positions check compares the ledger with GET /positions.
      rt.daemon.pause();
      await drive(clock, () => sim.venue.ordersOf(owner, 'LIVE').length === 0, 'quotes pulled');
      await drive(clock, () => ledger.oldestUnsettledTradeMs() === null, 'every trade of ours final');
      const check = (await until(
        clock,
        rt.daemon.checkPositions(),
        'the positions check',
      )) as PositionsCheckResult | null;
      expect(check).toMatchObject({ outcome: 'agree', differences: [], error: null });
      expect(check?.ledgerPositions).toBeGreaterThan(0);
      expect(ledger.position(next.record.tokenId)?.size).toBeGreaterThan(0);
      expect(ledger.fillReversals()).toHaveLength(1);
      // Nothing of the failed trade is left pending.
      expect(ledger.positions().every((p) => p.pendingSize === 0)).toBe(true);
      const st = rt.daemon.status();
      expect(st.positions.every((p) => p.pendingSize === 0)).toBe(true);

      let stopped = false;
      void rt.daemon.stop().then(() => {
        stopped = true;
      });
      await drive(clock, () => stopped, 'stop');
      let done = false;
      void rt.close().then(() => {
        done = true;
      });
      await drive(clock, () => done, 'close');
      closed = true;
    } catch (e) {
      // The daemon's last words, for the failure report.
      console.log(
        lines
          .slice(-40)
          .map((l) => JSON.stringify(l))
          .join('\n'),
      );
      throw e;
    } finally {
      if (!closed) {
        await rt.daemon.stop().catch(() => undefined);
        await rt.close();
      }
    }
  }, 120_000);
});
