// The backtest's sequence ids: 0x + the seed's 8 hex digits + the order's number in 56 hex digits,
// the same string whichever way it is written (byte by byte below 2^32, toString(16) above), and
// distinct for every order of a run.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { seedTag, sequenceIdSigner, sequenceOrderId } from '../../src/backtest/signer.js';
import { validateConfig } from '../../src/config/load.js';
import type { Price, Shares } from '../../src/core/money.js';
import { buildOrder } from '../../src/exchange/signing/index.js';
import { seededKey } from '../support/keys.js';

const reference = (seed: number, k: number): string =>
  `0x${(seed >>> 0).toString(16).padStart(8, '0')}${k.toString(16).padStart(56, '0')}`;

describe('sequence order ids', () => {
  it('property: equal to the hex of the seed and the number, padded, at every size', () => {
    const k = fc.oneof(
      fc.integer({ min: 1, max: 0xffff_ffff }),
      fc.constantFrom(1, 255, 256, 0xffff, 0x1_0000, 0xff_ffff, 0xffff_ffff, 0x1_0000_0000, 2 ** 53 - 1),
      fc.integer({ min: 0x1_0000_0000, max: Number.MAX_SAFE_INTEGER }),
    );
    fc.assert(
      fc.property(fc.integer(), k, (seed, n) => {
        const id = sequenceOrderId(seedTag(seed), n);
        expect(id).toBe(reference(seed, n));
        expect(id).toMatch(/^0x[0-9a-f]{64}$/);
      }),
      { numRuns: 5_000 },
    );
  });

  it('a signer numbers its orders from 1, one id each', async () => {
    const signer = sequenceIdSigner(seededKey('sequence ids'), validateConfig({}), 7);
    const order = buildOrder(
      {
        tokenId: '1',
        conditionId: `0x${'11'.repeat(32)}`,
        side: 'BUY',
        price: 500_000 as Price,
        size: 10_000_000 as Shares,
        orderType: 'GTC',
        tick: 10_000 as Price,
        negRisk: false,
      },
      { maker: signer.address, signer: signer.address, signatureType: 0, timestampMs: 0, salt: 1 },
    );
    const ids = signer.signNow([order, order, order]).map((o) => o.id);
    expect(ids).toEqual([reference(7, 1), reference(7, 2), reference(7, 3)]);
    expect((await signer.signBatch([order]))[0]?.id).toBe(reference(7, 4));
  });
});
