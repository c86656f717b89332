// The daemon end to end, as a user runs it: `oddsmaker run` (a child process) against the bundled
// simulator with synthetic flow. Asserts the contract: quotes rest, fills happen, the
// ledger's positions equal the exchange's /positions, SIGTERM leaves no order of the account live;
// and after a SIGKILL mid-run and a restart, no orphan order and no lost or duplicated fill.
import { describe, expect, it } from 'vitest';
import { SystemClock } from '../../src/core/clock.js';
import { toFloat } from '../../src/core/money.js';
import { ExchangeClient } from '../../src/exchange/client/index.js';
import { getDialect } from '../../src/exchange/dialect.js';
import { Ledger } from '../../src/ledger/index.js';
import { diffPositions, tokenResolver } from '../../src/ledger/positions-diff.js';
import type { RunningSimulator } from '../../src/sim/server/start.js';
import {
  liveOrderIds,
  pollUntil,
  simOrders,
  startSim,
  tempDir,
  useE2eSession,
  writeConfig,
  type LogLine,
} from './harness.js';

const isCycle = (l: LogLine): boolean => l.msg === 'cycle';
const isFill = (l: LogLine): boolean => l.msg === 'fill';

const session = useE2eSession();

async function exchangePositionsMatchLedger(s: RunningSimulator, ledgerPath: string): Promise<void> {
  const clock = new SystemClock();
  const client = new ExchangeClient({ clobUrl: s.url, dialect: getDialect('spec'), clock });
  try {
    const exchange = await client.getPositions({ user: s.account.address, sizeThreshold: 0, limit: 500 });
    const markets: Array<{ conditionId: string; tokenIds: string[] }> = [];
    for await (const m of client.iterateMarkets()) {
      markets.push({ conditionId: m.conditionId, tokenIds: m.tokens.map((t) => t.tokenId ?? '') });
    }
    const ledger = Ledger.open(ledgerPath, { clock });
    try {
      const held = ledger.positions({ openOnly: true });
      expect(held.length).toBeGreaterThan(0);
      const diffs = diffPositions(
        held,
        exchange.map((p) => ({
          asset: p.asset,
          conditionId: p.conditionId,
          outcomeIndex: p.outcomeIndex,
          size: toFloat(p.size),
        })),
        { resolveToken: tokenResolver(markets) },
      );
      expect(diffs).toEqual([]);
    } finally {
      ledger.close();
    }
  } finally {
    await client.close();
  }
}

describe('daemon end to end against the simulator', () => {
  it('quotes, gets filled, matches the exchange positions, and leaves nothing live after SIGTERM', async () => {
    const sim = (session.sim = await startSim(7));
    const dir = tempDir();
    const cfg = writeConfig(dir, sim);
    const d = session.launch(cfg);
    await d.waitFor((l) => l.msg === 'startup reconciliation done', 'startup reconciliation');
    await d.waitFor((l) => isCycle(l) && Number(l.openOrders) > 0, 'resting quotes');
    const live = (await simOrders(sim)).filter((o) => o.status === 'LIVE');
    expect(live.length).toBeGreaterThan(0);
    await d.waitFor(isFill, 'a fill', 90_000);
    // The fill line reads in human units, with the market's short name (question · outcome).
    const fill = d.lines.find(isFill)!;
    expect(fill.price).toMatch(/^(0\.\d+|1)$/);
    expect(fill.size).toMatch(/^\d+(\.\d+)?$/);
    expect(fill.fee).toMatch(/^\d+(\.\d+)?$/);
    expect(fill.market).toMatch(/^\S.* · \S+/);
    // A couple more cycles so the fill's position is settled in the ledger.
    const seen = d.lines.filter(isCycle).length;
    await d.waitFor(() => d.lines.filter(isCycle).length >= seen + 2, 'two more cycles');

    d.child.kill('SIGTERM');
    const exit = await d.exited;
    expect(exit.code).toBe(0);

    const after = await simOrders(sim);
    expect(after.filter((o) => o.status === 'LIVE')).toEqual([]);
    await exchangePositionsMatchLedger(sim, `${dir}/ledger.sqlite`);
    // Secrets never reach the log.
    const text = d.allText();
    for (const secret of [sim.account.privateKey.slice(2), sim.account.secret, sim.account.passphrase])
      expect(text).not.toContain(secret);
  }, 180_000);

  it('survives a SIGKILL mid-run: no orphan order, no lost or duplicated fill after a restart', async () => {
    const sim = (session.sim = await startSim(11));
    const dir = tempDir();
    const cfg = writeConfig(dir, sim);
    const first = session.launch(cfg);
    await first.waitFor(isFill, 'a fill before the kill', 90_000);
    // Kill while quotes rest (a fill may have just taken the last of them; the next cycle re-quotes).
    await pollUntil('quotes resting at the kill', 30_000, async () =>
      (await liveOrderIds(sim)).length > 0 ? true : null,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    // The killed daemon left its quotes resting: the restart must find and manage them.
    const orphansAtKill = (await simOrders(sim)).filter((o) => o.status === 'LIVE');
    expect(orphansAtKill.length).toBeGreaterThan(0);

    const second = session.launch(cfg);
    const rec = await second.waitFor(
      (l) => l.msg === 'startup reconciliation done',
      'startup reconciliation after restart',
    );
    expect(Number(rec.lookedUp)).toBeGreaterThan(0);
    const cyclesAtStart = second.lines.filter(isCycle).length;
    await second.waitFor(() => second.lines.filter(isCycle).length >= cyclesAtStart + 6, 'six cycles after restart');
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);

    const orders = await simOrders(sim);
    expect(orders.filter((o) => o.status === 'LIVE')).toEqual([]);
    const ledger = Ledger.open(`${dir}/ledger.sqlite`, { clock: new SystemClock() });
    try {
      for (const o of orders) {
        // No orphan: every order the exchange has for the account is known to the ledger.
        expect(ledger.order(o.id), `order ${o.id} unknown to the ledger`).not.toBeNull();
        // No lost or duplicated fill: the ledger's fills of each order add up to what matched.
        const filled = ledger.fillsOfOrder(o.id).reduce((s, f) => s + f.size, 0);
        expect(filled, `fills of ${o.id}`).toBe(o.sizeMatched);
      }
      expect(orders.some((o) => o.sizeMatched > 0)).toBe(true);
    } finally {
      ledger.close();
    }
  }, 240_000);
});
