// Credentials: the L2 API triple {apiKey, secret, passphrase} and the wallet's private key, both
// loaded only from the environment (docs/ARCHITECTURE.md §12) or, for the key, from an ethers encrypted JSON
// keystore whose password comes from the environment. Invariants:
// - a credentials object never prints its secret or passphrase: JSON.stringify, util.inspect,
//   String() and template literals all show `[redacted]` (pino serialises through toJSON too);
// - no error raised here contains a secret value: messages name the variable, never its content,
//   and library errors are replaced, not chained (they may quote the value they choked on);
// - values are validated once, at load: apiKey a uuid, secret base64 (URL-safe alphabet accepted),
//   passphrase 64 hex characters, private key 32 bytes of hex.
import { readFile } from 'node:fs/promises';
import { inspect } from 'node:util';
import { getAddress, SigningKey, Wallet } from 'ethers';
import { CredentialsError } from './errors.js';

export interface ApiCredentials {
  readonly apiKey: string;
  readonly secret: string;
  readonly passphrase: string;
}

export type Env = Readonly<Record<string, string | undefined>>;

export const ENV_API_KEY = 'ODDSMAKER_API_KEY';
export const ENV_API_SECRET = 'ODDSMAKER_API_SECRET';
export const ENV_API_PASSPHRASE = 'ODDSMAKER_API_PASSPHRASE';
export const ENV_ADDRESS = 'ODDSMAKER_ADDRESS';
export const ENV_PRIVATE_KEY = 'ODDSMAKER_PRIVATE_KEY';
export const ENV_KEYSTORE = 'ODDSMAKER_KEYSTORE';
export const ENV_KEYSTORE_PASSWORD = 'ODDSMAKER_KEYSTORE_PASSWORD';

const REDACTED = '[redacted]';
const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const BASE64_RE = /^[A-Za-z0-9+/_-]+={0,2}$/;
const PASSPHRASE_RE = /^[0-9a-fA-F]{64}$/;
const PRIVATE_KEY_RE = /^(0x)?[0-9a-fA-F]{64}$/;

/** API credentials that redact themselves whenever they are printed or serialised. */
class RedactedCredentials implements ApiCredentials {
  readonly apiKey: string;
  readonly secret: string;
  readonly passphrase: string;

  constructor(c: ApiCredentials) {
    this.apiKey = c.apiKey;
    this.secret = c.secret;
    this.passphrase = c.passphrase;
    Object.freeze(this);
  }

  toJSON(): Record<string, string> {
    return { apiKey: this.apiKey, secret: REDACTED, passphrase: REDACTED };
  }

  toString(): string {
    return `ApiCredentials(apiKey=${this.apiKey}, secret=${REDACTED}, passphrase=${REDACTED})`;
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

/**
 * Validates an API credential triple and wraps it so it never prints its secrets.
 * `source` names where the values came from, for error messages.
 */
export function makeCredentials(c: ApiCredentials, source = 'credentials'): ApiCredentials {
  if (typeof c.apiKey !== 'string' || !UUID_RE.test(c.apiKey))
    throw new CredentialsError(`${source}: apiKey is not a uuid`);
  if (typeof c.secret !== 'string' || !BASE64_RE.test(c.secret))
    throw new CredentialsError(`${source}: secret is not base64`);
  if (typeof c.passphrase !== 'string' || !PASSPHRASE_RE.test(c.passphrase)) {
    throw new CredentialsError(`${source}: passphrase is not 64 hexadecimal characters`);
  }
  return new RedactedCredentials(c);
}

/** Decodes an API secret (standard or URL-safe base64) to the HMAC key bytes. */
export function decodeSecret(secret: string): Buffer {
  if (typeof secret !== 'string' || !BASE64_RE.test(secret)) throw new CredentialsError('API secret is not base64');
  const key = Buffer.from(secret.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length === 0) throw new CredentialsError('API secret decodes to no bytes');
  return key;
}

function required(env: Env, name: string): string {
  const v = env[name];
  if (v === undefined || v.trim() === '') throw new CredentialsError(`environment variable ${name} is not set`);
  return v.trim();
}

/** The L2 credentials from ODDSMAKER_API_KEY, ODDSMAKER_API_SECRET, ODDSMAKER_API_PASSPHRASE. */
export function credentialsFromEnv(env: Env): ApiCredentials {
  const apiKey = required(env, ENV_API_KEY);
  const secret = required(env, ENV_API_SECRET);
  const passphrase = required(env, ENV_API_PASSPHRASE);
  if (!UUID_RE.test(apiKey)) throw new CredentialsError(`${ENV_API_KEY} is not a uuid`);
  if (!BASE64_RE.test(secret)) throw new CredentialsError(`${ENV_API_SECRET} is not base64`);
  if (!PASSPHRASE_RE.test(passphrase))
    throw new CredentialsError(`${ENV_API_PASSPHRASE} is not 64 hexadecimal characters`);
  return new RedactedCredentials({ apiKey, secret, passphrase });
}

/** The wallet address from ODDSMAKER_ADDRESS, checksummed. */
export function addressFromEnv(env: Env): string {
  return checksumAddress(required(env, ENV_ADDRESS), ENV_ADDRESS);
}

/** Checksums an address; `what` names it in the error. Accepts any case, rejects a bad mixed-case checksum. */
export function checksumAddress(value: string, what = 'address'): string {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value))
    throw new CredentialsError(`${what} is not an address`);
  try {
    return getAddress(value);
  } catch {
    throw new CredentialsError(`${what} has a bad checksum`);
  }
}

