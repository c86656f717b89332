// `oddsmaker doctor --config F` through the built CLI (a child process) against a simulator in this
// process (127.0.0.1, polymarket dialect, limits on): on a healthy simulator every check is OK and
// the exit code 0; each planted fault — no allowance, a skewed exchange clock, a wrong account
// kind, a blocked region, an unsupported order version, close-only mode, a wrong API key, missing
// credentials, a market not accepting orders or unknown — turns exactly its check into
// `FAIL <check>: <what>. Fix: <what to do>` and the exit code non-zero. The faults are the
// simulator's switches (sim/server/exchange-state.ts), flipped between runs; the account-kind
// fault is in the config (the kind the trader claims against the addresses it names).
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SystemClock } from '../../src/core/clock.js';
import { simSettings } from '../../src/cli/sim.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/server/start.js';
import { simWalletAddress } from '../../src/sim/server/wallets.js';
import { assertBuilt, CLI } from '../support/child.js';
import { accountEnv, writeJson } from './run-child.js';

let sim: RunningSimulator;
let dir: string;

beforeAll(async () => {
  assertBuilt();
  sim = await startSimulator({
    host: '127.0.0.1',
    port: 0,
    seed: 16,
    markets: 12,
    flow: 'none',
    limits: 'on',
    dialect: 'polymarket',
    clock: new SystemClock(),
  });
  dir = mkdtempSync(join(tmpdir(), 'om-doctor-'));
});
afterAll(async () => {
  await sim.close();
});

function config(over: { exchange?: Record<string, unknown>; markets?: Record<string, unknown> } = {}): string {
  return writeJson(dir, `config-${Math.random().toString(36).slice(2)}.json`, {
    mode: 'live',
    exchange: { dialect: 'polymarket', clobUrl: sim.url, geoblockUrl: `${sim.url}/api/geoblock`, ...over.exchange },
    markets: { selector: { max: 2 }, ...over.markets },
    ledger: { path: join(dir, 'ledger.sqlite') },
    health: { enabled: false },
  });
}

interface Run {
  code: number | null;
  lines: string[];
  stderr: string;
}

function doctor(cfg: string, env: Record<string, string> = accountEnv(sim), extra: string[] = []): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, 'doctor', '--config', cfg, ...extra],
      { env: { PATH: process.env['PATH'] ?? '', ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code =
          err === null
            ? 0
            : typeof (err as { code?: unknown }).code === 'number'
              ? (err as { code: number }).code
              : null;
        resolve({ code, lines: stdout.split('\n').filter((l) => l !== ''), stderr });
      },
    );
  });
}

const line = (r: Run, check: string): string | undefined =>
  r.lines.find((l) => l.startsWith(`OK ${check}`) || l.startsWith(`FAIL ${check}`));
const fails = (r: Run): string[] => r.lines.filter((l) => l.startsWith('FAIL '));

/** Runs with a simulator switch flipped, then flips it back. */
async function withSwitch(patch: Record<string, unknown>, undo: Record<string, unknown>, cfg: string): Promise<Run> {
  sim.ctx.exchange.update(patch);
  try {
    return await doctor(cfg);
  } finally {
    sim.ctx.exchange.update(undo);
  }
}

const CHECKS = [
  'config',
  'credentials',
  'account kind',
  'exchange reachable',
  'API key',
  'order version',
  'clock',
  'region',
  'close-only mode',
  'collateral balance',
  'allowance exchange',
  'allowance neg-risk exchange',
  'market ',
  'rate-limit tier',
];

