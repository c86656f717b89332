// Account kinds (signature types) and who makes and who signs an order of each kind. Sources:
// - the kinds: @polymarket/clob-client-v2 dist/order-utils/model/signatureTypeV2.d.ts (v1.1.0):
//   0 EOA, 1 POLY_PROXY, 2 POLY_GNOSIS_SAFE, 3 POLY_1271 (the deposit wallet: an ERC-1271
//   smart-contract signature);
// - maker and signer: clob-client-v2 dist/order-builder/helpers/createOrder.js: maker = the funder
//   address when one is given, else the key's address; signer = the maker for POLY_1271 (the
//   contract wallet signs, through its owner key), else the key's address;
// - "a funder set and different from the key" for 1/2/3 and "no funder, or the key's own address"
//   for EOA: the exchange refuses an EOA order whose maker is not its signer, and a proxy, safe or
//   deposit-wallet account holds its funds at a contract address that is never the key's.
// Invariants: pure functions of their arguments; addresses compared case-insensitively, returned
// as given.
import type { SignatureType } from './types.js';

export const SIGNATURE_TYPES: readonly SignatureType[] = Object.freeze([0, 1, 2, 3]);

/** The official client's names of the kinds (SignatureTypeV2). */
export const SIGNATURE_TYPE_NAMES: Readonly<Record<SignatureType, string>> = Object.freeze({
  0: 'EOA',
  1: 'POLY_PROXY',
  2: 'POLY_GNOSIS_SAFE',
  3: 'POLY_1271',
});

export function isSignatureType(v: unknown): v is SignatureType {
  return v === 0 || v === 1 || v === 2 || v === 3;
}

export interface OrderParties {
  /** The address whose funds the order trades (the order's `maker`). */
  readonly maker: string;
  /** The order's `signer` field: the key's address, or the deposit wallet itself (POLY_1271). */
  readonly signer: string;
}

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** Maker and signer of an order of `kind` signed by `keyAddress`, as the official client sets them. */
export function orderParties(kind: SignatureType, keyAddress: string, funder?: string): OrderParties {
  const maker = funder ?? keyAddress;
  return { maker, signer: kind === 3 ? maker : keyAddress };
}

/**
 * What is wrong with (kind, key address, funder), or null: EOA wants no funder (or the key's own
 * address); proxy, safe and deposit wallet want a funder that is not the key's address.
 */
export function accountKindProblem(kind: SignatureType, keyAddress: string, funder?: string): string | null {
  const name = `signature type ${kind} (${SIGNATURE_TYPE_NAMES[kind]})`;
  if (kind === 0) {
    if (funder !== undefined && !same(funder, keyAddress))
      return `${name} trades the key's own address, but exchange.funder is ${funder}, not ${keyAddress}`;
    return null;
  }
  if (funder === undefined) return `${name} trades from a wallet contract, but exchange.funder is not set`;
  if (same(funder, keyAddress))
    return `${name} trades from a wallet contract, but exchange.funder is the key's own address ${keyAddress}`;
  return null;
}
