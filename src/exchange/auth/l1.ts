// L1 authentication (docs/protocol.md §2): the EIP-712 ClobAuth signature that proves control of a
// wallet when creating or deriving API keys, its server-side recovery, and the deterministic key
// derivation the simulator answers GET /auth/derive-api-key with. Invariants:
// - the ClobAuth domain has no verifying contract; the timestamp is signed as a *string* of Unix
//   seconds and the nonce as a uint256, exactly as the public exchange's client signs them;
// - recovery returns the checksummed address only when the signature recovers to the ADDRESS
//   header (and, when asked, the timestamp is fresh);
// - derivation is a pure function of (server secret, address, nonce): the same wallet and nonce
//   always get the same credentials, and different ones get unrelated ones (HMAC-SHA256).
import { createHmac } from 'node:crypto';
import { verifyTypedData, type TypedDataDomain, type TypedDataField } from 'ethers';
import type { Dialect } from '../dialect.js';
import { checksumAddress, makeCredentials, type ApiCredentials } from './credentials.js';
import { AuthError } from './errors.js';
import { headerValue, type IncomingHeaders } from './l2.js';

export const CLOB_AUTH_MESSAGE = 'This message attests that I control the given wallet';

export const CLOB_AUTH_TYPES: Record<string, TypedDataField[]> = {
  ClobAuth: [
    { name: 'address', type: 'address' },
    { name: 'timestamp', type: 'string' },
    { name: 'nonce', type: 'uint256' },
    { name: 'message', type: 'string' },
  ],
};

export function clobAuthDomain(dialect: Dialect): TypedDataDomain {
  return { name: 'ClobAuthDomain', version: '1', chainId: dialect.chainId };
}

/** What an L1 signer must offer: an ethers v6 Wallet does. */
export interface L1Signer {
  readonly address: string;
  signTypedData(
    domain: TypedDataDomain,
    types: Record<string, TypedDataField[]>,
    value: Record<string, unknown>,
  ): Promise<string>;
}

export interface L1HeaderInput {
  dialect: Dialect;
  wallet: L1Signer;
  timestampSec: number;
  nonce: number | bigint;
}

export function l1HeaderNames(dialect: Dialect): {
  address: string;
  signature: string;
  timestamp: string;
  nonce: string;
} {
  const p = dialect.headerPrefix;
  return { address: `${p}ADDRESS`, signature: `${p}SIGNATURE`, timestamp: `${p}TIMESTAMP`, nonce: `${p}NONCE` };
}

function nonceText(nonce: number | bigint | string): string {
  const ok =
    typeof nonce === 'bigint'
      ? nonce >= 0n && nonce < 2n ** 256n
      : typeof nonce === 'number'
        ? Number.isSafeInteger(nonce) && nonce >= 0
        : /^\d{1,78}$/.test(nonce) && BigInt(nonce) < 2n ** 256n;
  if (!ok) throw new AuthError(`L1 nonce must be an unsigned 256-bit integer, got ${String(nonce)}`);
  return BigInt(nonce).toString();
}

/** The four L1 headers: ADDRESS, SIGNATURE (EIP-712 ClobAuth), TIMESTAMP, NONCE. */
export async function buildL1Headers(input: L1HeaderInput): Promise<Record<string, string>> {
  const { dialect, wallet, timestampSec } = input;
  if (!Number.isSafeInteger(timestampSec) || timestampSec < 0)
    throw new AuthError(`L1 timestamp must be whole Unix seconds, got ${String(timestampSec)}`);
  const nonce = nonceText(input.nonce);
  const address = checksumAddress(wallet.address, 'L1 wallet address');
  const signature = await wallet.signTypedData(clobAuthDomain(dialect), CLOB_AUTH_TYPES, {
    address,
    timestamp: String(timestampSec),
    nonce,
    message: CLOB_AUTH_MESSAGE,
  });
  const names = l1HeaderNames(dialect);
  return {
    [names.address]: address,
    [names.signature]: signature,
    [names.timestamp]: String(timestampSec),
    [names.nonce]: nonce,
  };
}

