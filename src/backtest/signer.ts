// The backtest's order "signer": every order gets its real id (the EIP-712 digest, as live), but
// no ECDSA signature. A backtest's venue is the paper venue, which verifies no signature (it has
// no account to check against), so the elliptic-curve work, about a third of the order path's
// cost, would buy nothing; the address is derived once from the seeded key, so orders still name
// a consistent maker and signer. Never used where a request can reach an exchange.
import type { Config } from '../config/schema.js';
import { dialectOfConfig } from '../config/dialect.js';
import { orderDigest, OrderSigner, type SignedOrder, type UnsignedOrder } from '../exchange/signing/index.js';
import type { BatchSigner } from '../execution/order-manager.js';

/**
 * 65 zero bytes: well-formed on the wire (the paper gateway parses orders as the exchange would)
 * and valid for no key (r = s = 0), so such an order could never be accepted by a real exchange.
 */
const UNSIGNED = `0x${'00'.repeat(65)}`;

/** Ids as live (digests under the config's dialect), no signature; `privateKey` names the address. */
export function digestOnlySigner(
  privateKey: string,
  config: Readonly<Config>,
): BatchSigner & { signNow(os: readonly UnsignedOrder[]): SignedOrder[] } {
  const dialect = dialectOfConfig(config);
  const keyed = new OrderSigner(privateKey, dialect);
  const one = (o: UnsignedOrder): SignedOrder => {
    keyed.checkSigner(o);
    return { ...o, signature: UNSIGNED, id: orderDigest(o, dialect) };
  };
  return {
    address: keyed.address,
    signBatch: (os: readonly UnsignedOrder[]): Promise<SignedOrder[]> => Promise.resolve(os.map(one)),
    signNow: (os: readonly UnsignedOrder[]): SignedOrder[] => os.map(one),
  };
}
