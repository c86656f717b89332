// Signed orders on the wire (docs/exchange-interface.md §2.1–2.2, docs/protocol.md §3–4): to the submission
// JSON a client sends, and back from it on the simulator's side, plus signer recovery for its
// signature check. Invariants:
// - the dialect's order wire picks the layout. 'interface': keys in the order of the interface's
//   table 2.2, conditionId included, `expiration` (GTD) and `postOnly` (GTC/GTD) only where allowed.
//   'public': exactly the keys, order and JSON types of the official client's orderToJsonV2
//   (src/exchange/wire-public-orders.ts): `deferExec` and `postOnly` always, `expiration` always
//   ("0" = none), no conditionId (it is not signed, and the public exchange is not sent it);
// - salt is a decimal string or a JSON number as Dialect.saltOnWire says (a number must be < 2^53);
//   amounts, tokenId and the millisecond timestamp are decimal strings;
// - parsing accepts both salt forms whatever the dialect ("a server accepts both") and throws a
//   ParseError naming the field path; it never trusts the wire's types;
// - recovery hashes by hand (eip712.ts) and recovers the public key: the digest is the order id.
import { computeAddress, getAddress, SigningKey } from 'ethers';
import { ParseError } from '../../core/errors.js';
import { MoneyError, parseIntegerMicros } from '../../core/money.js';
import type { OrderType } from '../../core/order.js';
import type { WireInterfaceOrderSubmission, WireOrderSubmission, WireSignedOrder } from '../wire.js';
import type { WirePublicOrderSubmission } from '../wire-public-orders.js';
import type { Dialect } from '../dialect.js';
import { orderDigest } from './eip712.js';
import { isSignatureType } from './account-kind.js';
import { checkOrderTypeOptions } from './order.js';
import { ZERO_BYTES32, type SignatureType, type SignedOrder, type UnsignedOrder } from './types.js';

export interface WireSubmissionOptions {
  orderType: OrderType;
  /** The API key the order is placed under (the server checks it owns the key). */
  owner: string;
  dialect: Dialect;
  postOnly?: boolean;
  /** GTD only: Unix seconds. */
  expirationSec?: number;
}

/** The submission object of POST /order (one item of POST /orders), in the dialect's order wire. */
export function toWireSubmission(signed: SignedOrder, options: WireSubmissionOptions): WireOrderSubmission {
  const { orderType, owner, dialect, postOnly, expirationSec } = options;
  checkOrderTypeOptions(orderType, expirationSec, postOnly);
  let salt: string | number = signed.salt;
  if (dialect.saltOnWire === 'number') {
    salt = Number(signed.salt);
    if (!Number.isSafeInteger(salt))
      throw new ParseError(
        'order.salt',
        `salt ${signed.salt} is not representable as a JSON number (dialect ${dialect.name})`,
      );
  }
  if (dialect.orderWire === 'public') return publicSubmission(signed, options, salt);
  const order: WireSignedOrder = {
    tokenId: signed.tokenId,
    conditionId: signed.conditionId,
    maker: signed.maker,
    signer: signed.signer,
    makerAmount: String(signed.makerAmount),
    takerAmount: String(signed.takerAmount),
    side: signed.side,
    metadata: signed.metadata,
    salt,
    signatureType: signed.signatureType,
    signature: signed.signature,
    timestamp: String(signed.timestampMs),
    builder: signed.builder,
  };
  if (expirationSec !== undefined) order.expiration = String(expirationSec);
  const submission: WireInterfaceOrderSubmission = { order, orderType, owner };
  if (postOnly === true) submission.postOnly = true;
  return submission;
}

