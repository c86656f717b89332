// A ledger belongs to one exchange and one account (through the CLI: `oddsmaker run` as a child
// process in live mode against in-process simulators that count every request). A first daemon
// binds the ledger to its exchange and account and stops cleanly; a daemon pointed at another
// exchange, or with another account, on that ledger exits 2 at once with a message naming what
// differs, the setting that sets it and ledger.path, and not one request reaches any exchange.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/server/start.js';
import { assertBuilt, recordRequests, startSim, type SimRequest } from '../e2e/harness.js';
import { accountEnv, quietLiveConfig, reap, RunChild, writeJson } from './run-child.js';
import { seededWallet } from '../support/keys.js';

let sim1: RunningSimulator;
let sim2: RunningSimulator;
let seen1: SimRequest[];
let seen2: SimRequest[];

beforeAll(async () => {
  assertBuilt();
  sim1 = await startSim(3);
  sim2 = await startSim(4);
  seen1 = recordRequests(sim1);
  seen2 = recordRequests(sim2);
});
afterEach(reap);
afterAll(async () => {
  await sim1.close();
  await sim2.close();
});

describe('oddsmaker run on a ledger of another exchange or account', () => {
  it('refuses another exchange, then another account, exit 2, before any request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'om-identity-'));
    const ledger = join(dir, 'ledger.sqlite');
    const first = new RunChild(['--config', writeJson(dir, 'first.json', quietLiveConfig(sim1.url, ledger))], {
      env: accountEnv(sim1),
    });
    await first.waitFor((l) => l.msg === 'daemon started', 'the first daemon started');
    first.child.kill('SIGTERM');
    expect((await first.exit(30_000)).code).toBe(0);
    expect(seen1.length).toBeGreaterThan(0);

    // The same ledger, the same account, another exchange.
    const before1 = seen1.length;
    const other = new RunChild(['--config', writeJson(dir, 'other-exchange.json', quietLiveConfig(sim2.url, ledger))], {
      env: accountEnv(sim1),
    });
    expect((await other.exit(30_000)).code).toBe(2);
    const msg = other.stderr.join('\n');
    expect(msg).toContain(`oddsmaker: ledger ${ledger} belongs to another exchange or account`);
    expect(msg).toContain(`  - exchange: the ledger's ${sim1.url}, this run's ${sim2.url} (set by exchange.clobUrl)`);
    expect(msg).not.toContain('  - account:');
    expect(msg).toContain('Point ledger.path (or --ledger) at another file');
    expect(other.lines.map((l) => l.msg)).not.toContain('universe resolved');
    expect(seen2).toEqual([]);

    // The same ledger and exchange, another account (credentials that are never sent).
    const stranger = seededWallet('ledger-identity stranger');
    const otherAccount = new RunChild(
      ['--config', writeJson(dir, 'other-account.json', quietLiveConfig(sim1.url, ledger))],
      {
        env: { ...accountEnv(sim1), ODDSMAKER_PRIVATE_KEY: stranger.privateKey, ODDSMAKER_ADDRESS: stranger.address },
      },
    );
    expect((await otherAccount.exit(30_000)).code).toBe(2);
    const msg2 = otherAccount.stderr.join('\n');
    expect(msg2).toContain(
      `  - account: the ledger's ${sim1.account.address.toLowerCase()}, this run's ${stranger.address.toLowerCase()} (set by exchange.funder, else the wallet`,
    );
    expect(msg2).not.toContain('  - exchange:');
    expect(msg2).not.toContain(stranger.privateKey.slice(2));
    expect(seen1.length).toBe(before1);
    expect(seen2).toEqual([]);
    // What the first daemon recorded, as it said.
    expect(first.lines.find((l) => l.msg === 'ledger bound to this exchange and account')).toMatchObject({
      path: ledger,
      exchange: sim1.url,
      account: sim1.account.address.toLowerCase(),
    });
  }, 120_000);
});
