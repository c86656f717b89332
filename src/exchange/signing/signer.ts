// Single-threaded order signing: the hand-written EIP-712 digest (eip712.ts) signed with ethers'
// SigningKey (RFC 6979 deterministic ECDSA, low-s, v = 27/28), so the same order always gets the
// same signature, byte for byte what ethers' signTypedData and Polymarket's client produce.
// Invariants:
// - the signer refuses an order whose `signer` field is not its own address (the exchange would
//   reject it, and it means our code mixed up keys);
// - the private key lives only in a private field: printing or serialising a signer shows the
//   address alone.
import { inspect } from 'node:util';
import { computeAddress, SigningKey } from 'ethers';
import { InvariantError } from '../../core/errors.js';
import type { Dialect } from '../dialect.js';
import { parsePrivateKey } from '../auth/credentials.js';
import { depositWalletDigest, wrapDepositWalletSignature } from './deposit-wallet.js';
import { orderDigest } from './eip712.js';
import type { SignedOrder, UnsignedOrder } from './types.js';

export class OrderSigner {
  readonly address: string;
  readonly dialect: Dialect;
  readonly #key: SigningKey;

  /** `privateKey`: 32 bytes of hex (0x optional). */
  constructor(privateKey: string, dialect: Dialect) {
    this.#key = new SigningKey(parsePrivateKey(privateKey));
    this.address = computeAddress(this.#key.publicKey);
    this.dialect = dialect;
  }

  /** Signs one order; its id is the EIP-712 digest. */
  sign(order: UnsignedOrder): SignedOrder {
    this.checkSigner(order);
    const id = orderDigest(order, this.dialect);
    if (order.signatureType === 3) {
      // The deposit wallet: this key (its owner) signs the ERC-7739 wrapper (deposit-wallet.ts).
      const inner = this.#key.sign(depositWalletDigest(order, this.dialect)).serialized;
      return { ...order, signature: wrapDepositWalletSignature(inner, order, this.dialect), id };
    }
    return { ...order, signature: this.#key.sign(id).serialized, id };
  }

  /**
   * Throws unless the order names this key as its signer; a deposit-wallet order (type 3) names the
   * wallet, its maker, instead (the official client skips this check for POLY_1271:
   * clob-client-v2 dist/order-utils/exchangeOrderBuilderV2.js buildOrder).
   */
  checkSigner(order: UnsignedOrder): void {
    if (order.signatureType === 3) {
      if (order.signer !== order.maker)
        throw new InvariantError(`deposit-wallet order signer ${order.signer} is not its maker ${order.maker}`);
      return;
    }
    if (order.signer !== this.address) {
      throw new InvariantError(`order signer ${order.signer} is not the signing key's address ${this.address}`);
    }
  }

  toJSON(): Record<string, string> {
    return { address: this.address, dialect: this.dialect.name };
  }

  [inspect.custom](): string {
    return `OrderSigner(${this.address}, ${this.dialect.name})`;
  }
}
