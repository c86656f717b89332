// The backtest's order "signers": no ECDSA signature (a backtest's venue verifies none, and the
// elliptic-curve work would buy nothing); the address is derived once from the seeded key, so
// orders still name a consistent maker and signer. Never used where a request can reach an
// exchange. Two kinds of id:
// - digestOnlySigner: the real id (the EIP-712 digest under the config's dialect), for orders that
//   pass an exchange-shaped gateway which derives the id from the order itself (the paper gateway
//   answers with the digest, and the order manager checks the answer names our id);
// - sequenceIdSigner: the replay's own orders, which reach the venue straight from the executor and
//   are never sent anywhere: a run-unique, deterministic id (the seed's tag and the order's
//   number, as 32 bytes of hex), at no hashing cost (two Keccak passes an order were the largest
//   single cost of a replay's order path).
import type { Config } from '../config/schema.js';
import { InvariantError } from '../core/errors.js';
import { dialectOfConfig } from '../config/dialect.js';
import { orderDigest, OrderSigner, type SignedOrder, type UnsignedOrder } from '../exchange/signing/index.js';
import type { BatchSigner } from '../execution/order-manager.js';

/**
 * 65 zero bytes: well-formed on the wire (the paper gateway parses orders as the exchange would)
 * and valid for no key (r = s = 0), so such an order could never be accepted by a real exchange.
 */
const UNSIGNED = `0x${'00'.repeat(65)}`;

export type BacktestSigner = BatchSigner & { signNow(os: readonly UnsignedOrder[]): SignedOrder[] };

function signerOf(privateKey: string, config: Readonly<Config>, idOf: (o: UnsignedOrder) => string): BacktestSigner {
  const keyed = new OrderSigner(privateKey, dialectOfConfig(config));
  const one = (o: UnsignedOrder): SignedOrder => {
    keyed.checkSigner(o);
    // Named fields, not a spread of the order: a replay signs an order every few cycles.
    return {
      salt: o.salt,
      maker: o.maker,
      signer: o.signer,
      tokenId: o.tokenId,
      makerAmount: o.makerAmount,
      takerAmount: o.takerAmount,
      side: o.side,
      signatureType: o.signatureType,
      timestampMs: o.timestampMs,
      metadata: o.metadata,
      builder: o.builder,
      conditionId: o.conditionId,
      negRisk: o.negRisk,
      signature: UNSIGNED,
      id: idOf(o),
    };
  };
  return {
    address: keyed.address,
    signBatch: (os: readonly UnsignedOrder[]): Promise<SignedOrder[]> => Promise.resolve(os.map(one)),
    signNow: (os: readonly UnsignedOrder[]): SignedOrder[] => os.map(one),
  };
}

/** Ids as live (digests under the config's dialect), no signature; `privateKey` names the address. */
export function digestOnlySigner(privateKey: string, config: Readonly<Config>): BacktestSigner {
  const dialect = dialectOfConfig(config);
  return signerOf(privateKey, config, (o) => orderDigest(o, dialect));
}

/** The hex digits' character codes. */
const HEX_DIGIT = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
/** An id's characters, written in place (ids are made one at a time, synchronously). */
const ID_CHARS = Buffer.alloc(66);
ID_CHARS.write('0x', 0, 'latin1');
// k < 2^53 < 16^14: the 42 digits before its last 14 are always zeros, written once.
ID_CHARS.fill(HEX_DIGIT[0] as number, 10, 52);
/** 2^28: k in two halves of 7 hex digits, each a small integer (bit operations, no float division). */
const HALF = 268_435_456;

/**
 * The id of order number `k` (from 1) of a run: `0x` + the seed (8 hex digits) + k (56 hex
 * digits). Written into one buffer and read out as one flat string: built with `+`, an id is a
 * tree of several strings, which every record of the order then keeps (about 100 bytes an order
 * more over a run of hundreds of thousands of orders).
 */
export function sequenceOrderId(seedTag: string, k: number): string {
  if (!Number.isSafeInteger(k) || k < 0) throw new InvariantError(`order number is not a safe integer: ${String(k)}`);
  ID_CHARS.write(seedTag, 2, 8, 'latin1');
  let lo = k % HALF;
  let hi = (k - lo) / HALF;
  for (let i = 65; i >= 59; i--) {
    ID_CHARS[i] = HEX_DIGIT[lo & 15] as number;
    lo >>>= 4;
  }
  for (let i = 58; i >= 52; i--) {
    ID_CHARS[i] = HEX_DIGIT[hi & 15] as number;
    hi >>>= 4;
  }
  return ID_CHARS.toString('latin1', 0, 66);
}

/** The seed as sequenceOrderId's tag: 8 hex digits. */
export function seedTag(seed: number): string {
  return (seed >>> 0).toString(16).padStart(8, '0');
}

/** Ids sequenceOrderId(seed, 1), (seed, 2), …; no signature. */
export function sequenceIdSigner(privateKey: string, config: Readonly<Config>, seed: number): BacktestSigner {
  const tag = seedTag(seed);
  let n = 0;
  return signerOf(privateKey, config, () => sequenceOrderId(tag, ++n));
}
