// buildOrder: docs/protocol.md's public amount examples, exact notionals, salts, and the InvariantErrors
// an intent our own code should never produce.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { impliedPrice } from '../../../src/core/amounts.js';
import { InvariantError } from '../../../src/core/errors.js';
import type { Price, Shares } from '../../../src/core/money.js';
import { buildOrder, cryptoRandom, decimalOfSafeInteger, randomSalt } from '../../../src/exchange/signing/order.js';
import { ZERO_BYTES32 } from '../../../src/exchange/signing/types.js';
import { CONDITION, intent, intentArb, TOKEN } from './arbitraries.js';

const MAKER = '0x90F8bf6A479f320ead074411a4B0e7944Ea8c9C1';
const opts = { maker: MAKER, signer: MAKER, signatureType: 0 as const, timestampMs: 1_790_000_000_000, salt: '42' };

describe('buildOrder', () => {
  it('gives the public examples of docs/protocol.md §3', () => {
    const buy = buildOrder(intent({ side: 'BUY', price: 500_000 as Price, size: 21_040_000 as Shares }), opts);
    expect([buy.makerAmount, buy.takerAmount]).toEqual([10_520_000, 21_040_000]);
    const sell = buildOrder(
      intent({ side: 'SELL', price: 123_000 as Price, size: 33_337_000 as Shares, tick: 1_000 as Price }),
      opts,
    );
    expect([sell.makerAmount, sell.takerAmount]).toEqual([33_330_000, 4_099_590]);
  });

  it('keeps the exact notional where float arithmetic loses a millionth', () => {
    // 3,821,562.15 × 0.5679 = 2,170,265.144985 exactly; a double product rounds it to ...144984.
    const o = buildOrder(
      intent({ price: 567_900 as Price, size: 3_821_562_154_372 as Shares, tick: 100 as Price }),
      opts,
    );
    expect([o.makerAmount, o.takerAmount]).toEqual([2_170_265_144_985, 3_821_562_150_000]);
  });

  it('fills every field: checksummed addresses, zero metadata/builder, the timestamp given', () => {
    const o = buildOrder(intent({ negRisk: true }), { ...opts, maker: MAKER.toLowerCase() });
    expect(o).toEqual({
      salt: '42',
      maker: MAKER,
      signer: MAKER,
      tokenId: TOKEN,
      makerAmount: 10_520_000,
      takerAmount: 21_040_000,
      side: 'BUY',
      signatureType: 0,
      timestampMs: 1_790_000_000_000,
      metadata: ZERO_BYTES32,
      builder: ZERO_BYTES32,
      conditionId: CONDITION,
      negRisk: true,
    });
  });

  it('amounts imply exactly the on-tick price and the size truncated to 2 decimals', () => {
    fc.assert(
      fc.property(intentArb, (it) => {
        const o = buildOrder(it, opts);
        const shares = it.side === 'BUY' ? o.takerAmount : o.makerAmount;
        expect(shares).toBe(Math.floor(it.size / 10_000) * 10_000);
        expect(impliedPrice(it.side, o.makerAmount, o.takerAmount)).toEqual({ price: it.price, exact: true });
      }),
      { numRuns: 500 },
    );
  });

  it('draws salts from the random source, as safe integers', () => {
    const a = buildOrder(intent(), { ...opts, salt: undefined as never, random: () => 0.5 });
    expect(a.salt).toBe(String(2 ** 52));
    expect(randomSalt(() => 0)).toBe('0');
    // 600 draws cross a refill of the random block (256 draws each).
    const seen = new Set<string>();
    for (let i = 0; i < 600; i++) {
      const salt = randomSalt();
      seen.add(salt);
      const s = Number(salt);
      expect(Number.isSafeInteger(s) && s >= 0).toBe(true);
      const r = cryptoRandom();
      expect(r >= 0 && r < 1).toBe(true);
    }
    expect(seen.size).toBe(600);
    expect(() => randomSalt(() => 1)).toThrow(InvariantError);
    // Explicit salts: numbers, bigints and decimal strings normalise to the same text.
    expect(buildOrder(intent(), { ...opts, salt: 7n }).salt).toBe('7');
    expect(buildOrder(intent(), { ...opts, salt: 7 }).salt).toBe('7');
    expect(buildOrder(intent(), { ...opts, salt: '007' }).salt).toBe('7');
  });

  it('property: a salt is written as String writes its integer, at every magnitude', () => {
    const n = fc.oneof(
      fc.integer({ min: 0, max: 99_999_999 }),
      fc.constantFrom(0, 1, 99_999_999, 100_000_000, 100_000_001, 2 ** 31, 10 ** 15, 2 ** 53 - 1),
      fc.integer({ min: 100_000_000, max: Number.MAX_SAFE_INTEGER }),
    );
    fc.assert(
      fc.property(n, (x) => {
        expect(decimalOfSafeInteger(x)).toBe(String(x));
      }),
      { numRuns: 5_000 },
    );
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (r) => {
        expect(randomSalt(() => r)).toBe(String(Math.floor(r * 2 ** 53)));
      }),
      { numRuns: 2_000 },
    );
  });

  it('throws InvariantError on intents our code should never produce', () => {
    const bad: Array<[string, () => unknown]> = [
      ['off-tick price', () => buildOrder(intent({ price: 505_000 as Price }), opts)],
      ['price at 1', () => buildOrder(intent({ price: 1_000_000 as Price }), opts)],
      ['size truncating to zero', () => buildOrder(intent({ size: 9_999 as Shares }), opts)],
      ['unknown tick', () => buildOrder(intent({ tick: 20_000 as Price }), opts)],
      ['GTD without expiration', () => buildOrder(intent({ orderType: 'GTD' }), opts)],
      ['expiration on GTC', () => buildOrder(intent({ expirationSec: 1 }), opts)],
      ['postOnly on FOK', () => buildOrder(intent({ orderType: 'FOK', postOnly: true }), opts)],
      ['token id with leading zero', () => buildOrder(intent({ tokenId: '0123' }), opts)],
      ['token id beyond uint256', () => buildOrder(intent({ tokenId: (2n ** 256n).toString() }), opts)],
      ['condition id not bytes32', () => buildOrder(intent({ conditionId: '0x12' }), opts)],
      ['bad maker', () => buildOrder(intent(), { ...opts, maker: '0x12' })],
      ['bad checksum', () => buildOrder(intent(), { ...opts, maker: '0x90F8bf6A479f320ead074411a4B0e7944Ea8c9c1' })],
      ['negative salt', () => buildOrder(intent(), { ...opts, salt: -1 })],
      ['timestamp not integer', () => buildOrder(intent(), { ...opts, timestampMs: 1.5 })],
      ['bad signature type', () => buildOrder(intent(), { ...opts, signatureType: 4 as never })],
    ];
    for (const [name, f] of bad) expect(f, name).toThrow(InvariantError);
    expect(
      buildOrder(intent({ orderType: 'GTD', expirationSec: 1_790_000_100, postOnly: true }), opts).makerAmount,
    ).toBe(10_520_000);
  });
});
