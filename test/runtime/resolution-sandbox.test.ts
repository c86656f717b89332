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
import { Ledger } from '../../src/ledger/index.js';
import { RecordingReader } from '../../src/marketdata/recording/reader.js';
import { driveUntil as drive } from '../support/drive.js';
import { sellInto, startQuoting, startSandboxRuntime } from '../support/sandbox-runtime.js';

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
    const sandbox = await startSandboxRuntime(config, clock);
    const { rt, sim, lines } = sandbox;
    let closed = false;
    try {
      // Another trader sells into our best bid of some token.
      const bid = await startQuoting(sandbox, clock);
      const { tokenId, conditionId } = bid.record;
      sellInto(sim, bid, '0x00000000000000000000000000000000000000bb', `0x${'ab'.repeat(32)}`);
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
