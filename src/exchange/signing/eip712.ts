// The EIP-712 hash of an order, written out by hand (docs/protocol.md §3): ethers' TypedDataEncoder
// costs ~0.3 ms an order, this ~20 µs. structHash = keccak256(typeHash ‖ 11 words), digest =
// keccak256(0x1901 ‖ domainSeparator ‖ structHash); the digest is the order id. Invariants:
// - the type hash is a constant and the domain separators are computed once per (dialect object,
//   negRisk); both are checked equal to ethers' TypedDataEncoder in the tests;
// - every word is written big-endian into a fixed 384-byte layout; the values were validated when
//   the order was built or parsed (see order.ts / wire-order.ts), and out-of-range numbers throw;
// - the encoding is also what the worker pool receives: ORDER_STRUCT_BYTES bytes per order.
import { getBytes, keccak256, toUtf8Bytes, type TypedDataDomain, type TypedDataField } from 'ethers';
import { InvariantError } from '../../core/errors.js';
import type { Dialect } from '../dialect.js';
import type { UnsignedOrder } from './types.js';

export const ORDER_TYPE_STRING =
  'Order(uint256 salt,address maker,address signer,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,uint8 side,uint8 signatureType,uint256 timestamp,bytes32 metadata,bytes32 builder)';

/** keccak256(ORDER_TYPE_STRING), precomputed. */
export const ORDER_TYPE_HASH = '0xbb86318a2138f5fa8ae32fbe8e659f8fcf13cc6ae4014a707893055433818589';

/** keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"). */
export const DOMAIN_TYPE_HASH = '0x8b73c3c69bb8fe3d512ecc4cf759cc79239f7b179b0ffacaa9a75d522b39400f';

/** The same struct in ethers' form (cross-checks, and signers that go through signTypedData). */
export const ORDER_EIP712_TYPES: Record<string, TypedDataField[]> = {
  Order: [
    { name: 'salt', type: 'uint256' },
    { name: 'maker', type: 'address' },
    { name: 'signer', type: 'address' },
    { name: 'tokenId', type: 'uint256' },
    { name: 'makerAmount', type: 'uint256' },
    { name: 'takerAmount', type: 'uint256' },
    { name: 'side', type: 'uint8' },
    { name: 'signatureType', type: 'uint8' },
    { name: 'timestamp', type: 'uint256' },
    { name: 'metadata', type: 'bytes32' },
    { name: 'builder', type: 'bytes32' },
  ],
};

/** Bytes of one encoded order struct: the type hash and 11 words. */
export const ORDER_STRUCT_BYTES = 12 * 32;

const TYPE_HASH_BYTES = getBytes(ORDER_TYPE_HASH);
const UINT256_LIMIT = 2n ** 256n;

export function orderDomain(dialect: Dialect, negRisk: boolean): TypedDataDomain {
  return {
    name: dialect.exchangeName,
    version: dialect.exchangeVersion,
    chainId: dialect.chainId,
    verifyingContract: negRisk ? dialect.negRiskVerifyingContract : dialect.verifyingContract,
  };
}

const domainCache = new WeakMap<Dialect, readonly [string, string]>();

/** The EIP-712 domain separator of the order domain (cached per dialect object). */
export function domainSeparator(dialect: Dialect, negRisk: boolean): string {
  let pair = domainCache.get(dialect);
  if (pair === undefined) {
    pair = [computeDomainSeparator(dialect, false), computeDomainSeparator(dialect, true)];
    domainCache.set(dialect, pair);
  }
  return negRisk ? pair[1] : pair[0];
}

function computeDomainSeparator(dialect: Dialect, negRisk: boolean): string {
  const buf = new Uint8Array(5 * 32);
  buf.set(getBytes(DOMAIN_TYPE_HASH), 0);
  buf.set(getBytes(keccak256(toUtf8Bytes(dialect.exchangeName))), 32);
  buf.set(getBytes(keccak256(toUtf8Bytes(dialect.exchangeVersion))), 64);
  writeUint(buf, 96, dialect.chainId, 'chainId');
  writeHex(
    buf,
    128 + 12,
    negRisk ? dialect.negRiskVerifyingContract : dialect.verifyingContract,
    20,
    'verifyingContract',
  );
  return keccak256(buf);
}

// --- word writers -----------------------------------------------------------------------------

const HEX_VALUES = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 10; i++) t[48 + i] = i;
  for (let i = 0; i < 6; i++) {
    t[65 + i] = 10 + i;
    t[97 + i] = 10 + i;
  }
  return t;
})();

/** Writes `bytes` bytes of a 0x-hex string at `offset`. */
function writeHex(out: Uint8Array, offset: number, hex: string, bytes: number, what: string): void {
  if (hex.length !== 2 + 2 * bytes || hex.charCodeAt(0) !== 48 || (hex.charCodeAt(1) | 32) !== 120) {
    throw new InvariantError(`${what} is not 0x + ${2 * bytes} hex: ${JSON.stringify(hex)}`);
  }
  for (let i = 0; i < bytes; i++) {
    const hi = HEX_VALUES[hex.charCodeAt(2 + 2 * i) & 127] ?? -1;
    const lo = HEX_VALUES[hex.charCodeAt(3 + 2 * i) & 127] ?? -1;
    if (hi < 0 || lo < 0 || hex.charCodeAt(2 + 2 * i) > 127 || hex.charCodeAt(3 + 2 * i) > 127) {
      throw new InvariantError(`${what} is not hex: ${JSON.stringify(hex)}`);
    }
    out[offset + i] = (hi << 4) | lo;
  }
}