describe('oddsmaker doctor', () => {
  it('prints every check OK on a healthy simulator and exits 0', async () => {
    const r = await doctor(config());
    expect(fails(r), r.lines.join('\n') + r.stderr).toEqual([]);
    expect(r.code).toBe(0);
    for (const c of CHECKS) expect(line(r, c), c).toMatch(/^OK /);
    expect(r.lines.every((l) => /^OK [^:]+(: .*)?$/.test(l))).toBe(true);
    // Two markets with their tick, minimum size, fees and rewards; the tier as the exchange reports it.
    const markets = r.lines.filter((l) => l.startsWith('OK market '));
    expect(markets).toHaveLength(2);
    for (const m of markets)
      expect(m).toMatch(
        /tick [\d.]+, min size [\d.]+, fees maker [\d.e-]+(?: bps)?, taker [\d.e-]+.*, (no rewards|rewards .*)/,
      );
    expect(r.lines.join('\n')).not.toMatch(/\[object |undefined|NaN/);
    expect(line(r, 'rate-limit tier')).toBe('OK rate-limit tier: standard');
    // No secret on any line.
    const a = sim.account;
    expect(r.lines.join('\n')).not.toContain(a.secret);
    expect(r.lines.join('\n')).not.toContain(a.privateKey.slice(2));
  });

  it('no allowance: both allowance checks FAIL with the fix', async () => {
    const r = await withSwitch({ noAllowance: true }, { noAllowance: false }, config());
    expect(r.code).toBe(1);
    expect(fails(r)).toHaveLength(2);
    expect(line(r, 'allowance exchange')).toMatch(
      /^FAIL allowance exchange: the exchange contract 0x[0-9a-fA-F]{40} has no collateral allowance .*\. Fix: approve 0x/,
    );
    expect(line(r, 'allowance neg-risk exchange')).toMatch(/^FAIL allowance neg-risk exchange: .*\. Fix: approve /);
  });

  it('a skewed exchange clock: the clock check FAILs with the fix, and a wider --max-skew-ms passes it', async () => {
    // 60 s skew: the exchange answers in whole seconds, so the bound the doctor can prove is in
    // (59 s − the round trip, 60 s], printed rounded down (60.0 only when the bound is exactly 60 s).
    const r = await withSwitch({ clockSkewMs: 60_000 }, { clockSkewMs: 0 }, config());
    expect(r.code).toBe(1);
    expect(fails(r)).toEqual([
      expect.stringMatching(
        /^FAIL clock: the local clock is at least (5\d\.\d|60\.0) s behind the exchange's \(allowed 5 s\)\. Fix: synchronise the system clock/,
      ),
    ]);
    sim.ctx.exchange.update({ clockSkewMs: 60_000 });
    try {
      const wide = await doctor(config(), accountEnv(sim), ['--max-skew-ms', '120000']);
      expect(line(wide, 'clock')).toMatch(/^OK clock/);
    } finally {
      sim.ctx.exchange.update({ clockSkewMs: 0 });
    }
  });

  it('a wrong account kind: the account-kind check FAILs with the fix', async () => {
    const noFunder = await doctor(config({ exchange: { signatureType: 2 } }));
    expect(noFunder.code).toBe(1);
    expect(line(noFunder, 'account kind')).toMatch(
      /^FAIL account kind: signature type 2 \(POLY_GNOSIS_SAFE\) trades from a wallet contract, but exchange\.funder is not set\. Fix: set exchange\.signatureType/,
    );
    const eoaWithFunder = await doctor(
      config({ exchange: { signatureType: 0, funder: simWalletAddress(sim.account.address, 1) } }),
    );
    expect(line(eoaWithFunder, 'account kind')).toMatch(
      /^FAIL account kind: signature type 0 \(EOA\) trades the key's own address/,
    );
    // A deposit wallet named as funder is fine.
    const deposit = await doctor(
      config({ exchange: { signatureType: 3, funder: simWalletAddress(sim.account.address, 3) } }),
    );
    expect(line(deposit, 'account kind')).toMatch(
      /^OK account kind: type 3 \(POLY_1271\), maker 0x[0-9a-fA-F]{40}, signer 0x/,
    );
  });

  it('a blocked region: the region check FAILs with the fix', async () => {
    const r = await withSwitch({ geoblocked: true }, { geoblocked: false }, config());
    expect(r.code).toBe(1);
    expect(fails(r)).toEqual([
      expect.stringMatching(
        /^FAIL region: orders from here are refused \(country US, region NY, ip .*\)\. Fix: run from a region the exchange allows/,
      ),
    ]);
  });

  it('an unsupported order version: the version check FAILs with the fix', async () => {
    const r = await withSwitch({ orderVersion: 3 }, { orderVersion: 2 }, config());
    expect(r.code).toBe(1);
    expect(fails(r)).toEqual([
      'FAIL order version: the exchange accepts order version 3, we sign version 2: upgrade oddsmaker. Fix: run an oddsmaker release that signs order version 3',
    ]);
  });

  it('close-only mode: that check FAILs with the fix', async () => {
    const r = await withSwitch({ closedOnly: true }, { closedOnly: false }, config());
    expect(r.code).toBe(1);
    expect(fails(r)).toEqual([
      expect.stringMatching(/^FAIL close-only mode: the account is in close-only mode.*\. Fix: /),
    ]);
  });

  it('credentials: missing ones FAIL (and what needs them is not checked); another API key FAILs the API key check', async () => {
    const none = await doctor(config(), {});
    expect(none.code).toBe(1);
    expect(line(none, 'credentials')).toMatch(
      /^FAIL credentials: no signing key: set ODDSMAKER_PRIVATE_KEY.*\. Fix: set ODDSMAKER_PRIVATE_KEY/,
    );
    expect(line(none, 'API key')).toBe('FAIL API key: not checked: credentials failed. Fix: fix credentials first');
    const other = await doctor(config(), {
      ...accountEnv(sim),
      ODDSMAKER_API_KEY: '00000000-0000-4000-8000-000000000000',
    });
    expect(line(other, 'API key')).toMatch(
      /^FAIL API key: the key derives API key [0-9a-f-]{36}, but ODDSMAKER_API_KEY is 00000000-0000-4000-8000-000000000000\. Fix: /,
    );
    // The account's signed routes are not asked with a key that is not ours.
    expect(fails(other).slice(1)).toEqual(
      [
        'close-only mode',
        'collateral balance',
        'allowance exchange',
        'allowance neg-risk exchange',
        'rate-limit tier',
      ].map((n) => `FAIL ${n}: not checked: API key failed. Fix: fix API key first`),
    );
  });

  it('markets: one not accepting orders and one unknown FAIL by name', async () => {
    const openMarkets = sim.venue.world.markets.filter((m) => m.state.acceptingOrders && !m.state.closed);
    const open = openMarkets[0]!;
    // The last open market resolves: it no longer accepts orders.
    const closed = openMarkets[openMarkets.length - 1]!;
    const res = await fetch(`${sim.url}/_sim/markets/${closed.conditionId}/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ winner: 0 }),
    });
    expect(res.status).toBe(200);
    const unknown = `0x${'ab'.repeat(32)}`;
    const conditions = [open.conditionId, unknown, closed.conditionId];
    const r = await doctor(config({ markets: { conditions } }));
    expect(r.code).toBe(1);
    expect(line(r, `market ${open.conditionId}`)).toMatch(/^OK market /);
    expect(line(r, `market ${unknown}`)).toMatch(
      /^FAIL market 0x(ab){32}: unknown to the exchange: .*\. Fix: correct or remove it in markets\.conditions$/,
    );
    expect(line(r, `market ${closed.conditionId}`)).toMatch(
      /^FAIL market 0x[0-9a-f]{64}: not accepting orders\. Fix: /,
    );
    expect(fails(r)).toHaveLength(2);
  });

  it('an invalid config exits 2 with the config check FAILed', async () => {
    const bad = writeJson(dir, 'bad.json', { mode: 'live', exchange: { signatureType: 7 } });
    const r = await doctor(bad);
    expect(r.code).toBe(2);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatch(/^FAIL config: .*signatureType.*\. Fix: correct /);
  });

  it("the simulator's command line plants the same faults", () => {
    expect(
      simSettings({
        orderVersion: '3',
        clockSkewMs: '-60000',
        geoblocked: true,
        closedOnly: true,
        zeroAllowance: true,
        requireDepositWallet: true,
      }).exchange,
    ).toEqual({
      orderVersion: 3,
      clockSkewMs: -60_000,
      geoblocked: true,
      closedOnly: true,
      noAllowance: true,
      requireDepositWallet: true,
    });
  });
});
