// Domain types of signed orders (protocol.md §3). An UnsignedOrder holds exactly the 11 signed
// EIP-712 fields plus what decides how it is signed and routed but is not signed itself (the
// market's conditionId, and negRisk, which picks the verifying contract). Invariants:
// - addresses are checksummed; tokenId and salt are decimal uint256 strings without leading zeros;
// - makerAmount/takerAmount are safe-integer millionths (6-decimal fixed point, as signed);
// - timestampMs is epoch milliseconds; metadata/builder are 0x + 64 hex (zero by default).
import type { Side } from '../../core/amounts.js';

export type { Side } from '../../core/amounts.js';

/** 0 EOA, 1 proxy wallet, 2 safe. */
export type SignatureType = 0 | 1 | 2;

export type OrderType = 'GTC' | 'GTD' | 'FOK' | 'FAK';

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
  /** 0x + 130 hex: r ‖ s ‖ v with v 27 or 28. */
  readonly signature: string;
  /** The order id: the EIP-712 digest, 0x + 64 hex. */
  readonly id: string;
}
