// `oddsmaker sim` (src/cli/sim.ts): flag validation into usage errors, the printed URL and export
// lines, and a clean stop on SIGTERM or SIGINT (the server stops listening).
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { VirtualClock } from '../../../src/core/clock.js';
import { UsageError } from '../../../src/cli/exit-codes.js';
import { register, runSim, simSettings, type SignalSource } from '../../../src/cli/sim.js';
import type { RunningSimulator } from '../../../src/sim/server/start.js';
import { T0 } from './helpers.js';

class Signals extends EventEmitter implements SignalSource {}

describe('simSettings', () => {
  it('has the documented defaults and parses every flag', () => {
    expect(simSettings({})).toEqual({
      port: 8080,
      host: '127.0.0.1',
      seed: 1,
      markets: 50,
      dialect: 'spec',
      flow: 'normal',
      limits: true,
      allowIps: [],
      faults: null,
      settlement: null,
      heartbeatExpiryMs: null,
      exchange: {},
    });
    expect(simSettings({ settlement: 'fail=0.25,mined_ms=500', heartbeatExpiryMs: '3000' })).toMatchObject({
      settlement: { minedAfterMs: 500, confirmedAfterMs: 10_000, failFraction: 0.25 },
      heartbeatExpiryMs: 3_000,
    });
    const s = simSettings({
      port: '0',
      seed: 'abc',
      markets: '7',
      dialect: 'polymarket',
      flow: 'none',
      limits: 'off',
      allowIp: ['10.0.0.1'],
      faults: '503=0.5,delay_ms=20',
    });
    expect(s).toMatchObject({
      port: 0,
      seed: 'abc',
      markets: 7,
      dialect: 'polymarket',
      flow: 'none',
      limits: false,
      allowIps: ['10.0.0.1'],
    });
    expect(s.faults).toMatchObject({ error503: 0.5, delayMs: 20 });
    expect(simSettings({ seed: '42' }).seed).toBe(42);
  });

  it('turns every bad value into a usage error', () => {
    for (const o of [
      { port: '70000' },
      { port: 'http' },
      { markets: '0' },
      { markets: '100001' },
      { dialect: 'kalshi' },
      { flow: 'max' },
      { limits: 'maybe' },
      { seed: '' },
      { faults: '502=0.1' },
      { faults: '500=2' },
      { settlement: 'fail=2' },
      { settlement: 'lag=1' },
      { settlement: 'mined_ms=20000' },
      { heartbeatExpiryMs: '0' },
    ]) {
      expect(() => simSettings(o), JSON.stringify(o)).toThrow(UsageError);
    }
  });
});

describe('runSim', () => {
  it('prints the URL and the account as export lines, serves, and stops on SIGTERM', async () => {
    const signals = new Signals();
    let out = '';
    let sim: RunningSimulator | undefined;
    const done = runSim(
      { port: '0', flow: 'none', markets: '3', seed: '9' },
      {
        out: {
          write: (s: string) => {
            out += s;
          },
        },
        clock: new VirtualClock(T0),
        signals,
        onReady: (s) => {
          sim = s;
        },
      },
    );
    while (sim === undefined) await new Promise<void>((r) => setImmediate(r));
    const lines = out.trim().split('\n');
    expect(lines[0]).toBe(`# oddsmaker simulator listening on ${sim.url}`);
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const exported = Object.fromEntries(
      lines
        .filter((l) => l.startsWith('export '))
        .map((l) => {
          const kv = l.slice('export '.length);
          const eq = kv.indexOf('=');
          return [kv.slice(0, eq), kv.slice(eq + 1)];
        }),
    );
    expect(exported).toEqual({
      ODDSMAKER_PRIVATE_KEY: sim.account.privateKey,
      ODDSMAKER_ADDRESS: sim.account.address,
      ODDSMAKER_API_KEY: sim.account.apiKey,
      ODDSMAKER_API_SECRET: sim.account.secret,
      ODDSMAKER_API_PASSPHRASE: sim.account.passphrase,
    });
    const res = await fetch(`${sim.url}/`);
    expect(await res.json()).toBe('OK');
    signals.emit('SIGTERM');
    await done;
    expect(out).toMatch(/# oddsmaker simulator stopped\n$/);
    await expect(fetch(`${sim.url}/`)).rejects.toThrow();
    expect(signals.listenerCount('SIGTERM') + signals.listenerCount('SIGINT')).toBe(0);
  });

  it('is a commander command that stops on SIGINT', async () => {
    const signals = new Signals();
    const program = new Command().exitOverride();
    let url = '';
    register(program, {
      out: { write: () => undefined },
      clock: new VirtualClock(T0),
      signals,
      onReady: (s) => {
        url = s.url;
        setImmediate(() => signals.emit('SIGINT'));
      },
    });
    await program.parseAsync([
      'node',
      'oddsmaker',
      'sim',
      '--port',
      '0',
      '--flow',
      'none',
      '--markets',
      '2',
      '--dialect',
      'polymarket',
    ]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect(
      program.parseAsync(['node', 'oddsmaker', 'sim', '--port', '0', '--limits', 'sometimes']),
    ).rejects.toThrow(UsageError);
  });
});
