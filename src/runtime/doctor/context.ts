// What the preflight checks share: the validated config, the key and credentials read from the
// environment exactly as `oddsmaker run` reads them in live mode (src/runtime/modes.ts
// liveIdentity), an exchange client on the configured URLs, and the injected clock. Built step by
// step by run.ts, so that a check whose prerequisite failed is reported as blocked, not run.
// Invariants: the private key stays in the Wallet object; nothing here prints or returns it.
import type { Wallet } from 'ethers';
import type { Clock } from '../../core/clock.js';
import type { Config } from '../../config/schema.js';
import type { ApiCredentials } from '../../exchange/auth/credentials.js';
import type { ExchangeClient } from '../../exchange/client/index.js';
import type { Dialect } from '../../exchange/dialect.js';

export interface DoctorOptions {
  /** Largest |local clock − exchange clock| allowed, ms (default DEFAULT_MAX_SKEW_MS). */
  readonly maxSkewMs?: number;
}

/**
 * Default allowed clock skew: 5 s. The exchange checks signed requests' timestamps against its
 * own clock (the simulator allows 30 s, src/sim/server/auth.ts MAX_SKEW_SEC), orders carry our
 * millisecond timestamp, and GTD expirations and the heartbeat window are seconds; GET /time
 * answers whole seconds, so 5 s is the tightest bound the measurement supports with margin, and
 * far inside what the exchange refuses.
 */
export const DEFAULT_MAX_SKEW_MS = 5_000;

export interface DoctorContext {
  readonly config: Readonly<Config>;
  readonly dialect: Dialect;
  readonly clock: Clock;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly client: ExchangeClient;
  readonly clobUrl: string;
  /** From the environment; null when the credentials check failed. */
  readonly wallet: Wallet | null;
  readonly credentials: ApiCredentials | null;
  /** The L2 address (ODDSMAKER_ADDRESS, else the key's). */
  readonly address: string | null;
  readonly maxSkewMs: number;
  /** HTTP GET for routes the exchange client does not have (geoblock, ban status, tier). */
  readonly fetch: typeof fetch;
}
