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

/**
 * The id of order number `k` (from 1) of a run: `0x` + the seed (8 hex digits) + k (56 hex
 * digits). Written into one buffer and read out as one flat string: built with `+`, an id is a
 * tree of several strings, which every record of the order then keeps (about 100 bytes an order
 * more over a run of hundreds of thousands of orders).
 */
export function sequenceOrderId(seedTag: string, k: number): string {
  ID_CHARS.write(seedTag, 2, 8, 'latin1');
  // k ≤ 2^53 − 1: its digits by exact division, from the last; the rest are zeros.
  let rest = k;
  for (let i = 65; i >= 10; i--) {
    const d = rest % 16;
    ID_CHARS[i] = HEX_DIGIT[d] as number;
    rest = (rest - d) / 16;
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
