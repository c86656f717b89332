// The universe's fee models (marketdata/universe.ts with a fee schedule): under 'fee-details' (the
// public exchange) every market's settings carry the model of its `fd`, read from GET /clob-markets
// (for selector markets too, whose sampling records have none; a failed read is `fees: null`,
// unknown); under 'base-bps' or no schedule the settings keep their base fees (`fees` absent).
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { feeModelFromDetails } from '../../src/core/fees.js';
import type { ClobMarketSettings } from '../../src/core/market.js';
import { resolveUniverse, type UniversePort, type UniverseSpec } from '../../src/marketdata/universe.js';
import { FakeGateway } from '../support/fake-gateway.js';

const selector = (max: number): UniverseSpec => ({
  tokens: [],
  conditions: [],
  selector: { active: true, acceptingOrders: true, tags: [], rewardsOnly: false, max },
});

function port(failFor: string | null = null): { port: UniversePort; reads: string[] } {
  const gw = new FakeGateway(new VirtualClock());
  gw.addMarket({ conditionId: 'm1', makerBaseFeeBps: 1000, takerBaseFeeBps: 1000 });
  gw.addMarket({ conditionId: 'm2', makerBaseFeeBps: 1000, takerBaseFeeBps: 1000 });
  const reads: string[] = [];
  return {
    reads,
    port: {
      getBooks: (t, s) => gw.getBooks(t, s),
      samplingMarkets: (s) => gw.samplingMarkets(s),
      getMarketSettings: async (id, s): Promise<ClobMarketSettings> => {
        reads.push(id);
        if (id === failFor) throw new Error('503');
        return { ...(await gw.getMarketSettings(id, s)), feeDetails: { r: 0.07, e: 1, to: true } };
      },
    },
  };
}

describe('universe fee models', () => {
  it('fee-details: selector markets get the model of their fd, read once each; a failed read is unknown', async () => {
    const p = port('m2');
    const u = await resolveUniverse(p.port, selector(2), undefined, 'fee-details');
    expect(p.reads).toEqual(['m1', 'm2']);
    expect(u.map((m) => [m.conditionId, m.settings.fees])).toEqual([
      ['m1', feeModelFromDetails({ r: 0.07, e: 1 })],
      ['m2', null],
    ]);
    // The base fees stay as sent; they are not what is charged.
    expect(u[0]!.settings.takerBaseFeeBps).toBe(1000);
  });

  it('fee-details: explicit markets take the model from the settings they are resolved with', async () => {
    const p = port();
    const u = await resolveUniverse(p.port, { ...selector(1), conditions: ['m2'] }, undefined, 'fee-details');
    expect(p.reads).toEqual(['m2']);
    expect(u[0]!.settings.fees).toEqual(feeModelFromDetails({ r: 0.07, e: 1 }));
  });

  it('base-bps or no schedule: no extra read, the base fees', async () => {
    for (const schedule of ['base-bps', undefined] as const) {
      const p = port();
      const u = await resolveUniverse(p.port, selector(2), undefined, schedule);
      expect(p.reads).toEqual([]);
      expect(u.every((m) => m.settings.fees === undefined)).toBe(true);
    }
  });
});
