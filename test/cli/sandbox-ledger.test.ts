// Sandbox mode gets a fresh ledger every run (through the CLI: `oddsmaker run` in sandbox mode, the
// simulator in-process, the child's working directory an empty temp dir). With no ledger.path, two
// runs write two files data/sandbox/ledger-<UTC time>.sqlite; the first is kept as it was, and the
// second starts empty (none of the first run's orders), bound to its own simulator run. An
// explicit ledger.path is honoured: the first run writes it, a second run on it is refused (exit
// 2) because its simulator is a new world, with a message saying to leave ledger.path out; so is
// `run --mode live` on it.
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../e2e/harness.js';
import { reap, RunChild, writeJson, type Line } from './run-child.js';
import { seededWallet } from '../support/keys.js';

beforeAll(() => {
  assertBuilt();
});
afterEach(reap);

const SANDBOX = {
  mode: 'sandbox',
  sandbox: { seed: 11, markets: 4, flow: 'low' },
  markets: { selector: { max: 2 } },
  poll: { intervalMs: 250, maxBookAgeMs: 5_000, orderLookupIntervalMs: 500 },
  orders: { shutdownTimeoutMs: 15_000 },
  health: { enabled: false },
};

/** One run until it has quoted, then SIGTERM; its 'ledger bound' line (a fresh ledger's), if any. */
async function runOnce(cwd: string, args: readonly string[]): Promise<Line | undefined> {
  const c = new RunChild(args, { cwd });
  await c.waitFor((l) => l.msg === 'cycle' && Number(l['placed']) > 0, 'orders placed');
  c.child.kill('SIGTERM');
  expect((await c.exit(30_000)).code).toBe(0);
  return c.lines.find((l) => l.msg === 'ledger bound to this exchange and account');
}

function orderIds(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare<[], { id: string }>('SELECT id FROM orders')
      .all()
      .map((r) => r.id);
  } finally {
    db.close();
  }
}

function ledgers(cwd: string): string[] {
  const dir = join(cwd, 'data', 'sandbox');
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.sqlite'))
        .sort()
    : [];
}

describe('oddsmaker run --mode sandbox: a ledger per run', () => {
  it('writes a new data/sandbox/ledger-<UTC time>.sqlite every run and keeps the old ones', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'om-sandbox-'));
    const cfg = writeJson(cwd, 'config.json', SANDBOX);
    const b1 = await runOnce(cwd, ['--config', cfg]);
    expect(ledgers(cwd)).toHaveLength(1);
    const f1 = ledgers(cwd)[0];
    expect(f1).toMatch(/^ledger-\d{8}T\d{6}Z(-\d+)?\.sqlite$/);
    const first = orderIds(join(cwd, 'data', 'sandbox', f1 ?? ''));
    expect(first.length).toBeGreaterThan(0);

    const b2 = await runOnce(cwd, ['--config', cfg]);
    const both = ledgers(cwd);
    expect(both).toHaveLength(2);
    const f2 = both.find((f) => f !== f1) ?? '';
    // The first run's file is kept as it was; the second started empty.
    expect(orderIds(join(cwd, 'data', 'sandbox', f1 ?? ''))).toEqual(first);
    const second = orderIds(join(cwd, 'data', 'sandbox', f2));
    expect(second.length).toBeGreaterThan(0);
    expect(second.filter((id) => first.includes(id))).toEqual([]);
    // Each bound to its own simulator run, as their logs say.
    expect(b1).toMatchObject({ path: `data/sandbox/${f1 ?? ''}`, exchange: 'sandbox' });
    expect(b2).toMatchObject({ path: `data/sandbox/${f2}`, exchange: 'sandbox' });
    expect(b2?.['simRun']).not.toBe(b1?.['simRun']);
  }, 120_000);

  it('honours an explicit ledger.path, and refuses it to a later run (exit 2): its world is gone', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'om-sandbox-explicit-'));
    const ledger = join(cwd, 'mine.sqlite');
    const cfg = writeJson(cwd, 'config.json', { ...SANDBOX, ledger: { path: ledger } });
    await runOnce(cwd, ['--config', cfg]);
    expect(existsSync(ledger)).toBe(true);
    expect(ledgers(cwd)).toEqual([]);

    const again = new RunChild(['--config', cfg], { cwd });
    expect((await again.exit(30_000)).code).toBe(2);
    const msg = again.stderr.join('\n');
    expect(msg).toContain(`oddsmaker: ledger ${ledger} belongs to another exchange or account`);
    expect(msg).toMatch(
      / {2}- simRun: the ledger's [0-9a-f-]{36}, this run's [0-9a-f-]{36} \(a new simulator world every sandbox run\)/,
    );
    expect(msg).toContain('Leave ledger.path out of the config');
    expect(again.msgs()).not.toContain('universe resolved');

    // `--mode live` (at oddsmaker sim's default URL; nothing is sent) on that sandbox ledger: refused too.
    const wallet = seededWallet('sandbox-ledger other account');
    const live = new RunChild(['--config', cfg, '--mode', 'live'], {
      cwd,
      env: {
        ODDSMAKER_PRIVATE_KEY: wallet.privateKey,
        ODDSMAKER_API_KEY: '00000000-0000-4000-8000-000000000000',
        ODDSMAKER_API_SECRET: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
        ODDSMAKER_API_PASSPHRASE: 'ab'.repeat(32),
      },
    });
    expect((await live.exit(30_000)).code).toBe(2);
    expect(live.stderr.join('\n')).toContain(
      "  - mode: the ledger's sandbox, this run's live (set by mode, or run --mode)",
    );
  }, 120_000);
});
