// What the simulated exchange says about itself and the account beyond the book, for the
// preflight a trader runs (`oddsmaker doctor`) and for its fault switches: the order version it
// accepts, a skew of its clock, whether the caller's region is blocked, whether the account is in
// close-only mode, whether collateral allowances are granted, and whether new accounts must use a
// deposit wallet. Defaults are a healthy exchange. Invariants:
// - the simulator verifies order version 2 (the dialects' EIP-712 domain version "2"); an
//   `orderVersion` other than 2 is an exchange that has moved on: GET /version reports it and
//   every POST /order(s) answers 400 `order_version_mismatch` (clob-client-v2 dist/constants.js);
// - the settings are one mutable object shared by the routes: POST /_sim/exchange and in-process
//   tests change it while the simulator runs (routes/preflight.ts validates the request).
import { SimRequestError } from './errors.js';
import { WalletRegistry } from './wallets.js';

/** The order version the simulator signs and verifies (GET /version's default answer). */
export const SIM_ORDER_VERSION = 2;

export interface ExchangeStateOptions {
  /** GET /version's answer (default 2); other than 2, orders answer `order_version_mismatch`. */
  orderVersion?: number;
  /** Added to the clock in GET /time's answer (a skewed exchange clock), ms. */
  clockSkewMs?: number;
  /** GET /api/geoblock answers blocked (from the country below). */
  geoblocked?: boolean;
  /** GET /auth/ban-status/closed-only answers true. */
  closedOnly?: boolean;
  /** GET /balance-allowance answers zero allowances. */
  noAllowance?: boolean;
  /** Orders of kinds other than the deposit wallet are refused (new API accounts). */
  requireDepositWallet?: boolean;
}

export class ExchangeState {
  orderVersion: number;
  clockSkewMs: number;
  geoblocked: boolean;
  closedOnly: boolean;
  noAllowance: boolean;
  readonly wallets: WalletRegistry;

  constructor(opts: ExchangeStateOptions = {}) {
    this.orderVersion = opts.orderVersion ?? SIM_ORDER_VERSION;
    this.clockSkewMs = opts.clockSkewMs ?? 0;
    this.geoblocked = opts.geoblocked === true;
    this.closedOnly = opts.closedOnly === true;
    this.noAllowance = opts.noAllowance === true;
    this.wallets = new WalletRegistry({ requireDepositWallet: opts.requireDepositWallet === true });
    check(this);
  }

  /** True when orders signed for the simulator's version are refused. */
  get versionMismatch(): boolean {
    return this.orderVersion !== SIM_ORDER_VERSION;
  }

  /** Applies a partial update (POST /_sim/exchange); an invalid field changes nothing. */
  update(patch: Record<string, unknown>): void {
    const next = {
      orderVersion: this.orderVersion,
      clockSkewMs: this.clockSkewMs,
      geoblocked: this.geoblocked,
      closedOnly: this.closedOnly,
      noAllowance: this.noAllowance,
      requireDepositWallet: this.wallets.requireDepositWallet,
    };
    for (const [k, v] of Object.entries(patch)) {
      if (!(k in next))
        throw new SimRequestError(
          `unknown exchange setting ${JSON.stringify(k)}: expected ${Object.keys(next).join(', ')}`,
        );
      (next as Record<string, unknown>)[k] = v;
    }
    check(next);
    this.orderVersion = next.orderVersion;
    this.clockSkewMs = next.clockSkewMs;
    this.geoblocked = next.geoblocked;
    this.closedOnly = next.closedOnly;
    this.noAllowance = next.noAllowance;
    this.wallets.requireDepositWallet = next.requireDepositWallet;
  }

  snapshot(): Record<string, number | boolean> {
    return {
      orderVersion: this.orderVersion,
      clockSkewMs: this.clockSkewMs,
      geoblocked: this.geoblocked,
      closedOnly: this.closedOnly,
      noAllowance: this.noAllowance,
      requireDepositWallet: this.wallets.requireDepositWallet,
    };
  }
}

function check(s: {
  orderVersion: unknown;
  clockSkewMs: unknown;
  geoblocked: unknown;
  closedOnly: unknown;
  noAllowance: unknown;
  requireDepositWallet?: unknown;
}): void {
  if (!Number.isSafeInteger(s.orderVersion) || (s.orderVersion as number) < 1)
    throw new SimRequestError(`orderVersion must be a positive integer, got ${String(s.orderVersion)}`);
  if (!Number.isSafeInteger(s.clockSkewMs))
    throw new SimRequestError(`clockSkewMs must be an integer, got ${String(s.clockSkewMs)}`);
  for (const k of ['geoblocked', 'closedOnly', 'noAllowance', 'requireDepositWallet'] as const) {
    const v = (s as Record<string, unknown>)[k];
    if (v !== undefined && typeof v !== 'boolean')
      throw new SimRequestError(`${k} must be a boolean, got ${JSON.stringify(v)}`);
  }
}
