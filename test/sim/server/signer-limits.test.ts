// The simulator's per-signer trading buckets (polymarket dialect, limits on), through its HTTP
// interface on loopback: a burst beyond the bucket is refused with the exchange's answer (429,
// `{"error": "Too Many Requests"}`, Retry-After), a batch larger than the tokens left is refused
// whole (no order of it rests), every evaluated request carries consistent Poly-RateLimit-*
// headers, cancel-all is charged for what it cancelled, and GET /v1/user/rate-limit-tier answers.
import { afterEach, describe, expect, it } from 'vitest';
import type { SignerTier } from '../../../src/ratelimit/signer-tiers.js';
import { Venue } from '../../../src/sim/venue/index.js';
import { openMarket, px, signedRaw, startTestSim, submission, type TestSim } from './helpers.js';

let t: TestSim | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

async function sim(signerTier?: SignerTier | 'off', dialect: 'polymarket' | 'spec' = 'polymarket'): Promise<TestSim> {
  t = await startTestSim({ dialect, limits: 'on', ...(signerTier === undefined ? {} : { signerTier }) });
  return t;
}

function orders(s: TestSim, n: number, price = 0.2): unknown[] {
  const m = openMarket(s.sim, 0, 10_000);
  return Array.from({ length: n }, () => submission(s, { market: m, price: px(price), size: px(5) }));
}

function openCount(s: TestSim): number {
  return s.sim.venue.engine.openOrders(Venue.ownerOf(s.sim.account.address)).length;
}

describe('simulator per-signer buckets (polymarket dialect)', () => {
  it('refuses a burst of cancels beyond the cancel bucket with 429 and Retry-After, then admits after the refill', async () => {
    const s = await sim();
    const del = (): ReturnType<typeof signedRaw> =>
      signedRaw(s, 'DELETE', '/order', JSON.stringify({ orderID: '0xabc' }));
    for (let i = 0; i < 120; i++) {
      const r = await del();
      expect(r.status).toBe(200);
      expect(r.headers.get('Poly-RateLimit-Remaining')).toBe(String(119 - i));
    }
    const refused = await del();
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({ error: 'Too Many Requests' });
    expect(refused.headers.get('Retry-After')).toBe('1');
    expect(refused.headers.get('Poly-RateLimit-Remaining')).toBe('0');
    expect(refused.headers.get('Poly-RateLimit-Tier')).toBe('standard');
    // Reset: when one token (12.5 ms at 80 / s) is there, in Unix seconds.
    expect(Number(refused.headers.get('Poly-RateLimit-Reset'))).toBe(Math.ceil((s.clock.now() + 13) / 1000));
    s.clock.advance(13);
    expect((await del()).status).toBe(200);
  });

  it('refuses a batch larger than the tokens left whole: no order of it rests', async () => {
    const s = await sim();
    for (let i = 0; i < 4; i++) {
      const r = await signedRaw(s, 'POST', '/orders', JSON.stringify(orders(s, 14)));
      expect(r.status).toBe(200);
      expect(r.headers.get('Poly-RateLimit-Remaining')).toBe(String(60 - 14 * (i + 1)));
    }
    const before = openCount(s);
    expect(before).toBe(56);
    const r = await signedRaw(s, 'POST', '/orders', JSON.stringify(orders(s, 5)));
    expect(r.status).toBe(429);
    expect(r.json).toEqual({ error: 'Too Many Requests' });
    expect(r.headers.get('Poly-RateLimit-Remaining')).toBe('4');
    expect(r.headers.get('Retry-After')).toBe('1');
    expect(openCount(s)).toBe(before);
    // The 4 left still admit a batch of 4: the refusal took nothing.
    expect((await signedRaw(s, 'POST', '/orders', JSON.stringify(orders(s, 4)))).status).toBe(200);
    expect(openCount(s)).toBe(60);
  });

  it('answers a batch costing more than the burst without Retry-After (it can never be admitted)', async () => {
    const s = await sim();
    const ids = Array.from({ length: 121 }, (_, i) => `0x${i.toString(16)}`);
    const r = await signedRaw(s, 'DELETE', '/orders', JSON.stringify(ids));
    expect(r.status).toBe(429);
    expect(r.headers.get('Retry-After')).toBeNull();
    expect(r.headers.get('Poly-RateLimit-Remaining')).toBe('120');
  });

  it('charges cancel-all 1 up front plus what it cancelled, and keeps the order bucket apart', async () => {
    const s = await sim();
    expect((await signedRaw(s, 'POST', '/orders', JSON.stringify(orders(s, 10)))).status).toBe(200);
    const r = await signedRaw(s, 'DELETE', '/cancel-all');
    expect(r.status).toBe(200);
    expect((r.json as { canceled: string[] }).canceled).toHaveLength(10);
    expect(r.headers.get('Poly-RateLimit-Remaining')).toBe(String(120 - 11));
    expect(s.sim.ctx.signer?.tokens(s.sim.account.address, 'order')).toBe(50);
  });

  it('serves the tier route and sends the configured tier in the headers', async () => {
    const s = await sim('gold');
    const r = await signedRaw(s, 'GET', '/v1/user/rate-limit-tier');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ tier: 'gold' });
    expect(r.headers.get('Poly-RateLimit-Tier')).toBe('gold');
    const d = await signedRaw(s, 'DELETE', '/order', JSON.stringify({ orderID: '0xabc' }));
    expect(d.headers.get('Poly-RateLimit-Remaining')).toBe('1199');
    expect(d.headers.get('Poly-RateLimit-Tier')).toBe('gold');
    expect(
      (await signedRaw(s, 'GET', '/v1/user/rate-limit-tier', undefined, { headers: { POLY_SIGNATURE: 'bad' } })).status,
    ).toBe(401);
  });

  it('meters nothing in the spec dialect or with signerTier off', async () => {
    const off = await sim('off');
    expect(
      (await signedRaw(off, 'DELETE', '/order', JSON.stringify({ orderID: '0xabc' }))).headers.get(
        'Poly-RateLimit-Remaining',
      ),
    ).toBeNull();
    expect((await signedRaw(off, 'GET', '/v1/user/rate-limit-tier')).status).toBe(404);
    await off.close();
    t = null;
    const spec = await sim(undefined, 'spec');
    expect(spec.sim.ctx.signer).toBeNull();
  });
});
