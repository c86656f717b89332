// The daemon's side of the ledger identity (src/ledger/identity.ts): what this run's exchange and
// account are, and the refusal to start on a ledger of another, with what to do about it. Run by
// buildRuntime (modes.ts) right after the ledger opens, before anything is sent to the exchange.
// Identity by mode:
// - live: the CLOB URL, the dialect, the maker account (exchange.funder, else the key's address);
// - sandbox: `sandbox`, the dialect, the simulator's throwaway account, its seed and the run id of
//   its world: every sandbox run is a new world, so a sandbox ledger is one run's;
// - paper: the market data's CLOB URL, the dialect and the account `paper` (the in-process venue).
// A refusal is a config error (code CONFIG_LEDGER_IDENTITY, exit 2): the fix is a config key (the
// one that differs) or another ledger.path.
import { OddsmakerError } from '../core/errors.js';
import type { Config } from '../config/schema.js';
import type { BindResult, BoundIdentity, IdentityField, LedgerIdentity } from '../ledger/index.js';

export class LedgerIdentityError extends OddsmakerError {
  constructor(message: string) {
    super('CONFIG_LEDGER_IDENTITY', message, false);
  }
}

export interface RunIdentityParts {
  /** The CLOB URL the run talks to (ignored in sandbox mode). */
  readonly clobUrl: string;
  /** The account whose positions these are. */
  readonly account: string;
  /** Sandbox: the in-process simulator's run id. */
  readonly simRun?: string;
}

/** A URL as compared: parsed and printed back, without a trailing slash. */
function normalUrl(u: string): string {
  try {
    return new URL(u).href.replace(/\/+$/, '');
  } catch {
    return u;
  }
}

export function runIdentity(config: Readonly<Config>, parts: RunIdentityParts): LedgerIdentity {
  const dialect = config.exchange.dialect;
  const account = parts.account.toLowerCase(); // as the ledger stores it
  if (config.mode === 'sandbox') {
    return {
      mode: 'sandbox',
      exchange: 'sandbox',
      dialect,
      account,
      simSeed: config.sandbox.seed,
      simRun: parts.simRun ?? null,
    };
  }
  return {
    mode: config.mode,
    exchange: normalUrl(parts.clobUrl),
    dialect,
    account: config.mode === 'paper' ? 'paper' : account,
    simSeed: null,
    simRun: null,
  };
}

const SETTING: Record<IdentityField, string> = {
  mode: 'set by mode, or run --mode',
  exchange: 'set by exchange.clobUrl',
  dialect: 'set by exchange.dialect',
  account:
    'set by exchange.funder, else the wallet: ODDSMAKER_PRIVATE_KEY or ODDSMAKER_KEYSTORE, and ODDSMAKER_ADDRESS',
  simSeed: 'set by sandbox.seed',
  simRun: 'a new simulator world every sandbox run',
};

const show = (v: string | number | null): string => (v === null ? '(none)' : String(v));

/** The refusal's message: which fields differ, and what to change. */
export function refusalMessage(
  ledgerPath: string,
  have: BoundIdentity,
  want: LedgerIdentity,
  differs: readonly IdentityField[],
): string {
  const lines = differs.map(
    (f) => `  - ${f}: the ledger's ${show(have[f])}, this run's ${show(want[f])} (${SETTING[f]})`,
  );
  const since = new Date(have.boundAtMs).toISOString();
  const head =
    `ledger ${ledgerPath} belongs to another exchange or account (recorded ${since}: ${have.mode} mode, ` +
    `${have.exchange === 'sandbox' ? `sandbox simulator seed ${show(have.simSeed)} run ${show(have.simRun)}` : have.exchange}, ` +
    `${have.dialect} dialect, account ${have.account}); refusing to start, nothing was sent:`;
  const fix =
    have.mode === 'sandbox' || want.mode === 'sandbox'
      ? "A sandbox ledger is one sandbox run's (its simulator's world is new every run). Leave ledger.path out of the config " +
        '(and --ledger off): sandbox then writes a fresh data/sandbox/ledger-<UTC time>.sqlite every run, live data/ledger.sqlite, ' +
        'paper data/paper-ledger.sqlite; or point ledger.path at another file.'
      : 'Point ledger.path (or --ledger) at another file for this exchange and account (a new file starts empty), ' +
        "or set what differs back to the ledger's (the setting is named on its line).";
  return [head, ...lines, fix].join('\n');
}

/** Binds the ledger to this run's identity; throws LedgerIdentityError when it is another's. */
export function guardLedger(
  ledger: { bindIdentity(id: LedgerIdentity): BindResult },
  ledgerPath: string,
  want: LedgerIdentity,
): Exclude<BindResult, { status: 'other' }> {
  const r = ledger.bindIdentity(want);
  if (r.status === 'other') throw new LedgerIdentityError(refusalMessage(ledgerPath, r.identity, want, r.differs));
  return r;
}