/** Writes a non-negative safe integer as a 32-byte big-endian word (the word must be zeroed). */
function writeUint(out: Uint8Array, offset: number, v: number, what: string): void {
  if (!Number.isSafeInteger(v) || v < 0)
    throw new InvariantError(`${what} is not an unsigned safe integer: ${String(v)}`);
  let hi = Math.floor(v / 0x1_0000_0000);
  let lo = v >>> 0;
  for (let i = 31; i >= 28; i--) {
    out[offset + i] = lo & 0xff;
    lo >>>= 8;
  }
  for (let i = 27; i >= 24; i--) {
    out[offset + i] = hi & 0xff;
    hi >>>= 8;
  }
}

const bigWordCache = new Map<string, Uint8Array>();
const BIG_WORD_CACHE_MAX = 4096;

/**
 * Writes a decimal uint256 string. Short values go through number arithmetic; long ones (token
 * ids are ~77 digits) through bigint, memoised because a market maker signs the same few tokens.
 */
function writeDecimal(out: Uint8Array, offset: number, text: string, what: string): void {
  if (text.length <= 15 && /^\d+$/.test(text)) {
    writeUint(out, offset, Number(text), what);
    return;
  }
  let word = bigWordCache.get(text);
  if (word === undefined) {
    if (!/^\d{1,78}$/.test(text)) throw new InvariantError(`${what} is not a decimal integer: ${JSON.stringify(text)}`);
    const v = BigInt(text);
    if (v >= UINT256_LIMIT) throw new InvariantError(`${what} exceeds uint256: ${text}`);
    word = getBytes(`0x${v.toString(16).padStart(64, '0')}`);
    if (bigWordCache.size >= BIG_WORD_CACHE_MAX) bigWordCache.clear();
    bigWordCache.set(text, word);
  }
  out.set(word, offset);
}

/**
 * Writes the 384-byte struct encoding of `order` into `out` at `offset` (typeHash ‖ salt ‖ maker ‖
 * signer ‖ tokenId ‖ makerAmount ‖ takerAmount ‖ side ‖ signatureType ‖ timestamp ‖ metadata ‖
 * builder). The region is zeroed first, so a reused buffer is safe.
 */
export function encodeOrderStruct(
  order: UnsignedOrder,
  out: Uint8Array = new Uint8Array(ORDER_STRUCT_BYTES),
  offset = 0,
): Uint8Array {
  out.fill(0, offset, offset + ORDER_STRUCT_BYTES);
  out.set(TYPE_HASH_BYTES, offset);
  writeDecimal(out, offset + 32, order.salt, 'salt');
  writeHex(out, offset + 64 + 12, order.maker, 20, 'maker');
  writeHex(out, offset + 96 + 12, order.signer, 20, 'signer');
  writeDecimal(out, offset + 128, order.tokenId, 'tokenId');
  writeUint(out, offset + 160, order.makerAmount, 'makerAmount');
  writeUint(out, offset + 192, order.takerAmount, 'takerAmount');
  out[offset + 224 + 31] = order.side === 'BUY' ? 0 : 1;
  out[offset + 256 + 31] = order.signatureType;
  writeUint(out, offset + 288, order.timestampMs, 'timestamp');
  writeHex(out, offset + 320, order.metadata, 32, 'metadata');
  writeHex(out, offset + 352, order.builder, 32, 'builder');
  return out;
}

/** hashStruct(order) as 0x + 64 hex. */
export function orderStructHash(order: UnsignedOrder): string {
  return keccak256(encodeOrderStruct(order));
}

const digestBuf = new Uint8Array(66);
digestBuf[0] = 0x19;
digestBuf[1] = 0x01;

/** keccak256(0x1901 ‖ domainSeparator ‖ structHash). */
export function digestOf(domainSep: string, structHash: string): string {
  writeHex(digestBuf, 2, domainSep, 32, 'domain separator');
  writeHex(digestBuf, 34, structHash, 32, 'struct hash');
  return keccak256(digestBuf);
}

/** The EIP-712 digest of an order: what is signed, and the order id (0x + 64 hex). */
export function orderDigest(order: UnsignedOrder, dialect: Dialect): string {
  return digestOf(domainSeparator(dialect, order.negRisk), orderStructHash(order));
}

/** The order's message in ethers' TypedDataEncoder form (for cross-checks and generic signers). */
export function orderTypedMessage(order: UnsignedOrder): Record<string, string | number> {
  return {
    salt: order.salt,
    maker: order.maker,
    signer: order.signer,
    tokenId: order.tokenId,
    makerAmount: String(order.makerAmount),
    takerAmount: String(order.takerAmount),
    side: order.side === 'BUY' ? 0 : 1,
    signatureType: order.signatureType,
    timestamp: String(order.timestampMs),
    metadata: order.metadata,
    builder: order.builder,
  };
}
