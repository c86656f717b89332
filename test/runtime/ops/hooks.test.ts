// The metering decorators change nothing: every call reaches the wrapped executor or limiter with
// its arguments and returns its result (or error) untouched; the hooks see apply/cancelAll reports
// and acquired/throttled routes; a hook that throws never breaks the call it observes.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import type { Price, Shares } from '../../../src/core/money.js';
import type { ApplyReport, CancelAllReport, MarketInfo } from '../../../src/execution/order-manager-types.js';
import { quoteKey, type ReconcilePlan } from '../../../src/execution/types.js';
import { Ledger } from '../../../src/ledger/index.js';
import { MemoryRateLimiter, resolveRateLimitConfig } from '../../../src/ratelimit/index.js';
import { MeteredExecutor, MeteredLimiter } from '../../../src/runtime/ops/hooks.js';
import { T0 } from '../../marketdata/helpers.js';
import { FakeExecutor } from '../fake-executor.js';
import { opsHarness } from './ops-harness.js';

function executor() {
  const clock = new VirtualClock(T0);
  const ledger = Ledger.open(':memory:', { clock, synchronous: 'NORMAL' });
  return { clock, ledger, inner: new FakeExecutor(clock, ledger) };
}

const market: MarketInfo = {
  conditionId: 'm1',
  tickSize: 10_000 as Price,
  negRisk: false,
  makerBaseFeeBps: 0,
  takerBaseFeeBps: 0,
};
const plan: ReconcilePlan = {
  cancels: [],
  kept: [],
  blocked: [],
  placements: [
    {
      key: quoteKey('t1', 'BUY', 400_000),
      kind: 'new',
      quote: { tokenId: 't1', side: 'BUY', price: 400_000 as Price, size: 10_000_000 as Shares },
    },
  ],
};

describe('MeteredExecutor', () => {
  it('forwards every call and hands apply and cancelAll reports to the hooks', async () => {
    const { inner } = executor();
    const applied: ApplyReport[] = [];
    const cancels: CancelAllReport[] = [];
    const m = new MeteredExecutor(inner, { onApply: (r) => applied.push(r), onCancelAll: (r) => cancels.push(r) });
    await m.startupReconcile({ orphanPolicy: 'adopt' });
    expect(inner.startupOrphanPolicy).toBe('adopt');
    const r = await m.apply(plan, new Map([['t1', market]]));
    expect(applied).toEqual([r]);
    expect(r.accepted).toBe(1);
    expect(m.liveOrders()).toEqual(inner.liveOrders());
    await m.pollFills();
    await m.resolveUnknown();
    inner.circuitState = 'open';
    expect(m.circuitState).toBe('open');
    const c = await m.cancelAll({ timeoutMs: 1_000 });
    expect(cancels).toEqual([c]);
    expect(c.cancelled).toBe(1);
    expect(inner.halted).toBe(true);
    m.resume();
    expect(inner.halted).toBe(false);
    await m.close();
    expect(inner.events).toEqual([
      'startupReconcile',
      'apply',
      'pollFills',
      'resolveUnknown',
      'cancelAll',
      'resume',
      'close',
    ]);
  });

  it('a throwing hook does not break the call; the inner error passes through untouched', async () => {
    const { inner } = executor();
    const m = new MeteredExecutor(inner, {
      onApply: () => {
        throw new Error('hook');
      },
      onCancelAll: () => {
        throw new Error('hook');
      },
    });
    await expect(m.apply(plan, new Map([['t1', market]]))).resolves.toMatchObject({ accepted: 1 });
    await expect(m.cancelAll()).resolves.toMatchObject({ cancelled: 1 });
    inner.failApply = 1;
    await expect(m.apply(plan, new Map())).rejects.toThrow('exchange unavailable');
  });
});

describe('MeteredLimiter', () => {
  it('forwards every call and tells the hooks which routes were acquired and throttled', async () => {
    const clock = new VirtualClock(T0);
    const inner = new MemoryRateLimiter({ clock, config: resolveRateLimitConfig({}) });
    const seen: string[] = [];
    const m = new MeteredLimiter(inner, {
      onAcquire: (route, api) => seen.push(`acquire ${api ?? '-'} ${route}`),
      onThrottled: (route, api) => seen.push(`429 ${api ?? '-'} ${route}`),
    });
    const p = await m.acquire('POST /order', { priority: 'new' });
    p.release();
    m.onThrottled('POST /order', 3_000, 'clob');
    expect(seen).toEqual(['acquire - POST /order', '429 clob POST /order']);
    expect(await m.wouldWaitMs('POST /order')).toBe(await inner.wouldWaitMs('POST /order'));
    expect(await m.wouldWaitMs('POST /order')).toBeGreaterThan(2_000); // the 429 pause reached the limiter
    expect(await m.nextFreeAt('POST /order')).toBe(await inner.nextFreeAt('POST /order'));
    expect(m.queueDepth()).toEqual(inner.queueDepth());
    expect(await m.utilisation('POST /order')).toEqual(await inner.utilisation('POST /order'));
    await m.close();
    await expect(inner.acquire('POST /order', { priority: 'new' })).rejects.toThrow(/closed/);
  });

  it("forwards the per-signer calls: the exchange's reports reach the limiter, tier and capacity come back", async () => {
    const clock = new VirtualClock(T0);
    const inner = new MemoryRateLimiter({ clock, config: resolveRateLimitConfig({ marginMs: 0 }) });
    const m = new MeteredLimiter(inner, { onAcquire: () => undefined, onThrottled: () => undefined });
    expect(m.signerTier()).toBe('standard');
    expect(m.signerCapacity('cancel')).toBe(120);
    m.observeSigner('POST /orders', { remaining: 10, resetAtMs: null, tier: 'silver', warning: false, refused: false });
    expect(inner.signerTier()).toBe('silver');
    expect(m.signerCapacity('order')).toBe(300);
    expect(inner.signerState()[0]?.tokens).toBe(10);
    const off = new MeteredLimiter(
      new MemoryRateLimiter({ clock, config: resolveRateLimitConfig({ signerTier: 'off' }) }),
      { onAcquire: () => undefined, onThrottled: () => undefined },
    );
    expect([off.signerTier(), off.signerCapacity('order')]).toEqual([null, null]);
    await m.close();
    await off.close();
  });

  it('a throwing hook does not stop the acquire nor the 429 pause', async () => {
    const clock = new VirtualClock(T0);
    const inner = new MemoryRateLimiter({ clock, config: resolveRateLimitConfig({}) });
    const m = new MeteredLimiter(inner, {
      onAcquire: () => {
        throw new Error('x');
      },
      onThrottled: () => {
        throw new Error('x');
      },
    });
    (await m.acquire('GET /book', { priority: 'read' })).release();
    m.onThrottled('GET /book', 1_000);
    expect((await inner.utilisation('GET /book')).pausedForMs).toBe(1_000);
    await m.close();
  });
});

describe("the daemon's onCycle hook", () => {
  it("is told every cycle's report; one that throws is logged and the loop goes on", async () => {
    const seen: number[] = [];
    const h = await opsHarness({
      onCycle: (r) => {
        seen.push(r.quotes);
        if (seen.length === 2) throw new Error('metrics broke');
      },
    });
    try {
      await h.start();
      await h.clock.advanceAsync(3_000);
      expect(seen).toEqual([12, 12, 12, 12]);
      expect(h.daemon.status().cycles).toBe(4);
      expect(h.lines.filter((l) => l.msg === 'onCycle hook failed')).toHaveLength(1);
      expect(h.executor.liveOrders()).toHaveLength(12);
    } finally {
      await h.close();
    }
  });
});
