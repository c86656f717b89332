// The worker pool against the single-threaded signer: same ids and signatures, in batch order,
// under concurrency, with mixed neg-risk domains; closing fails what is in flight.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Wallet } from 'ethers';
import { InvariantError } from '../../../src/core/errors.js';
import { DIALECTS } from '../../../src/exchange/dialect.js';
import { SigningError } from '../../../src/exchange/signing/errors.js';
import { SigningPool } from '../../../src/exchange/signing/pool.js';
import { OrderSigner } from '../../../src/exchange/signing/signer.js';
import { KEY_A, KEY_B, orderArb } from './arbitraries.js';

const address = new Wallet(KEY_A).address;
const pools: SigningPool[] = [];
function pool(opts: Partial<ConstructorParameters<typeof SigningPool>[0]> = {}): SigningPool {
  const p = new SigningPool({ privateKey: KEY_A, dialect: DIALECTS.spec, workers: 2, ...opts });
  pools.push(p);
  return p;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('SigningPool', () => {
  it('signs batches exactly as OrderSigner does, in batch order, in both dialects', async () => {
    for (const dialect of [DIALECTS.spec, DIALECTS.polymarket]) {
      const p = pool({ dialect });
      const single = new OrderSigner(KEY_A, dialect);
      const orders = fc.sample(orderArb(address), { numRuns: 45, seed: 11 });
      const out = await p.signBatch(orders);
      expect(out).toEqual(orders.map((o) => single.sign(o)));
    }
  });

  it('keeps many concurrent batches apart', async () => {
    const p = pool({ workers: 3, minChunk: 2 });
    const single = new OrderSigner(KEY_A, DIALECTS.spec);
    const batches = Array.from({ length: 20 }, (_, i) =>
      fc.sample(orderArb(address), { numRuns: 1 + (i % 15), seed: 100 + i }),
    );
    const results = await Promise.all(batches.map((b) => p.signBatch(b)));
    results.forEach((r, i) => expect(r).toEqual(batches[i]!.map((o) => single.sign(o))));
  });

  it('signs small batches in-thread with the same result', async () => {
    const p = pool({ inlineMax: 3 });
    const single = new OrderSigner(KEY_A, DIALECTS.spec);
    const orders = fc.sample(orderArb(address), { numRuns: 3, seed: 5 });
    expect(await p.signBatch(orders)).toEqual(orders.map((o) => single.sign(o)));
    expect(await p.sign(orders[0]!)).toEqual(single.sign(orders[0]!));
    expect(await p.signBatch([])).toEqual([]);
  });

  it('rejects orders for another signer and malformed orders without signing any', async () => {
    const p = pool();
    const mine = fc.sample(orderArb(address), { numRuns: 8, seed: 9 });
    const theirs = fc.sample(orderArb(new Wallet(KEY_B).address), { numRuns: 1, seed: 9 });
    await expect(p.signBatch([...mine, ...theirs])).rejects.toBeInstanceOf(InvariantError);
    await expect(p.signBatch([...mine, { ...mine[0]!, makerAmount: -5 }])).rejects.toBeInstanceOf(InvariantError);
    // The pool is still usable afterwards.
    expect((await p.signBatch(mine)).length).toBe(8);
  });

  it('fails batches in flight and later calls once closed', async () => {
    const p = pool();
    const orders = fc.sample(orderArb(address), { numRuns: 15, seed: 21 });
    const inFlight = expect(p.signBatch(orders)).rejects.toMatchObject({ code: 'SIGNING_POOL_CLOSED' });
    await p.close();
    await inFlight;
    await expect(p.signBatch(orders)).rejects.toBeInstanceOf(SigningError);
    await p.close(); // idempotent
  });

  it('fails only the chunk a dying worker held, replaces that worker, and signs on', async () => {
    // A worker that signs normally but exits on a batch of exactly 3 orders.
    const p = pool({ workers: 1, workerUrl: new URL('./crash-on-three-worker.js', import.meta.url), minChunk: 100 });
    const single = new OrderSigner(KEY_A, DIALECTS.spec);
    const orders = fc.sample(orderArb(address), { numRuns: 5, seed: 31 });
    expect(await p.signBatch(orders)).toEqual(orders.map((o) => single.sign(o)));
    const err = await p.signBatch(orders.slice(0, 3)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SigningError);
    expect(err).toMatchObject({ code: 'SIGNING_WORKER_FAILED', retryable: true });
    expect(p.running).toBe(1);
    expect(await p.signBatch(orders.slice(0, 4))).toEqual(orders.slice(0, 4).map((o) => single.sign(o)));
  });

  it('does not respawn workers that cannot start, and then fails batches instead of hanging', async () => {
    const p = pool({ workers: 2, workerUrl: new URL('./throws-at-start-worker.js', import.meta.url) });
    const orders = fc.sample(orderArb(address), { numRuns: 8, seed: 41 });
    const err = await p.signBatch(orders).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SIGNING_WORKER_FAILED' });
    // Both chunks went to the two workers; the second batch fails with the last one's death, or at
    // once when none is left. Either way every worker is gone and nothing was respawned.
    await expect(p.signBatch(orders)).rejects.toMatchObject({ code: 'SIGNING_WORKER_FAILED' });
    expect(p.running).toBe(0);
    await expect(p.signBatch(orders)).rejects.toThrow(/no signing worker/);
  });

  it.runIf(existsSync('/proc/thread-self'))(
    'lowers the priority of its worker threads, not of the event loop (Linux)',
    async () => {
      const niceOf = (task: string): number => {
        const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      };
      const threadsAt = (nice: number): number =>
        readdirSync('/proc/self/task').filter((t) => niceOf(t) === nice).length;
      const mainBefore = niceOf(String(process.pid));
      const p = pool({ workers: 2, workerNice: 7, minChunk: 1 });
      // Two chunks, one per worker: both have started (and set their priority) once it resolves.
      await p.signBatch(fc.sample(orderArb(address), { numRuns: 2, seed: 51 }));
      expect(threadsAt(7)).toBe(2);
      expect(niceOf(String(process.pid))).toBe(mainBefore);
    },
  );

  it('refuses a bad key without echoing it', () => {
    expect(() => new SigningPool({ privateKey: 'nope', dialect: DIALECTS.spec })).toThrow(/not 32 bytes of hex/);
    expect(() => new SigningPool({ privateKey: KEY_A, dialect: DIALECTS.spec, workers: 0 })).toThrow(InvariantError);
  });
});
