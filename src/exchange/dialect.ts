// Dialects of the exchange protocol (docs/protocol.md, table at the top). Every difference between the
// simulator's `spec` dialect and the public exchange's `polymarket` dialect is one field of the
// Dialect object below; code branches on these values, never on the dialect's name. Invariants:
// - dialects are frozen: an override builds a new object (so caches keyed by dialect identity,
//   such as the EIP-712 domain separators, never go stale);
// - contract addresses are held checksummed, chain ids are positive safe integers;
// - an unknown dialect name is a configuration error naming the value (CLI exit 2).
import { getAddress } from 'ethers';
import { OddsmakerError } from '../core/errors.js';
import type { FeeSchedule } from '../core/fees.js';

export type DialectName = 'spec' | 'polymarket';

export interface Dialect {
  readonly name: DialectName;
  /** Prefix of every auth header: SVC_ADDRESS, POLY_SIGNATURE, ... */
  readonly headerPrefix: 'SVC_' | 'POLY_';
  /** L2 HMAC output: lower-case hex, or URL-safe base64 with `=` padding kept. */
  readonly signatureEncoding: 'hex' | 'base64url';
  /** EIP-712 chain id of the order and ClobAuth domains. */
  readonly chainId: number;
  /** EIP-712 order domain name and version. */
  readonly exchangeName: string;
  readonly exchangeVersion: string;
  /** Order domain's verifying contract, and the one used by neg-risk markets. */
  readonly verifyingContract: string;
  readonly negRiskVerifyingContract: string;
  /** How `salt` travels in the order JSON. */
  readonly saltOnWire: 'string' | 'number';
  /**
   * Shapes of the read answers (market data, market listings and settings, portfolio, trades,
   * leaderboard): 'interface' = docs/exchange-interface.md's tables; 'public' = the public exchange's,
   * as its real payloads and official clients show them (test/fixtures/real/wire/markets/ and
   * portfolio/, SOURCES.md there). Client parsers and simulator renderers are chosen by it.
   */
  readonly readWire: 'interface' | 'public';
  /**
   * Shapes of the order routes (POST /order, POST /orders, DELETE /order, GET /data/order/{id}):
   * 'interface' = docs/exchange-interface.md's (camelCase `{order}` envelope, `orderId` cancel key,
   * conditionId in the order JSON); 'public' = the public exchange's, as its official clients send
   * and read them (src/exchange/wire-public-orders.ts; test/fixtures/real/wire/orders/SOURCES.md).
   */
  readonly orderWire: 'interface' | 'public';
  /** POST /prices items: `{token_id}` (both sides answered) or `{token_id, side}` (one item a side). */
  readonly pricesItemSide: boolean;
  /**
   * Which market fields fills are charged by (src/core/fees.ts feeModelOf): 'base-bps' = the
   * interface's maker_base_fee / taker_base_fee × min(p, 1 − p); 'fee-details' = the public
   * exchange's `fd` of GET /clob-markets (takers r × (p(1 − p))^e per share, makers nothing;
   * Polymarket/clob-client-v2 src/fees/index.ts, sources in core/fees.ts).
   */
  readonly fees: FeeSchedule;
}

/** A configuration error about dialects (code starts with CONFIG, so the CLI exits 2). */
export class DialectError extends OddsmakerError {
  constructor(message: string) {
    super('CONFIG_DIALECT', message, false);
  }
}

const SPEC: Dialect = Object.freeze({
  name: 'spec',
  headerPrefix: 'SVC_',
  signatureEncoding: 'hex',
  chainId: 31337,
  exchangeName: 'Prediction Market Exchange',
  exchangeVersion: '2',
  verifyingContract: getAddress('0x00000000000000000000000000000000000000e1'),
  negRiskVerifyingContract: getAddress('0x00000000000000000000000000000000000000e2'),
  saltOnWire: 'string',
  readWire: 'interface',
  orderWire: 'interface',
  pricesItemSide: false,
  fees: 'base-bps',
});

const POLYMARKET: Dialect = Object.freeze({
  name: 'polymarket',
  headerPrefix: 'POLY_',
  signatureEncoding: 'base64url',
  chainId: 137,
  exchangeName: 'Polymarket CTF Exchange',
  exchangeVersion: '2',
  verifyingContract: getAddress('0xE111180000d2663C0091e4f400237545B87B996B'),
  negRiskVerifyingContract: getAddress('0xe2222d279d744050d28e00520010520000310F59'),
  saltOnWire: 'number',
  readWire: 'public',
  orderWire: 'public',
  pricesItemSide: true,
  fees: 'fee-details',
});

export const DIALECTS: Readonly<Record<DialectName, Dialect>> = Object.freeze({ spec: SPEC, polymarket: POLYMARKET });

export const DIALECT_NAMES: readonly DialectName[] = Object.freeze(['spec', 'polymarket']);

export function isDialectName(name: string): name is DialectName {
  return (DIALECT_NAMES as readonly string[]).includes(name);
}

/** The dialect called `name`; throws a DialectError naming the value otherwise. */
export function getDialect(name: string): Dialect {
  if (!isDialectName(name)) {
    throw new DialectError(`unknown dialect ${JSON.stringify(name)}: expected one of ${DIALECT_NAMES.join(', ')}`);
  }
  return DIALECTS[name];
}

/** The parts of a dialect that configuration may change (a simulator on another chain or contract). */
export interface DialectOverrides {
  chainId?: number;
  verifyingContract?: string;
  negRiskVerifyingContract?: string;
}

/**
 * The dialect `name` with the given overrides applied, validated and frozen. With no override
 * the shared frozen object is returned, so identity-keyed caches are reused.
 */
export function dialectFromConfig(name: string, overrides: DialectOverrides = {}): Dialect {
  const base = getDialect(name);
  const { chainId, verifyingContract, negRiskVerifyingContract } = overrides;
  if (chainId === undefined && verifyingContract === undefined && negRiskVerifyingContract === undefined) return base;
  if (chainId !== undefined && (!Number.isSafeInteger(chainId) || chainId <= 0)) {
    throw new DialectError(`dialect ${base.name}: chainId must be a positive integer, got ${String(chainId)}`);
  }
  return Object.freeze({
    ...base,
    chainId: chainId ?? base.chainId,
    verifyingContract:
      verifyingContract === undefined
        ? base.verifyingContract
        : checkedAddress(base.name, 'verifyingContract', verifyingContract),
    negRiskVerifyingContract:
      negRiskVerifyingContract === undefined
        ? base.negRiskVerifyingContract
        : checkedAddress(base.name, 'negRiskVerifyingContract', negRiskVerifyingContract),
  });
}

function checkedAddress(dialect: string, field: string, value: string): string {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) {
    throw new DialectError(`dialect ${dialect}: ${field} is not an address: ${JSON.stringify(value)}`);
  }
  try {
    return getAddress(value);
  } catch {
    // A mixed-case address whose checksum is wrong is most likely a typo.
    throw new DialectError(`dialect ${dialect}: ${field} has a bad checksum: ${JSON.stringify(value)}`);
  }
}
