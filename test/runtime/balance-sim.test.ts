// Balance and allowance against the real simulator over HTTP (polymarket dialect, loopback): the
// daemon, built as `oddsmaker run --mode live` builds it (buildRuntime), trades an account the
// simulator funded with 20 collateral while its config claims 1000 of capital. GET
// /balance-allowance is read at start; free collateral is min(ledger, exchange balance) − our bids'
// reservation, so risk drops the bids beyond the 20 and the exchange never refuses one for want
// of balance. Waits are bounded polls of the daemon's status.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { validateConfig } from '../../src/config/load.js';
import { SystemClock } from '../../src/core/clock.js';
import { mulMicros, type Micros } from '../../src/core/money.js';
import { DIALECTS } from '../../src/exchange/dialect.js';
import { buildRuntime, type Runtime } from '../../src/runtime/modes.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/server/start.js';

const SH = 1_000_000;
const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function until(what: string, timeoutMs: number, check: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => {
      setTimeout(r, 25);
    });
  }
}

describe('collateral from the exchange (simulator over HTTP)', () => {
  it('caps what the daemon bids at the exchange balance: bids beyond it are dropped by risk, none refused by the exchange', async () => {
    const sim: RunningSimulator = await startSimulator({
      host: '127.0.0.1',
      port: 0,
      seed: 21,
      markets: 6,
      flow: 'low',
      limits: 'on',
      dialect: 'polymarket',
      accountCollateral: (20 * SH) as Micros,
      clock: new SystemClock(),
    });
    closers.push(() => sim.close());
    const dir = mkdtempSync(join(tmpdir(), 'oddsmaker-balance-'));
    const config = validateConfig({
      mode: 'live',
      exchange: { dialect: 'polymarket', clobUrl: sim.url },
      markets: { selector: { max: 2 } },
      poll: { intervalMs: 200, maxBookAgeMs: 5_000, orderLookupIntervalMs: 500 },
      risk: { capital: '1000' },
      ledger: { path: join(dir, 'ledger.sqlite'), balanceCheckIntervalMs: 1_000 },
      health: { enabled: false },
      log: { level: 'silent' },
    });
    const a = sim.account;
    const rt: Runtime = await buildRuntime({
      config,
      clock: new SystemClock(),
      env: {
        ODDSMAKER_PRIVATE_KEY: a.privateKey,
        ODDSMAKER_ADDRESS: a.address,
        ODDSMAKER_API_KEY: a.apiKey,
        ODDSMAKER_API_SECRET: a.secret,
        ODDSMAKER_API_PASSPHRASE: a.passphrase,
      },
    });
    closers.push(() => rt.close());
    const { daemon } = rt;
    let stopped = false;
    closers.push(async () => {
      if (!stopped) await daemon.stop();
    });
    await daemon.start();

    // Read at start: the simulator's balance of the account, its allowances to both exchange contracts.
    const c0 = daemon.status().collateral;
    expect(c0).toMatchObject({ balance: 20 * SH, recent: true, zeroAllowances: [], error: null });
    expect(Object.keys(c0?.allowances ?? {}).sort()).toEqual(
      [DIALECTS.polymarket.verifyingContract, DIALECTS.polymarket.negRiskVerifyingContract].sort(),
    );

    await until(
      'five cycles with resting bids',
      30_000,
      () => daemon.status().cycles >= 5 && daemon.status().openOrders > 0,
    );
    const cycles: Array<{ rejected: number; dropped: number; free: number }> = [];
    await until('five more cycles', 30_000, () => {
      const st = daemon.status();
      const last = st.lastCycle;
      if (last !== null)
        cycles.push({
          rejected: last.rejected,
          dropped: last.dropped['insufficient-collateral'] ?? 0,
          free: last.freeCollateral,
        });
      return st.cycles >= 10;
    });
    // The ledger thinks there is ~1000 to spend; the exchange says 20: the figure the daemon uses is the exchange's.
    expect(Math.max(...cycles.map((c) => c.free))).toBeLessThanOrEqual(20 * SH);
    expect(cycles.some((c) => c.dropped > 0)).toBe(true);
    expect(cycles.every((c) => c.rejected === 0)).toBe(true);
    const reserved = rt.ops.executor
      .liveOrders()
      .filter((o) => o.side === 'BUY')
      .reduce((n, o) => n + mulMicros(o.price, o.originalSize - o.sizeMatched, 'ceil'), 0);
    expect(reserved).toBeLessThanOrEqual(20 * SH);

    stopped = true;
    await daemon.stop();
  }, 90_000);
});
