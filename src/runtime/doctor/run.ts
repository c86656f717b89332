// `oddsmaker doctor`: every preflight check in order, one line each, against the exchange the
// config names, with the credentials `run` would use in live mode. Order: config valid →
// credentials → API key → account kind → exchange reachable → order version → clock → region →
// close-only mode → collateral balance and allowances → markets of the universe → rate-limit
// tier. A check whose prerequisite failed is printed as FAIL "not checked" (every failure says
// what to fix first); nothing is written to the exchange (no key
// created, no order placed). The verdict: `ok` when every line is OK, `config-invalid` when the
// config itself is invalid (the CLI exits 2), `failed` otherwise (1).
import type { Clock } from '../../core/clock.js';
import { ConfigError, loadConfig } from '../../config/load.js';
import { dialectOfConfig } from '../../config/dialect.js';
import type { Config } from '../../config/schema.js';
import { ExchangeClient } from '../../exchange/client/index.js';
import { DEFAULT_SPEC_URL } from '../modes.js';
import { checkCloseOnly, checkCollateral, checkRegion, checkTier } from './account-checks.js';
import { blocked, errorText, fail, formatOutcome, ok, type CheckOutcome } from './check.js';
import { DEFAULT_MAX_SKEW_MS, type DoctorContext, type DoctorOptions } from './context.js';
import { checkClock, checkReachable, checkVersion } from './exchange-checks.js';
import { checkAccountKind, checkApiKey, checkCredentials } from './identity-checks.js';
import { checkMarkets } from './market-checks.js';

export interface RunDoctorOptions extends DoctorOptions {
  readonly configPath: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly clock: Clock;
  /** Receives each line as it is decided. */
  readonly print: (line: string) => void;
  readonly fetch?: typeof fetch;
}

/** Names of the checks after `exchange reachable`, in order (blocked together when it fails). */
const EXCHANGE_DEPENDENT = [
  'order version',
  'clock',
  'close-only mode',
  'collateral balance',
  'markets',
  'rate-limit tier',
];

export type DoctorVerdict = 'ok' | 'failed' | 'config-invalid';

export async function runDoctor(opts: RunDoctorOptions): Promise<DoctorVerdict> {
  const outcomes: CheckOutcome[] = [];
  const emit = (c: CheckOutcome): void => {
    outcomes.push(c);
    opts.print(formatOutcome(c));
  };
  let config: Readonly<Config>;
  try {
    config = (await loadConfig(opts.configPath)).config;
    if (config.exchange.dialect === 'polymarket' && config.exchange.clobUrl === undefined)
      throw new ConfigError(opts.configPath, ['exchange.clobUrl: required with the polymarket dialect']);
  } catch (e) {
    emit(fail('config', errorText(e), `correct ${opts.configPath} (config/live.example.json shows a live config)`));
    return 'config-invalid';
  }
  emit(ok('config', `${opts.configPath} (${config.exchange.dialect} dialect, mode ${config.mode})`));

  const id = await checkCredentials(opts.env);
  emit(id.outcome);
  const dialect = dialectOfConfig(config);
  const clobUrl = config.exchange.clobUrl ?? DEFAULT_SPEC_URL;
  const client = new ExchangeClient({
    clobUrl,
    dialect,
    clock: opts.clock,
    ...(config.exchange.dataUrl !== undefined ? { dataUrl: config.exchange.dataUrl } : {}),
    ...(id.credentials !== null && id.address !== null ? { credentials: id.credentials, address: id.address } : {}),
    headersTimeoutMs: config.exchange.timeoutMs,
    bodyTimeoutMs: config.exchange.timeoutMs,
    // A preflight asks once: a failure is reported, not retried.
    backoff: { maxAttempts: 1 },
  });
  const ctx: DoctorContext = {
    config,
    dialect,
    clock: opts.clock,
    env: opts.env,
    client,
    clobUrl,
    wallet: id.wallet,
    credentials: id.credentials,
    address: id.address,
    maxSkewMs: opts.maxSkewMs ?? DEFAULT_MAX_SKEW_MS,
    fetch: opts.fetch ?? fetch,
  };
  try {
    emit(checkAccountKind(ctx));
    const reachable = await checkReachable(ctx);
    emit(reachable);
    // Region is on another host (polymarket.com): checked whatever the API host answered.
    if (!reachable.ok) {
      emit(fail('API key', 'not checked: exchange reachable failed', 'fix exchange reachable first'));
      for (const n of EXCHANGE_DEPENDENT) emit(blocked(n, 'exchange reachable'));
      emit(await checkRegion(ctx));
    } else {
      const apiKey = await checkApiKey(ctx);
      emit(apiKey);
      emit(await checkVersion(ctx));
      emit(await checkClock(ctx));
      emit(await checkRegion(ctx));
      // The account's routes are signed with the API key: a wrong one would only fail them again.
      const signedOk = apiKey.ok;
      emit(signedOk ? await checkCloseOnly(ctx) : blocked('close-only mode', 'API key'));
      for (const c of signedOk
        ? await checkCollateral(ctx)
        : ['collateral balance', 'allowance exchange', 'allowance neg-risk exchange'].map((n) => blocked(n, 'API key')))
        emit(c);
      for (const c of await checkMarkets(ctx)) emit(c);
      emit(signedOk ? await checkTier(ctx) : blocked('rate-limit tier', 'API key'));
    }
  } finally {
    await client.close();
  }
  return outcomes.every((c) => c.ok) ? 'ok' : 'failed';
}
