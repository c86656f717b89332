// The hand-written EIP-712 order hash against ethers' TypedDataEncoder: type hash, domain
// separators per dialect, struct hash and digest for random orders; buffer reuse; range checks.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { id, TypedDataEncoder } from 'ethers';
import { InvariantError } from '../../../src/core/errors.js';
import { dialectFromConfig, DIALECTS } from '../../../src/exchange/dialect.js';
import {
  DOMAIN_TYPE_HASH,
  domainSeparator,
  encodeOrderStruct,
  ORDER_EIP712_TYPES,
  ORDER_STRUCT_BYTES,
  ORDER_TYPE_HASH,
  ORDER_TYPE_STRING,
  orderDigest,
  orderDomain,
  orderStructHash,
  orderTypedMessage,
} from '../../../src/exchange/signing/eip712.js';
import { orderArb } from './arbitraries.js';

const encoder = TypedDataEncoder.from(ORDER_EIP712_TYPES);
const dialects = [
  DIALECTS.spec,
  DIALECTS.polymarket,
  dialectFromConfig('spec', { chainId: 5, verifyingContract: '0x1111111111111111111111111111111111111111' }),
];

describe('EIP-712 order hashing by hand', () => {
  it('uses the type string and type hash ethers derives from the struct', () => {
    expect(encoder.encodeType('Order')).toBe(ORDER_TYPE_STRING);
    expect(id(ORDER_TYPE_STRING)).toBe(ORDER_TYPE_HASH);
    expect(id('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)')).toBe(
      DOMAIN_TYPE_HASH,
    );
  });

  it('precomputes the domain separators ethers computes, per dialect and neg-risk flag', () => {
    for (const d of dialects) {
      for (const negRisk of [false, true]) {
        expect(domainSeparator(d, negRisk)).toBe(TypedDataEncoder.hashDomain(orderDomain(d, negRisk)));
      }
      expect(domainSeparator(d, false)).not.toBe(domainSeparator(d, true));
    }
  });

  it('struct hash and digest equal TypedDataEncoder for random orders', () => {
    fc.assert(
      fc.property(orderArb(), fc.constantFrom(...dialects), (order, dialect) => {
        const message = orderTypedMessage(order);
        expect(orderStructHash(order)).toBe(encoder.hashStruct('Order', message));
        expect(orderDigest(order, dialect)).toBe(
          TypedDataEncoder.hash(orderDomain(dialect, order.negRisk), ORDER_EIP712_TYPES, message),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('encodes into a reused, dirty buffer at an offset without leaking old bytes', () => {
    fc.assert(
      fc.property(orderArb(), orderArb(), (a, b) => {
        const buf = new Uint8Array(ORDER_STRUCT_BYTES * 2).fill(0xff);
        encodeOrderStruct(a, buf, ORDER_STRUCT_BYTES);
        encodeOrderStruct(b, buf, ORDER_STRUCT_BYTES);
        expect(buf.subarray(ORDER_STRUCT_BYTES)).toEqual(encodeOrderStruct(b));
        expect(buf.subarray(0, ORDER_STRUCT_BYTES).every((x) => x === 0xff)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('refuses values that do not fit their words', () => {
    const base = fc.sample(orderArb(), { numRuns: 1, seed: 7 })[0]!;
    expect(() => orderStructHash({ ...base, makerAmount: -1 })).toThrow(InvariantError);
    expect(() => orderStructHash({ ...base, takerAmount: 2 ** 53 })).toThrow(InvariantError);
    expect(() => orderStructHash({ ...base, timestampMs: 1.5 })).toThrow(InvariantError);
    expect(() => orderStructHash({ ...base, salt: (2n ** 256n).toString() })).toThrow(/uint256/);
    expect(() => orderStructHash({ ...base, tokenId: '12ab' })).toThrow(/decimal/);
    expect(() => orderStructHash({ ...base, maker: '0x1234' })).toThrow(/maker/);
    expect(() => orderStructHash({ ...base, metadata: `0x${'g'.repeat(64)}` })).toThrow(/metadata/);
  });
});