// Keys, key order and value types of Polymarket/clob-client-v2's orderToJsonV2
// (node_modules/@polymarket/clob-client-v2/dist/types/ordersV2.js, v1.1.0), checked against the
// package itself in test/exchange/client/public-order-bodies.test.ts.
function publicSubmission(
  signed: SignedOrder,
  options: WireSubmissionOptions,
  salt: string | number,
): WirePublicOrderSubmission {
  if (typeof salt !== 'number')
    throw new ParseError(
      'order.salt',
      `the public order wire sends salt as a JSON number (dialect ${options.dialect.name})`,
    );
  return {
    deferExec: false,
    postOnly: options.postOnly === true,
    order: {
      salt,
      maker: signed.maker,
      signer: signed.signer,
      tokenId: signed.tokenId,
      makerAmount: String(signed.makerAmount),
      takerAmount: String(signed.takerAmount),
      side: signed.side,
      signatureType: signed.signatureType,
      timestamp: String(signed.timestampMs),
      expiration: String(options.expirationSec ?? 0),
      metadata: signed.metadata,
      builder: signed.builder,
      signature: signed.signature,
    },
    owner: options.owner,
    orderType: options.orderType,
  };
}

/** A signed order as parsed from the wire: the signed fields, the signature, and the unsigned extras. */
export interface ParsedWireOrder {
  fields: Omit<UnsignedOrder, 'negRisk'>;
  signature: string;
  expirationSec?: number;
}

type Obj = Record<string, unknown>;

function field(o: Obj, name: string, path: string): unknown {
  if (!Object.hasOwn(o, name)) throw new ParseError(`${path}.${name}`, 'missing');
  return o[name];
}

function str(o: Obj, name: string, path: string): string {
  const v = field(o, name, path);
  if (typeof v !== 'string')
    throw new ParseError(`${path}.${name}`, `expected a string, got ${v === null ? 'null' : typeof v}`);
  return v;
}

function match(o: Obj, name: string, path: string, re: RegExp, what: string): string {
  const v = str(o, name, path);
  if (!re.test(v)) throw new ParseError(`${path}.${name}`, `not ${what}: ${JSON.stringify(v.slice(0, 100))}`);
  return v;
}

const UINT256_LIMIT = 2n ** 256n;
const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
const BYTES32_RE = /^0x[0-9a-fA-F]{64}$/;
const UINT_RE = /^(0|[1-9]\d{0,77})$/;

function uint256Text(o: Obj, name: string, path: string): string {
  const v = match(o, name, path, UINT_RE, 'a canonical decimal integer');
  if (BigInt(v) >= UINT256_LIMIT) throw new ParseError(`${path}.${name}`, 'exceeds uint256');
  return v;
}

function amount(o: Obj, name: string, path: string): number {
  try {
    return parseIntegerMicros(str(o, name, path), `${path}.${name}`);
  } catch (err) {
    if (err instanceof MoneyError) throw new ParseError(`${path}.${name}`, err.message);
    throw err;
  }
}

function address(o: Obj, name: string, path: string): string {
  const v = match(o, name, path, ADDRESS_RE, 'an address');
  try {
    // Validates a mixed-case checksum and returns the checksummed form.
    return getAddress(v);
  } catch {
    throw new ParseError(`${path}.${name}`, 'bad address checksum');
  }
}

/**
 * Parses the `order` object of a submission. `path` prefixes error paths (default `order`).
 * Salt: a decimal string or a safe-integer number, in either dialect.
 */
