// Building an unsigned order from an intent (docs/protocol.md §3): amounts through orderAmounts (exact
// integers, sizes truncated to 2 decimals, notional floored), a salt, the timestamp, and the
// signed/unsigned fields laid out as UnsignedOrder. Invariants:
// - an intent from our own code that breaks a rule (off-tick price, size truncating to zero, GTD
//   without expiration, postOnly on FOK/FAK, malformed token or condition) throws InvariantError:
//   it is a bug, and quoting stops (docs/ARCHITECTURE.md §8);
// - the timestamp comes from the caller (who holds the injected Clock); nothing here reads time;
// - salts are safe integers (< 2^53) unless given explicitly, so they survive the polymarket
//   dialect's JSON-number salt exactly.
import { getRandomValues } from 'node:crypto';
import { getAddress } from 'ethers';
import { orderAmounts } from '../../core/amounts.js';
import { InvariantError } from '../../core/errors.js';
import type { Price, Shares } from '../../core/money.js';
import type { Side, OrderType } from '../../core/order.js';
import { isKnownTick } from '../../core/tick.js';
import { isSignatureType } from './account-kind.js';
import { ZERO_BYTES32, type SignatureType, type UnsignedOrder } from './types.js';

export interface OrderIntent {
  tokenId: string;
  conditionId: string;
  side: Side;
  price: Price;
  size: Shares;
  orderType: OrderType;
  /** The market's current tick. */
  tick: Price;
  negRisk: boolean;
  /** GTD only: Unix seconds. */
  expirationSec?: number;
  /** GTC/GTD only. */
  postOnly?: boolean;
}

export interface BuildOrderOptions {
  /** Funder address (the signer's own address for EOA orders). */
  maker: string;
  /** The order's signer field: the key's address, or the deposit wallet (= maker) for type 3 (account-kind.ts orderParties). */
  signer: string;
  signatureType: SignatureType;
  /** Explicit salt (decimal uint256); otherwise drawn from `random`. */
  salt?: string | number | bigint;
  /** Epoch milliseconds, from the caller's Clock. */
  timestampMs: number;
  /** Uniform in [0, 1); defaults to a crypto-strength source. Drives the salt. */
  random?: () => number;
  metadata?: string;
  builder?: string;
}

const UINT256_LIMIT = 2n ** 256n;
const TWO_POW_53 = 2 ** 53;

// Random words drawn from the CSPRNG in blocks: one call per 256 salts instead of one per salt.
const randomWords = new Uint32Array(512);
let randomNext = randomWords.length;

/** Uniform in [0, 1) with 53 random bits from the OS CSPRNG. */
export function cryptoRandom(): number {
  if (randomNext >= randomWords.length) {
    getRandomValues(randomWords);
    randomNext = 0;
  }
  const hi = randomWords[randomNext++]! >>> 5;
  const lo = randomWords[randomNext++]! >>> 6;
  return (hi * 0x4000000 + lo) / TWO_POW_53;
}

/** A random salt in [0, 2^53): an order's uniqueness, representable as a JSON number. */
export function randomSalt(random: () => number = cryptoRandom): string {
  const r = random();
  if (!(r >= 0 && r < 1)) throw new InvariantError(`random source returned ${String(r)}, outside [0, 1)`);
  return decimalOfSafeInteger(Math.floor(r * TWO_POW_53));
}

const TEN_POW_8 = 100_000_000;
const ZEROS_8 = '00000000';

/**
 * String(n) for a safe integer n ≥ 0, from two halves below 10^8 (small integers, whose strings
 * V8 makes fast): the double-to-string path String(n) takes above 2^31 cost most of a salt.
 */
export function decimalOfSafeInteger(n: number): string {
  if (n < TEN_POW_8) return String(n);
  const hi = Math.floor(n / TEN_POW_8);
  const lo = String(n - hi * TEN_POW_8);
  return String(hi) + ZEROS_8.slice(lo.length) + lo;
}

/** Normalises a salt to a decimal uint256 string. */
export function normaliseSalt(salt: string | number | bigint): string {
  let v: bigint;
  if (typeof salt === 'bigint') v = salt;
  else if (typeof salt === 'number') {
    if (!Number.isSafeInteger(salt)) throw new InvariantError(`salt is not a safe integer: ${String(salt)}`);
    v = BigInt(salt);
  } else {
    if (!/^\d{1,78}$/.test(salt)) throw new InvariantError(`salt is not a decimal integer: ${JSON.stringify(salt)}`);
    v = BigInt(salt);
  }
  if (v < 0n || v >= UINT256_LIMIT) throw new InvariantError(`salt outside uint256: ${v.toString()}`);
  return v.toString();
}

const addressCache = new Map<string, string>();

