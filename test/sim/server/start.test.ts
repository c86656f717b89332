// startSimulator (the in-process entry the daemon's sandbox mode uses): defaults, the account it
// returns, a clean and idempotent close, and a failure to listen that leaves nothing running.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { SCALE } from '../../../src/core/money.js';
import { startSimulator } from '../../../src/sim/server/start.js';
import { T0 } from './helpers.js';
import { OptionError } from '../../../src/core/errors.js';

describe('startSimulator', () => {
  it('starts with the documented defaults and returns a funded account that matches the venue', async () => {
    const sim = await startSimulator({ clock: new VirtualClock(T0), verifier: { workers: 0 } });
    try {
      expect(sim.host).toBe('127.0.0.1');
      expect(sim.url).toBe(`http://127.0.0.1:${sim.port}`);
      expect(sim.venue.world.markets.length).toBe(50);
      expect(sim.venue.dialect.name).toBe('spec');
      expect(sim.venue.flow).toMatchObject({ intensity: 'normal', state: 'running' });
      expect(sim.ctx.throttle).not.toBeNull();
      expect(sim.account.address).toBe(sim.venue.account.address);
      expect(sim.venue.keys.lookup(sim.account.apiKey)?.address).toBe(sim.account.address);
      expect(sim.venue.balances(sim.account.address).collateral.available).toBe(1_000_000 * SCALE);
      const res = await fetch(`${sim.url}/version`);
      expect(await res.json()).toEqual({ version: 2 });
    } finally {
      await sim.close();
      await sim.close();
    }
    expect(sim.venue.flow.state).toBe('stopped');
  });

  it('fails to listen on a busy port without leaving a server or flow running', async () => {
    const a = await startSimulator({ clock: new VirtualClock(T0), flow: 'none', markets: 3, verifier: { workers: 0 } });
    try {
      await expect(
        startSimulator({
          clock: new VirtualClock(T0),
          flow: 'none',
          markets: 3,
          port: a.port,
          verifier: { workers: 0 },
        }),
      ).rejects.toThrow();
    } finally {
      await a.close();
    }
  });

  it('refuses bad options before anything listens', async () => {
    const base = { clock: new VirtualClock(T0), flow: 'none' as const, markets: 3, verifier: { workers: 0 } };
    await expect(startSimulator({ ...base, allowIps: ['localhost'] })).rejects.toThrow(OptionError);
    await expect(startSimulator({ ...base, faults: { error500: 2 } })).rejects.toThrow(OptionError);
    await expect(startSimulator({ ...base, markets: 0 })).rejects.toThrow(OptionError);
    await expect(startSimulator({ ...base, dialect: 'kalshi' as 'spec' })).rejects.toThrow(/unknown dialect/);
  });
});