/**
 * Validates a private key given as 64 hex digits (0x optional, surrounding whitespace ignored) and
 * returns it as 0x-prefixed lower-case hex. `source` names it in errors; the value never appears.
 */
export function parsePrivateKey(text: string, source = 'private key'): string {
  const t = typeof text === 'string' ? text.trim() : '';
  if (!PRIVATE_KEY_RE.test(t)) throw new CredentialsError(`${source} is not 32 bytes of hex`);
  const hex = (t.startsWith('0x') ? t : `0x${t}`).toLowerCase();
  try {
    // Rejects zero and values at or above the curve order.
    void new SigningKey(hex).publicKey;
  } catch {
    throw new CredentialsError(`${source} is not a valid secp256k1 private key`);
  }
  return hex;
}

export interface LoadWalletOptions {
  /** Reads the keystore file (tests inject one); defaults to fs.readFile as UTF-8. */
  readFile?: (path: string) => Promise<string>;
}

/**
 * The order-signing wallet: from ODDSMAKER_PRIVATE_KEY, or from the encrypted JSON keystore at
 * ODDSMAKER_KEYSTORE decrypted with ODDSMAKER_KEYSTORE_PASSWORD. Setting both sources is an error
 * (which one wins would be a guess).
 */
export async function loadWallet(env: Env, options: LoadWalletOptions = {}): Promise<Wallet> {
  const rawKey = env[ENV_PRIVATE_KEY];
  const keystorePath = env[ENV_KEYSTORE];
  const hasKey = rawKey !== undefined && rawKey.trim() !== '';
  const hasKeystore = keystorePath !== undefined && keystorePath.trim() !== '';
  if (hasKey && hasKeystore) throw new CredentialsError(`set only one of ${ENV_PRIVATE_KEY} and ${ENV_KEYSTORE}`);
  if (hasKey) return new Wallet(parsePrivateKey(rawKey, ENV_PRIVATE_KEY));
  if (!hasKeystore)
    throw new CredentialsError(
      `no signing key: set ${ENV_PRIVATE_KEY}, or ${ENV_KEYSTORE} and ${ENV_KEYSTORE_PASSWORD}`,
    );
  const path = keystorePath.trim();
  const password = env[ENV_KEYSTORE_PASSWORD];
  if (password === undefined)
    throw new CredentialsError(`environment variable ${ENV_KEYSTORE_PASSWORD} is not set (needed for ${ENV_KEYSTORE})`);
  const read = options.readFile ?? ((p: string) => readFile(p, 'utf8'));
  let json: string;
  try {
    json = await read(path);
  } catch (err) {
    const code =
      typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : 'read error';
    throw new CredentialsError(`${ENV_KEYSTORE}: cannot read ${path} (${code})`);
  }
  let decrypted: { privateKey: string };
  try {
    decrypted = await Wallet.fromEncryptedJson(json, password);
  } catch (err) {
    // ethers says "incorrect password" or names a malformed field; keep only that distinction.
    const reason =
      err instanceof Error && /password/i.test(err.message)
        ? 'incorrect password'
        : 'not a valid encrypted JSON keystore';
    throw new CredentialsError(`${ENV_KEYSTORE}: cannot decrypt ${path}: ${reason}`);
  }
  // A mnemonic keystore decrypts to an HD wallet; signing only needs its key.
  return new Wallet(decrypted.privateKey);
}