/** Checksums an address, memoised (the same maker/signer is checksummed for every order). */
export function checksummed(address: string, what: string): string {
  const hit = addressCache.get(address);
  if (hit !== undefined) return hit;
  if (typeof address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(address))
    throw new InvariantError(`${what} is not an address: ${JSON.stringify(address)}`);
  let sum: string;
  try {
    sum = getAddress(address);
  } catch {
    throw new InvariantError(`${what} has a bad checksum: ${address}`);
  }
  if (addressCache.size >= 1024) addressCache.clear();
  addressCache.set(address, sum);
  return sum;
}

const goodTokens = new Set<string>();

/** Validates a decimal uint256 token id (memoised: a market maker quotes the same few tokens). A leading zero is refused: ids are canonical. */
export function checkTokenId(tokenId: string, what = 'tokenId'): string {
  if (goodTokens.has(tokenId)) return tokenId;
  if (typeof tokenId !== 'string' || !/^(0|[1-9]\d{0,77})$/.test(tokenId) || BigInt(tokenId) >= UINT256_LIMIT) {
    throw new InvariantError(`${what} is not a canonical decimal uint256: ${JSON.stringify(tokenId)}`);
  }
  if (goodTokens.size >= 4096) goodTokens.clear();
  goodTokens.add(tokenId);
  return tokenId;
}

export function checkBytes32(v: string, what: string): string {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(v))
    throw new InvariantError(`${what} is not 0x + 64 hex: ${JSON.stringify(v)}`);
  return v;
}

/** Checks the unsigned submission options against the order type (docs/protocol.md §4). */
export function checkOrderTypeOptions(
  orderType: OrderType,
  expirationSec: number | undefined,
  postOnly: boolean | undefined,
): void {
  if (orderType === 'GTD') {
    if (expirationSec === undefined || !Number.isSafeInteger(expirationSec) || expirationSec <= 0) {
      throw new InvariantError(`GTD order needs a positive expiration in Unix seconds, got ${String(expirationSec)}`);
    }
  } else if (expirationSec !== undefined) {
    throw new InvariantError(`expiration is only for GTD orders, not ${orderType}`);
  }
  if (postOnly === true && orderType !== 'GTC' && orderType !== 'GTD')
    throw new InvariantError(`postOnly is only for GTC/GTD orders, not ${orderType}`);
}

/** Builds the unsigned order for an intent. */
export function buildOrder(intent: OrderIntent, options: BuildOrderOptions): UnsignedOrder {
  if (!isKnownTick(intent.tick)) throw new InvariantError(`unknown tick ${String(intent.tick)} (millionths)`);
  if (intent.side !== 'BUY' && intent.side !== 'SELL')
    throw new InvariantError(`side must be BUY or SELL, got ${String(intent.side)}`);
  checkOrderTypeOptions(intent.orderType, intent.expirationSec, intent.postOnly);
  const amounts = orderAmounts(intent.side, intent.price, intent.size, intent.tick);
  if (amounts.size === 0) throw new InvariantError(`size ${String(intent.size)} (millionths) truncates to zero shares`);
  if (amounts.makerAmount === 0 || amounts.takerAmount === 0) throw new InvariantError('order amounts round to zero');
  if (!Number.isSafeInteger(options.timestampMs) || options.timestampMs < 0) {
    throw new InvariantError(`timestamp must be epoch milliseconds, got ${String(options.timestampMs)}`);
  }
  if (!isSignatureType(options.signatureType)) {
    throw new InvariantError(`signatureType must be 0, 1, 2 or 3, got ${String(options.signatureType)}`);
  }
  // The deposit wallet signs as itself (account-kind.ts): its order's signer is its maker.
  if (options.signatureType === 3 && options.signer.toLowerCase() !== options.maker.toLowerCase()) {
    throw new InvariantError(
      `a deposit-wallet order (signature type 3) is signed by its maker ${options.maker}, not ${options.signer}`,
    );
  }
  return {
    salt: options.salt === undefined ? randomSalt(options.random) : normaliseSalt(options.salt),
    maker: checksummed(options.maker, 'maker'),
    signer: checksummed(options.signer, 'signer'),
    tokenId: checkTokenId(intent.tokenId),
    makerAmount: amounts.makerAmount,
    takerAmount: amounts.takerAmount,
    side: intent.side,
    signatureType: options.signatureType,
    timestampMs: options.timestampMs,
    metadata: options.metadata === undefined ? ZERO_BYTES32 : checkBytes32(options.metadata, 'metadata'),
    builder: options.builder === undefined ? ZERO_BYTES32 : checkBytes32(options.builder, 'builder'),
    conditionId: checkBytes32(intent.conditionId, 'conditionId'),
    negRisk: intent.negRisk,
  };
}
