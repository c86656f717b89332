// HttpGateway and the exchange's per-signer buckets, against the simulator (polymarket dialect,
// limits on, standard tier) with the real limiter on the simulator's VirtualClock: a POST /orders
// batch is charged its orders in tokens (read from the body), a DELETE /orders its ids, the
// simulator's Poly-RateLimit-* headers lower the limiter's balance, a burst beyond the bucket
// waits at the limiter instead of meeting 429s (and does meet them when the limiter does not
// model the buckets), and the tier route is read once at start (a 404 keeps the configured tier).
import { afterEach, describe, expect, it } from 'vitest';
import { makeCredentials } from '../../src/exchange/auth/credentials.js';
import type { WireOrderSubmission } from '../../src/exchange/wire.js';
import { MemoryRateLimiter } from '../../src/ratelimit/memory-limiter.js';
import type { SignerTier } from '../../src/ratelimit/signer-tiers.js';
import type { AcquireOptions, Permit, RateLimiter } from '../../src/ratelimit/types.js';
import { HttpGateway } from '../../src/runtime/http-gateway.js';
import { openMarket, px, settle, signedRaw, startTestSim, submission, type TestSim } from '../sim/server/helpers.js';

/** The real limiter, recording each acquire's route and tokens, and every 429 reported. */
class SpyLimiter implements RateLimiter {
  readonly acquired: { route: string; tokens: number | undefined }[] = [];
  throttled = 0;
  constructor(readonly inner: MemoryRateLimiter) {}
  acquire(route: string, opts: AcquireOptions): Promise<Permit> {
    this.acquired.push({ route, tokens: opts.tokens });
    return this.inner.acquire(route, opts);
  }
  onThrottled: RateLimiter['onThrottled'] = (r, ms, api) => {
    this.throttled++;
    this.inner.onThrottled(r, ms, api);
  };
  wouldWaitMs: RateLimiter['wouldWaitMs'] = (r, q) => this.inner.wouldWaitMs(r, q);
  nextFreeAt: RateLimiter['nextFreeAt'] = (r, q) => this.inner.nextFreeAt(r, q);
  queueDepth: RateLimiter['queueDepth'] = () => this.inner.queueDepth();
  utilisation: RateLimiter['utilisation'] = (r, a) => this.inner.utilisation(r, a);
  observeSigner: NonNullable<RateLimiter['observeSigner']> = (r, s) => {
    this.inner.observeSigner(r, s);
  };
  signerTier: NonNullable<RateLimiter['signerTier']> = () => this.inner.signerTier();
  signerCapacity: NonNullable<RateLimiter['signerCapacity']> = (k) => this.inner.signerCapacity(k);
  close: RateLimiter['close'] = () => this.inner.close();
}

interface H {
  t: TestSim;
  limiter: SpyLimiter;
  gw: HttpGateway;
}

const open: H[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) {
    await h.gw.close();
    await h.limiter.close();
    await h.t.close();
  }
});

async function setup(o: { simTier?: SignerTier | 'off'; limiterTier?: SignerTier | 'off' } = {}): Promise<H> {
  const t = await startTestSim({ dialect: 'polymarket', limits: 'on', signerTier: o.simTier ?? 'standard' });
  // The daemon's default margin (200 ms): the order bucket's capacity is 60 - 8 = 52 at standard.
  const limiter = new SpyLimiter(
    new MemoryRateLimiter({ clock: t.clock, config: { signerTier: o.limiterTier ?? 'standard' } }),
  );
  const a = t.sim.account;
  const gw = new HttpGateway({
    client: {
      clobUrl: t.sim.url,
      dialect: t.sim.venue.dialect,
      clock: t.clock,
      random: () => 0,
      credentials: makeCredentials({ apiKey: a.apiKey, secret: a.secret, passphrase: a.passphrase }),
      address: a.address,
    },
    limiter,
  });
  const h = { t, limiter, gw };
  open.push(h);
  return h;
}

function batch(t: TestSim, n: number): WireOrderSubmission[] {
  const m = openMarket(t.sim, 0, 10_000);
  return Array.from({ length: n }, () => submission(t, { market: m, price: px(0.2), size: px(5) }));
}

const simTokens = (t: TestSim, kind: 'order' | 'cancel'): number | undefined =>
  t.sim.ctx.signer?.tokens(t.sim.account.address, kind);
