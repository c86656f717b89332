// The exchange dialect a config names: config.exchange.dialect with its optional overrides (chain
// id, verifying contracts). One place, so the daemon, the recorder and the backtester sign and
// hash orders under the same domain for the same config.
import { dialectFromConfig, type Dialect } from '../exchange/dialect.js';
import type { Config } from './schema.js';

export function dialectOfConfig(config: Readonly<Config>): Dialect {
  const { chainId, verifyingContract, negRiskVerifyingContract } = config.exchange;
  return dialectFromConfig(config.exchange.dialect, {
    ...(chainId !== undefined ? { chainId } : {}),
    ...(verifyingContract !== undefined ? { verifyingContract } : {}),
    ...(negRiskVerifyingContract !== undefined ? { negRiskVerifyingContract } : {}),
  });
}