export function parseWireOrder(wire: unknown, _dialect: Dialect, path = 'order'): ParsedWireOrder {
  if (typeof wire !== 'object' || wire === null || Array.isArray(wire))
    throw new ParseError(path, 'expected an object');
  const o = wire as Obj;
  const rawSalt = field(o, 'salt', path);
  let salt: string;
  if (typeof rawSalt === 'number') {
    if (!Number.isSafeInteger(rawSalt) || rawSalt < 0)
      throw new ParseError(`${path}.salt`, `not an unsigned safe integer: ${String(rawSalt)}`);
    salt = String(rawSalt);
  } else {
    salt = uint256Text(o, 'salt', path);
  }
  const side = str(o, 'side', path);
  if (side !== 'BUY' && side !== 'SELL')
    throw new ParseError(`${path}.side`, `expected BUY or SELL, got ${JSON.stringify(side.slice(0, 20))}`);
  const sigType = field(o, 'signatureType', path);
  if (!isSignatureType(sigType))
    throw new ParseError(`${path}.signatureType`, `expected 0, 1, 2 or 3, got ${JSON.stringify(sigType)}`);
  const timestamp = match(o, 'timestamp', path, /^\d{1,16}$/, 'milliseconds');
  const timestampMs = Number(timestamp);
  if (!Number.isSafeInteger(timestampMs)) throw new ParseError(`${path}.timestamp`, 'out of range');
  const fields: Omit<UnsignedOrder, 'negRisk'> = {
    salt,
    maker: address(o, 'maker', path),
    signer: address(o, 'signer', path),
    tokenId: uint256Text(o, 'tokenId', path),
    makerAmount: amount(o, 'makerAmount', path),
    takerAmount: amount(o, 'takerAmount', path),
    side,
    signatureType: sigType as SignatureType,
    timestampMs,
    metadata: match(o, 'metadata', path, BYTES32_RE, '0x + 64 hex'),
    builder: match(o, 'builder', path, BYTES32_RE, '0x + 64 hex'),
    conditionId: match(o, 'conditionId', path, BYTES32_RE, '0x + 64 hex'),
  };
  // A deposit-wallet signature (type 3) is the ERC-7739 wrapper, longer (deposit-wallet.ts).
  const signature =
    sigType === 3
      ? match(o, 'signature', path, /^0x(?:[0-9a-fA-F]{2}){65,2048}$/, '0x + hex bytes')
      : match(o, 'signature', path, /^0x[0-9a-fA-F]{130}$/, '0x + 130 hex');
  const parsed: ParsedWireOrder = { fields, signature };
  if (Object.hasOwn(o, 'expiration') && o['expiration'] !== undefined) {
    const exp = o['expiration'];
    const text = typeof exp === 'number' ? String(exp) : exp;
    if (typeof text !== 'string' || !/^\d{1,15}$/.test(text))
      throw new ParseError(`${path}.expiration`, 'not Unix seconds');
    // "0" is the public client's spelling of "no expiration".
    if (text !== '0') parsed.expirationSec = Number(text);
  }
  return parsed;
}

/** The address whose key made `signature` over `digest` (checksummed). */
export function recoverSigner(digest: string, signature: string): string {
  try {
    return computeAddress(SigningKey.recoverPublicKey(digest, signature));
  } catch {
    throw new ParseError('order.signature', 'not a valid secp256k1 signature');
  }
}

/** The order id (EIP-712 digest) of a parsed wire order in a market with the given neg-risk flag. */
export function wireOrderId(parsed: ParsedWireOrder, dialect: Dialect, negRisk: boolean): string {
  return orderDigest({ ...parsed.fields, negRisk }, dialect);
}

/**
 * Recovers who signed a wire order (for the simulator's signature check; compare with its
 * `signer` field). `negRisk` is the market's flag: it picks the verifying contract.
 */
export function recoverOrderSigner(wireOrder: unknown, dialect: Dialect, negRisk: boolean): string {
  // conditionId is not signed and the public order wire leaves it out: a stand-in for parsing
  // only, which never leaves this function (the digest does not depend on it).
  const o =
    typeof wireOrder === 'object' &&
    wireOrder !== null &&
    !Array.isArray(wireOrder) &&
    !Object.hasOwn(wireOrder, 'conditionId')
      ? { ...wireOrder, conditionId: ZERO_BYTES32 }
      : wireOrder;
  const parsed = parseWireOrder(o, dialect);
  return recoverSigner(wireOrderId(parsed, dialect, negRisk), parsed.signature);
}