const orderState = (l: SpyLimiter): { tokens: number; capacity: number } =>
  l.inner.signerState()[0] as { tokens: number; capacity: number };

describe('HttpGateway with the per-signer buckets (simulator, polymarket dialect)', () => {
  it('charges a POST /orders batch of N, and a DELETE /orders of N ids, N tokens', async () => {
    const { t, limiter, gw } = await setup();
    // Admitted at once: nothing waits on the virtual clock, so the balances are exact.
    const placed = await gw.postOrders(batch(t, 7), 'new');
    expect(placed.every((r) => r.success)).toBe(true);
    expect(limiter.acquired).toEqual([{ route: 'POST /orders', tokens: 7 }]);
    expect(orderState(limiter)).toMatchObject({ tokens: 52 - 7, capacity: 52 });
    expect(simTokens(t, 'order')).toBe(60 - 7);

    const ids = placed.map((r) => r.orderId as string).slice(0, 5);
    await gw.cancelOrders(ids);
    expect(limiter.acquired[1]).toEqual({ route: 'DELETE /orders', tokens: 5 });
    expect(simTokens(t, 'cancel')).toBe(120 - 5);
  });

  it("adopts the simulator's lower balance from the answer's headers", async () => {
    const { t, limiter, gw } = await setup();
    // Another process of the same signer spent 40 order tokens behind our limiter's back.
    for (let i = 0; i < 4; i++)
      expect((await signedRaw(t, 'POST', '/orders', JSON.stringify(batch(t, 10)))).status).toBe(200);
    expect(orderState(limiter).tokens).toBe(52);
    await gw.postOrders(batch(t, 5), 'new');
    // The exchange answered Remaining 15 (60 - 45): our model holds at most that less the 8-token reserve.
    expect(simTokens(t, 'order')).toBe(15);
    expect(orderState(limiter).tokens).toBe(15 - 8);
  });

  it('waits at the limiter through a burst beyond the bucket: zero 429s', async () => {
    const { t, limiter, gw } = await setup();
    const start = t.clock.now();
    // 10 batches of 15 = 150 orders at once: 2.5 buckets' worth.
    const sends = Array.from({ length: 10 }, () => gw.postOrders(batch(t, 15), 'new'));
    const results = await settle(t.clock, Promise.all(sends), 5, 40_000);
    expect(results.flat()).toHaveLength(150);
    expect(results.flat().every((r) => r.success)).toBe(true);
    expect(limiter.throttled).toBe(0);
    expect(limiter.acquired.map((a) => a.tokens)).toEqual(Array(10).fill(15));
    // 150 - 52 tokens had to refill at 40 / s first: the limiter spread the burst out.
    expect(t.clock.now() - start).toBeGreaterThanOrEqual(((150 - 52) / 40) * 1000 - 25);
  });

  it('meets 429s with the same burst when the limiter does not model the buckets', async () => {
    const { t, limiter, gw } = await setup({ limiterTier: 'off' });
    const sends = Array.from({ length: 10 }, () =>
      gw.postOrders(batch(t, 15), 'new').then(
        () => 'ok',
        (e: { status?: number }) => e.status,
      ),
    );
    const outcomes = await settle(t.clock, Promise.all(sends), 5, 40_000);
    expect(outcomes.filter((o) => o === 429).length).toBeGreaterThan(0);
    expect(limiter.throttled).toBeGreaterThan(0);
  });

  it('reads the tier route once at start, and keeps the configured tier when it is not served', async () => {
    const up = await setup({ simTier: 'silver' });
    const missing: string[] = [];
    expect(
      await settle(
        up.t.clock,
        up.gw.adoptSignerTier((why) => missing.push(why)),
        5,
      ),
    ).toBe('silver');
    expect(missing).toEqual([]);
    expect(up.limiter.signerCapacity('order')).toBe(300 - 40);
    expect(up.limiter.acquired).toEqual([{ route: 'GET /v1/user/rate-limit-tier', tokens: undefined }]);

    const none = await setup({ simTier: 'off' });
    expect(
      await settle(
        none.t.clock,
        none.gw.adoptSignerTier((why) => missing.push(why)),
        5,
      ),
    ).toBe('standard');
    expect(missing).toHaveLength(1);
    expect(missing[0]).toMatch(/404/);
  });
});
