// Domain types of signed orders (docs/protocol.md §3). An UnsignedOrder holds exactly the 11 signed
// EIP-712 fields plus what decides how it is signed and routed but is not signed itself (the
// market's conditionId, and negRisk, which picks the verifying contract). Invariants:
// - addresses are checksummed; tokenId and salt are decimal uint256 strings without leading zeros;
// - makerAmount/takerAmount are safe-integer millionths (6-decimal fixed point, as signed);
// - timestampMs is epoch milliseconds; metadata/builder are 0x + 64 hex (zero by default).
import type { Side } from '../../core/order.js';

/** 0 EOA, 1 proxy wallet, 2 safe, 3 deposit wallet (POLY_1271; account-kind.ts). */
export type SignatureType = 0 | 1 | 2 | 3;

export const ZERO_BYTES32 = `0x${'0'.repeat(64)}`;

export interface UnsignedOrder {
  readonly salt: string;
  readonly maker: string;
  readonly signer: string;
  readonly tokenId: string;
  readonly makerAmount: number;
  readonly takerAmount: number;
  readonly side: Side;
  readonly signatureType: SignatureType;
  readonly timestampMs: number;
  readonly metadata: string;
  readonly builder: string;
  /** Travels in the JSON, unsigned; the server checks it names the market of tokenId. */
  readonly conditionId: string;
  /** Neg-risk markets sign against the dialect's negRiskVerifyingContract. */
  readonly negRisk: boolean;
}

export interface SignedOrder extends UnsignedOrder {
  /** 0x + 130 hex: r ‖ s ‖ v with v 27 or 28; a deposit-wallet order's is wrapped (deposit-wallet.ts). */
  readonly signature: string;
  /** The order id: the EIP-712 digest, 0x + 64 hex. */
  readonly id: string;
}
