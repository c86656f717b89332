// The daemon settles a resolved market end to end, in process on the virtual clock: sandbox mode
// (buildRuntime: the simulator on loopback, HTTP gateway, real order manager and signing, a real
// ledger) with recording on. One of our resting bids is filled by another trader, the market is
// resolved through POST /_sim/markets/{id}/resolve, the next universe refresh drops it, the
// resolution watch finds it on GET /markets; the ledger settles the position (a settlement row, the
// position closed, the realized PnL in the log line), the recording holds a RESOLVED record, and a
// backtest of the recording lists the resolution. Real loopback I/O and virtual time advance
// together (`drive`), never a real sleep.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/backtest/index.js';
import { validateConfig } from '../../src/config/load.js';
import { VirtualClock } from '../../src/core/clock.js';
import type { Shares } from '../../src/core/money.js';
import { Ledger } from '../../src/ledger/index.js';
import { RecordingReader } from '../../src/marketdata/recording/reader.js';
import { ClockRefreshScheduler } from '../../src/marketdata/refresh-scheduler.js';
import { buildRuntime } from '../../src/runtime/modes.js';
import { Venue } from '../../src/sim/venue/index.js';
import { driveUntil as drive } from '../support/drive.js';

const T0 = Date.UTC(2026, 2, 2, 12, 0, 0);
const SH = 1_000_000;

describe('daemon: a resolved market is settled in the ledger and recorded', () => {
  it('fill → resolve → universe drops it → watch finds it → settlement, RESOLVED, backtest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oddsmaker-resolution-'));
    const recording = join(dir, 'daemon.omrc');
    const ledgerPath = join(dir, 'ledger.sqlite');
    const clock = new VirtualClock(T0);
    const config = validateConfig({
      mode: 'sandbox',
      sandbox: { seed: 5, markets: 6, flow: 'low', limits: 'off' },
      markets: { selector: { max: 2 } },
      poll: { intervalMs: 1_000, maxBookAgeMs: 5_000, orderLookupIntervalMs: 1_000 },
      strategy: { name: 'bands', params: {} },
      ledger: { path: ledgerPath },
      record: { enabled: true, path: recording },
      log: { level: 'info' },
      health: { enabled: false },
    });
    const lines: Array<Record<string, unknown> & { msg: string }> = [];
    const rt = await buildRuntime({
      config,
      clock,
      env: {},
      prettyLogs: false,
      logDestination: {
        write: (l: string) => {
          lines.push(JSON.parse(l) as Record<string, unknown> & { msg: string });
        },
      },
      refreshScheduler: new ClockRefreshScheduler(clock, 30_000),
    });
    const sim = rt.simulator;
    if (sim === null) throw new Error('sandbox mode starts the simulator');
    let closed = false;
    try {
      let started = false;
      void rt.daemon.start().then(() => {
        started = true;
      });
      await drive(clock, () => started, 'start');
      const owner = Venue.ownerOf(sim.account.address);
      await drive(clock, () => sim.venue.ordersOf(owner, 'LIVE').some((o) => o.record.side === 'BUY'), 'resting bids');

      // Another trader sells into our best bid of some token: minted shares, a FAK at our price, big
      // enough to get through any synthetic bid at or above ours.
      const bid = sim.venue
        .ordersOf(owner, 'LIVE')
        .filter((o) => o.record.side === 'BUY')
        .sort((a, b) => b.record.price - a.record.price)[0];
      if (bid === undefined) throw new Error('no bid');
      const { tokenId, conditionId, price } = bid.record;
      const taker = '0x00000000000000000000000000000000000000bb';
      sim.venue.engine.mint(Venue.ownerOf(taker), conditionId, (500 * SH) as Shares);
      const r = sim.venue.place({
        id: `0x${'ab'.repeat(32)}`,
        owner: Venue.ownerOf(taker),
        tokenId,
        side: 'SELL',
        price,
        size: (500 * SH) as Shares,
        orderType: 'FAK',
        postOnly: false,
        expirationSec: null,
        maker: taker,
        apiKey: 'taker',
      });
      expect(r.ok).toBe(true);
      const ledger = rt.ops.ledger as Ledger;
      await drive(clock, () => (ledger.position(tokenId)?.size ?? 0) > 0, 'the fill in the ledger');

      // Resolved for the token we hold.
      const res = await fetch(`${sim.url}/_sim/markets/${conditionId}/resolve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ winner: tokenId }),
      });
      expect(res.status).toBe(200);
      await drive(clock, () => lines.some((l) => l.msg === 'market resolved'), 'the resolution');
      expect(lines.some((l) => l.msg === 'universe changed' && (l.removed as string[]).includes(conditionId))).toBe(
        true,
      );
      const rows = ledger.settlements(conditionId);
      const won = rows.find((x) => x.tokenId === tokenId);
      // Bought below 1, paid 1: a gain (the complement, if the flow filled some, pays 0).
      expect(won).toMatchObject({ payout: SH });
      expect(won?.size).toBeGreaterThan(0);
      expect(won?.realizedDelta).toBeGreaterThan(0);
      expect(ledger.positions({ openOnly: true }).filter((p) => p.conditionId === conditionId)).toEqual([]);
      const realized = rows.reduce((n, x) => n + x.realizedDelta, 0);
      const line = lines.find((l) => l.msg === 'market resolved');
      expect(line).toMatchObject({ market: conditionId, winner: tokenId, settlements: rows.length });
      expect(Math.round(Number(line?.realized) * SH)).toBe(realized);

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

      const resolved = [];
      for await (const e of RecordingReader.fromFile(recording)) if (e.kind === 'resolved') resolved.push(e);
      expect(resolved.map((e) => [e.conditionId, e.tokenId])).toEqual([[conditionId, tokenId]]);
      const bt = await runBacktest({
        recording,
        seed: 1,
        config: validateConfig({
          markets: { selector: { max: 2 } },
          poll: { intervalMs: 1_000, maxBookAgeMs: 5_000, orderLookupIntervalMs: 1_000 },
          strategy: { name: 'bands', params: {} },
        }),
      });
      expect(bt.resolutions.map((x) => [x.conditionId, x.winnerTokenId])).toEqual([[conditionId, tokenId]]);
    } finally {
      if (!closed) {
        await rt.daemon.stop().catch(() => undefined);
        await rt.close();
      }
    }
  }, 60_000);
});
