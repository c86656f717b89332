// fast-check arbitraries and factories for orders, shared by the signing and auth tests.
import fc from 'fast-check';
import { getAddress, hexlify } from 'ethers';
import type { Price, Shares } from '../../../src/core/money.js';
import { TICKS } from '../../../src/core/tick.js';
import type { OrderIntent } from '../../../src/exchange/signing/order.js';
import type { SignatureType, UnsignedOrder } from '../../../src/exchange/signing/types.js';

/** Two fixed test keys (never used anywhere real). */
export const KEY_A = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
export const KEY_B = '0x8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f';

export const TOKEN = '16040015440196279900485035793550429453516625694844857319147506590755961451627';
export const CONDITION = '0x6bd56627c9b3a3d3b1f8f2a3e1a2a5d1c7b4b1a0d0e1f2a3b4c5d6e7f8091a0d';

const bytes = (n: number): fc.Arbitrary<string> => fc.uint8Array({ minLength: n, maxLength: n }).map((b) => hexlify(b));
export const addressArb = bytes(20).map((h) => getAddress(h));
export const bytes32Arb = bytes(32);
export const uint256Arb = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map((v) => v.toString());
const saltArb = fc.oneof(uint256Arb, fc.maxSafeNat().map(String));

export function orderArb(signer?: string): fc.Arbitrary<UnsignedOrder> {
  return fc.record({
    salt: saltArb,
    maker: addressArb,
    signer: signer === undefined ? addressArb : fc.constant(signer),
    tokenId: fc.oneof(uint256Arb, fc.constant(TOKEN)),
    makerAmount: fc.maxSafeNat(),
    takerAmount: fc.maxSafeNat(),
    side: fc.constantFrom('BUY' as const, 'SELL' as const),
    signatureType: fc.constantFrom<SignatureType>(0, 1, 2),
    timestampMs: fc.integer({ min: 0, max: 2 ** 50 }),
    metadata: fc.oneof(bytes32Arb, fc.constant(`0x${'0'.repeat(64)}`)),
    builder: fc.oneof(bytes32Arb, fc.constant(`0x${'0'.repeat(64)}`)),
    conditionId: bytes32Arb,
    negRisk: fc.boolean(),
  });
}

/** A valid intent: on-tick price inside [tick, 1 − tick], a size of up to 6 decimals and maxShares. */
export function intentArbWith(maxShares: number): fc.Arbitrary<OrderIntent> {
  return fc.constantFrom(...TICKS).chain((tick) =>
    fc.record({
      tokenId: fc.oneof(
        uint256Arb.filter((t) => t !== '0'),
        fc.constant(TOKEN),
      ),
      conditionId: bytes32Arb,
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
      price: fc.integer({ min: 1, max: 1_000_000 / tick - 1 }).map((k) => (k * tick) as Price),
      size: fc.integer({ min: 10_000, max: maxShares * 1_000_000 }).map((s) => s as Shares),
      orderType: fc.constant('GTC' as const),
      tick: fc.constant(tick),
      negRisk: fc.boolean(),
    }),
  );
}

export const intentArb = intentArbWith(5_000_000);

export function intent(overrides: Partial<OrderIntent> = {}): OrderIntent {
  return {
    tokenId: TOKEN,
    conditionId: CONDITION,
    side: 'BUY',
    price: 500_000 as Price,
    size: 21_040_000 as Shares,
    orderType: 'GTC',
    tick: 10_000 as Price,
    negRisk: false,
    ...overrides,
  };
}