export interface L1RecoverOptions {
  /** When both are given, a timestamp further than maxSkewSec from nowSec is refused. */
  nowSec?: number;
  maxSkewSec?: number;
}

export type L1RecoverResult =
  { ok: true; address: string; nonce: string; timestampSec: number } | { ok: false; reason: string };

/** Verifies L1 headers: recovers the ClobAuth signer and checks it is the ADDRESS header. */
export function recoverL1Address(
  headers: IncomingHeaders,
  dialect: Dialect,
  options: L1RecoverOptions = {},
): L1RecoverResult {
  const names = l1HeaderNames(dialect);
  const address = headerValue(headers, names.address);
  const signature = headerValue(headers, names.signature);
  const timestamp = headerValue(headers, names.timestamp);
  const nonceHeader = headerValue(headers, names.nonce);
  if (address === undefined || address === '') return { ok: false, reason: `missing header ${names.address}` };
  if (signature === undefined || signature === '') return { ok: false, reason: `missing header ${names.signature}` };
  if (timestamp === undefined || timestamp === '') return { ok: false, reason: `missing header ${names.timestamp}` };
  // The public client sends nonce 0 when none is chosen; a missing header means the same.
  const nonce = nonceHeader === undefined || nonceHeader === '' ? '0' : nonceHeader;
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return { ok: false, reason: `${names.address} is not an address` };
  if (!/^\d{1,15}$/.test(timestamp)) return { ok: false, reason: `${names.timestamp} is not Unix seconds` };
  if (!/^\d{1,78}$/.test(nonce) || BigInt(nonce) >= 2n ** 256n)
    return { ok: false, reason: `${names.nonce} is not an unsigned integer` };
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature))
    return { ok: false, reason: `${names.signature} is not a 65-byte hex signature` };
  const ts = Number(timestamp);
  if (
    options.nowSec !== undefined &&
    options.maxSkewSec !== undefined &&
    Math.abs(options.nowSec - ts) > options.maxSkewSec
  ) {
    return { ok: false, reason: `${names.timestamp} outside the permitted skew` };
  }
  let recovered: string;
  try {
    recovered = verifyTypedData(
      clobAuthDomain(dialect),
      CLOB_AUTH_TYPES,
      {
        address: address.toLowerCase(),
        timestamp,
        nonce,
        message: CLOB_AUTH_MESSAGE,
      },
      signature,
    );
  } catch {
    return { ok: false, reason: `${names.signature} is not a valid signature` };
  }
  if (recovered.toLowerCase() !== address.toLowerCase())
    return { ok: false, reason: `${names.signature} was not made by ${names.address}` };
  return { ok: true, address: recovered, nonce: BigInt(nonce).toString(), timestampSec: ts };
}

function hmac(key: string | Uint8Array, label: string, address: string, nonce: string): Buffer {
  return createHmac('sha256', key).update(`oddsmaker/${label}/${address}/${nonce}`, 'utf8').digest();
}

/**
 * The API credentials a server with `serverSecret` issues to `address` for `nonce`: a uuid-form
 * apiKey (version and variant bits set, so strict uuid validators accept it), a standard base64
 * secret of 32 bytes and a 64-hex passphrase, each an HMAC-SHA256 under its own label.
 */
export function deriveApiCredentials(
  serverSecret: string | Uint8Array,
  address: string,
  nonce: number | bigint | string,
): ApiCredentials {
  if (serverSecret.length === 0) throw new AuthError('server secret for API key derivation is empty');
  const addr = checksumAddress(address, 'derivation address').toLowerCase();
  const n = nonceText(nonce);
  const id = hmac(serverSecret, 'api-key', addr, n).subarray(0, 16);
  id[6] = (id[6]! & 0x0f) | 0x40;
  id[8] = (id[8]! & 0x3f) | 0x80;
  const hex = id.toString('hex');
  const apiKey = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  const secret = hmac(serverSecret, 'secret', addr, n).toString('base64');
  const passphrase = hmac(serverSecret, 'passphrase', addr, n).toString('hex');
  return makeCredentials({ apiKey, secret, passphrase }, 'derived credentials');
}
