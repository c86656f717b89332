// One daemon per ledger (through the CLI: `oddsmaker run` as child processes in live mode against
// an in-process simulator that timestamps every request). A first daemon runs on a ledger and goes
// quiet after its first cycle (every periodic request a minute or more apart); a second daemon on
// the same ledger and the same exchange fails at once, exit 1, naming the first's pid and the lock
// file, and not one request reaches the exchange while it runs. The first keeps running, stops
// cleanly on SIGTERM and leaves no lock behind; a daemon after it starts, and the lock a SIGKILLed
// daemon leaves behind is stale: the next daemon takes it over and says so.
import { existsSync, mkdtempSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/server/start.js';
import { assertBuilt, startSim } from '../e2e/harness.js';
import { accountEnv, quietLiveConfig, reap, RunChild, writeJson } from './run-child.js';

/** "At once": loading the CLI and failing, with room for a busy 2-core machine (about 0.7 s idle). */
const PROMPT_MS = 10_000;

let sim: RunningSimulator;
const arrivals: Array<{ at: number; what: string }> = [];

beforeAll(async () => {
  assertBuilt();
  sim = await startSim(5);
  sim.app.server.on('request', (req: IncomingMessage) => {
    arrivals.push({ at: performance.now(), what: `${req.method ?? ''} ${req.url ?? ''}` });
  });
});
afterEach(reap);
afterAll(async () => {
  await sim.close();
});

describe('oddsmaker run: one daemon per ledger', () => {
  it("a second daemon on the ledger fails at once naming the first one's pid, before touching the exchange", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'om-lock-'));
    const ledger = join(dir, 'ledger.sqlite');
    const cfg = writeJson(dir, 'config.json', quietLiveConfig(sim.url, ledger));
    const first = new RunChild(['--config', cfg], { env: accountEnv(sim) });
    await first.waitFor((l) => l.msg === 'cycle', "the first daemon's first cycle");

    const t0 = performance.now();
    const second = new RunChild(['--config', cfg], { env: accountEnv(sim) });
    const e = await second.exit(PROMPT_MS + 20_000);
    const t1 = performance.now();
    console.log(`second daemon: exit ${String(e.code)} after ${Math.round(t1 - t0)} ms`);
    expect(e.code).toBe(1);
    expect(t1 - t0).toBeLessThan(PROMPT_MS);
    const msg = second.stderr.join('\n');
    expect(msg).toContain(`oddsmaker: ledger ${ledger} is in use by another daemon: pid ${first.pid} `);
    expect(msg).toContain(`holds ${ledger}.lock`);
    expect(second.lines).toEqual([]); // not even a log line: nothing was built
    expect(arrivals.filter((a) => a.at >= t0 && a.at <= t1)).toEqual([]);

    // The first daemon is untouched: still running, then a clean stop that releases the lock.
    expect(first.child.exitCode).toBeNull();
    expect(existsSync(`${ledger}.lock`)).toBe(true);
    first.child.kill('SIGTERM');
    expect((await first.exit(30_000)).code).toBe(0);
    expect(existsSync(`${ledger}.lock`)).toBe(false);

    // A daemon after it starts; SIGKILLed, it leaves its lock behind, stale: the next one takes it over.
    const third = new RunChild(['--config', cfg], { env: accountEnv(sim) });
    await third.waitFor((l) => l.msg === 'daemon started', 'a daemon after the first one');
    third.child.kill('SIGKILL');
    expect((await third.exit(30_000)).signal).toBe('SIGKILL');
    expect(existsSync(`${ledger}.lock`)).toBe(true);
    const fourth = new RunChild(['--config', cfg], { env: accountEnv(sim) });
    await fourth.waitFor((l) => l.msg === 'daemon started', 'a daemon after a SIGKILLed one');
    expect(fourth.lines.find((l) => l.msg === 'took over a stale ledger lock: its daemon is gone')).toMatchObject({
      pid: third.pid,
    });
    fourth.child.kill('SIGTERM');
    expect((await fourth.exit(30_000)).code).toBe(0);
    expect(existsSync(`${ledger}.lock`)).toBe(false);
  }, 120_000);
});
