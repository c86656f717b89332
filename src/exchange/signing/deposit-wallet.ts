// The deposit wallet's order signature (signature type 3, POLY_1271): an ERC-7739 nested typed-data
// signature that the wallet contract checks through ERC-1271. Source: @polymarket/clob-client-v2
// dist/order-utils/exchangeOrderBuilderV2.js (v1.1.0), buildOrderSignature's POLY_1271 branch:
// - the owner key signs the EIP-712 struct TypedDataSign(Order contents, string name, string
//   version, uint256 chainId, address verifyingContract, bytes32 salt) in the *exchange's* domain,
//   with name "DepositWallet", version "1", the chain id, verifyingContract = the wallet (the
//   order's signer) and a zero salt;
// - the signature sent is innerSig(65) ‖ appDomainSeparator(32) ‖ contentsHash(32) ‖ the Order
//   type string (186 bytes) ‖ its length as 2 bytes: 317 bytes, 0x + 634 hex;
// - the order id is unchanged: the order's own EIP-712 digest.
// Checking it (the simulator) is what ERC-7739's nested-EIP-712 path does: the appended domain
// separator and contents hash must be the order's (so keccak(0x1901 ‖ sep ‖ contents) is the
// order hash the exchange asks about), the type string the Order's, and the inner signature must
// recover to the wallet's owner over the TypedDataSign digest.
// Invariants: hashing by hand, like eip712.ts; the test checks it byte for byte against the
// official builder; nothing here reads time or keys.
import { concat, getBytes, hexlify, keccak256, toUtf8Bytes, zeroPadValue, toBeHex } from 'ethers';
import type { Dialect } from '../dialect.js';
import { domainSeparator, orderStructHash, ORDER_TYPE_STRING } from './eip712.js';
import type { UnsignedOrder } from './types.js';

export const DEPOSIT_WALLET_NAME = 'DepositWallet';
export const DEPOSIT_WALLET_VERSION = '1';

/** keccak256 of the TypedDataSign type string followed by the Order type it nests. */
export const TYPED_DATA_SIGN_TYPE_HASH = keccak256(
  toUtf8Bytes(
    `TypedDataSign(Order contents,string name,string version,uint256 chainId,address verifyingContract,bytes32 salt)${ORDER_TYPE_STRING}`,
  ),
);

const NAME_HASH = keccak256(toUtf8Bytes(DEPOSIT_WALLET_NAME));
const VERSION_HASH = keccak256(toUtf8Bytes(DEPOSIT_WALLET_VERSION));
const ZERO32 = `0x${'0'.repeat(64)}`;
const TYPE_BYTES = toUtf8Bytes(ORDER_TYPE_STRING);
const TYPE_HEX = hexlify(TYPE_BYTES);
const LEN_HEX = TYPE_BYTES.length.toString(16).padStart(4, '0');

/** Bytes of the wrapped signature: 65 + 32 + 32 + 186 + 2. */
export const DEPOSIT_WALLET_SIGNATURE_BYTES = 65 + 32 + 32 + TYPE_BYTES.length + 2;

/** The digest the owner key signs for a deposit-wallet order (its `signer` is the wallet). */
export function depositWalletDigest(order: UnsignedOrder, dialect: Dialect): string {
  const structHash = keccak256(
    concat([
      TYPED_DATA_SIGN_TYPE_HASH,
      orderStructHash(order),
      NAME_HASH,
      VERSION_HASH,
      zeroPadValue(toBeHex(dialect.chainId), 32),
      zeroPadValue(order.signer, 32),
      ZERO32,
    ]),
  );
  return keccak256(concat(['0x1901', domainSeparator(dialect, order.negRisk), structHash]));
}

/** The signature sent for a deposit-wallet order, from the owner's 65-byte signature. */
export function wrapDepositWalletSignature(innerSig: string, order: UnsignedOrder, dialect: Dialect): string {
  return `0x${innerSig.slice(2)}${domainSeparator(dialect, order.negRisk).slice(2)}${orderStructHash(order).slice(2)}${TYPE_HEX.slice(2)}${LEN_HEX}`;
}

export interface UnwrappedSignature {
  readonly inner: string;
  readonly appDomainSeparator: string;
  readonly contentsHash: string;
  readonly contentsType: string;
}

/** Splits a wrapped signature (0x + hex); null when its layout is not ERC-7739's. */
export function unwrapDepositWalletSignature(signature: string): UnwrappedSignature | null {
  if (!/^0x(?:[0-9a-fA-F]{2})+$/.test(signature)) return null;
  const b = getBytes(signature);
  if (b.length < 65 + 64 + 2) return null;
  const typeLen = (b[b.length - 2]! << 8) | b[b.length - 1]!;
  if (b.length !== 65 + 64 + typeLen + 2) return null;
  let contentsType: string;
  try {
    contentsType = new TextDecoder('utf-8', { fatal: true }).decode(b.subarray(129, 129 + typeLen));
  } catch {
    return null;
  }
  return {
    inner: hexlify(b.subarray(0, 65)),
    appDomainSeparator: hexlify(b.subarray(65, 97)),
    contentsHash: hexlify(b.subarray(97, 129)),
    contentsType,
  };
}

/**
 * Why a wrapped signature does not belong to `order` (its appended separator, contents hash or
 * type string differ from the order's), or null. The inner signature is checked by the caller.
 */
export function depositWalletWrapProblem(w: UnwrappedSignature, order: UnsignedOrder, dialect: Dialect): string | null {
  if (w.appDomainSeparator.toLowerCase() !== domainSeparator(dialect, order.negRisk).toLowerCase())
    return 'the signature names another exchange domain';
  if (w.contentsHash.toLowerCase() !== orderStructHash(order).toLowerCase()) return 'the signature wraps another order';
  if (w.contentsType !== ORDER_TYPE_STRING) return 'the signature wraps another type';
  return null;
}
