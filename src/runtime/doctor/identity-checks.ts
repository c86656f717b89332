// The checks of who we are: credentials present (as `run` reads them in live mode), the key
// derives the API key we were given (L1: GET /auth/derive-api-key, nonce 0, as the official
// client's deriveApiKey), and the account kind fits the addresses (src/exchange/signing/
// account-kind.ts). No key is created (POST /auth/api-key would change the account).
import type { Wallet } from 'ethers';
import {
  addressFromEnv,
  credentialsFromEnv,
  loadWallet,
  type ApiCredentials,
  type Env,
} from '../../exchange/auth/credentials.js';
import { buildL1Headers } from '../../exchange/auth/l1.js';
import { accountKindProblem, orderParties, SIGNATURE_TYPE_NAMES } from '../../exchange/signing/index.js';
import { errorText, fail, ok, type CheckOutcome } from './check.js';
import type { DoctorContext } from './context.js';

const CREDENTIALS_FIX =
  'set ODDSMAKER_PRIVATE_KEY (or ODDSMAKER_KEYSTORE and ODDSMAKER_KEYSTORE_PASSWORD) and ODDSMAKER_API_KEY, ODDSMAKER_API_SECRET, ODDSMAKER_API_PASSPHRASE, as for `oddsmaker run` in live mode';

export interface Identity {
  readonly outcome: CheckOutcome;
  readonly wallet: Wallet | null;
  readonly credentials: ApiCredentials | null;
  readonly address: string | null;
}

export async function checkCredentials(env: Env): Promise<Identity> {
  try {
    const wallet = await loadWallet(env);
    const credentials = credentialsFromEnv(env);
    const address =
      env['ODDSMAKER_ADDRESS'] !== undefined && env['ODDSMAKER_ADDRESS'] !== '' ? addressFromEnv(env) : wallet.address;
    return {
      outcome: ok('credentials', `key ${wallet.address}, API key ${credentials.apiKey}`),
      wallet,
      credentials,
      address,
    };
  } catch (e) {
    return {
      outcome: fail('credentials', errorText(e), CREDENTIALS_FIX),
      wallet: null,
      credentials: null,
      address: null,
    };
  }
}

export async function checkApiKey(ctx: DoctorContext): Promise<CheckOutcome> {
  const name = 'API key';
  if (ctx.wallet === null || ctx.credentials === null)
    return fail(name, 'not checked: credentials failed', 'fix credentials first');
  let derived;
  try {
    const headers = await buildL1Headers({
      dialect: ctx.dialect,
      wallet: ctx.wallet,
      timestampSec: Math.floor(ctx.clock.now() / 1000),
      nonce: 0,
    });
    derived = await ctx.client.deriveApiKey(headers);
  } catch (e) {
    return fail(
      name,
      `the key derives no API key (GET /auth/derive-api-key: ${errorText(e)})`,
      "create the API key with this key once (the official client's createOrDeriveApiKey), then set ODDSMAKER_API_KEY, ODDSMAKER_API_SECRET and ODDSMAKER_API_PASSPHRASE to it",
    );
  }
  if (derived.apiKey !== ctx.credentials.apiKey) {
    return fail(
      name,
      `the key derives API key ${derived.apiKey}, but ODDSMAKER_API_KEY is ${ctx.credentials.apiKey}`,
      'set ODDSMAKER_API_KEY, ODDSMAKER_API_SECRET and ODDSMAKER_API_PASSPHRASE to the credentials this key derives (or to a key it created)',
    );
  }
  return ok(name, `${derived.apiKey} derives from key ${ctx.wallet.address}`);
}

export function checkAccountKind(ctx: DoctorContext): CheckOutcome {
  const name = 'account kind';
  if (ctx.wallet === null) return fail(name, 'not checked: credentials failed', 'fix credentials first');
  const kind = ctx.config.exchange.signatureType;
  const funder = ctx.config.exchange.funder;
  const problem = accountKindProblem(kind, ctx.wallet.address, funder);
  if (problem !== null) {
    return fail(
      name,
      problem,
      "set exchange.signatureType to your account's kind (0 EOA, 1 proxy, 2 safe, 3 deposit wallet) and exchange.funder to its wallet address (absent for EOA)",
    );
  }
  const p = orderParties(kind, ctx.wallet.address, funder);
  return ok(name, `type ${kind} (${SIGNATURE_TYPE_NAMES[kind]}), maker ${p.maker}, signer ${p.signer}`);
}
