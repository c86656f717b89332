// L2 request signing (docs/protocol.md §1): HMAC-SHA256 keyed by the base64-decoded API secret over
// `timestamp + METHOD + path + body`, encoded per dialect, sent in five prefixed headers; and the
// server-side check the simulator runs. Invariants:
// - the body signed is the exact string sent: callers serialise once and pass that string;
//   `undefined` means no body (nothing appended), `""` is an empty body (also nothing appended);
// - the path carries no query string (a '?' is refused rather than silently signed);
// - the timestamp is whole Unix seconds, the exact text of the TIMESTAMP header;
// - verification compares MACs and passphrases in constant time, and its failure reasons name
//   headers, never the values of secrets.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Dialect } from '../dialect.js';
import { checksumAddress, decodeSecret, type ApiCredentials } from './credentials.js';
import { AuthError } from './errors.js';

export type SignatureEncoding = Dialect['signatureEncoding'];

/** HMAC-SHA256 of `message` keyed by the base64 `secret`, as hex or URL-safe base64 (padding kept). */
export function hmacSignature(secret: string, message: string, encoding: SignatureEncoding): string {
  return encodeMac(hmacBytes(decodeSecret(secret), message), encoding);
}

function hmacBytes(key: Buffer, message: string): Buffer {
  return createHmac('sha256', key).update(message, 'utf8').digest();
}

function encodeMac(mac: Buffer, encoding: SignatureEncoding): string {
  if (encoding === 'hex') return mac.toString('hex');
  // Node's 'base64url' drops the '=' padding, which the public exchange keeps.
  return mac.toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

/** Decodes a received MAC in the dialect's encoding (tolerating case in hex, missing padding in base64). */
function decodeMac(text: string, encoding: SignatureEncoding): Buffer | null {
  if (encoding === 'hex') return /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : null;
  if (!/^[A-Za-z0-9_-]{43}=?$/.test(text)) return null;
  return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

/** The string the HMAC covers. */
export function l2SigningString(
  timestamp: number | string,
  method: string,
  path: string,
  body: string | undefined,
): string {
  return `${timestamp}${method.toUpperCase()}${path}${body ?? ''}`;
}

export interface L2HeaderInput {
  dialect: Dialect;
  credentials: ApiCredentials;
  /** Wallet address; sent checksummed. */
  address: string;
  method: string;
  /** Request path only: no host, no query string. */
  path: string;
  /** The exact body string sent, or undefined when there is none. */
  body: string | undefined;
  timestampSec: number;
}

export function l2HeaderNames(dialect: Dialect): {
  address: string;
  apiKey: string;
  passphrase: string;
  timestamp: string;
  signature: string;
} {
  const p = dialect.headerPrefix;
  return {
    address: `${p}ADDRESS`,
    apiKey: `${p}API_KEY`,
    passphrase: `${p}PASSPHRASE`,
    timestamp: `${p}TIMESTAMP`,
    signature: `${p}SIGNATURE`,
  };
}

function checkPath(path: string): void {
  if (typeof path !== 'string' || !path.startsWith('/'))
    throw new AuthError(`L2 path must start with '/': ${JSON.stringify(path)}`);
  if (path.includes('?')) throw new AuthError(`L2 path must not carry a query string: ${JSON.stringify(path)}`);
}

function checkTimestamp(timestampSec: number): void {
  if (!Number.isSafeInteger(timestampSec) || timestampSec < 0)
    throw new AuthError(`L2 timestamp must be whole Unix seconds, got ${String(timestampSec)}`);
}

/** The five L2 headers of a request. */
export function buildL2Headers(input: L2HeaderInput): Record<string, string> {
  const { dialect, credentials, method, path, body, timestampSec } = input;
  checkPath(path);
  checkTimestamp(timestampSec);
  if (!/^[A-Za-z]+$/.test(method)) throw new AuthError(`L2 method is not an HTTP method: ${JSON.stringify(method)}`);
  const address = checksumAddress(input.address, 'L2 address');
  const names = l2HeaderNames(dialect);
  const signature = hmacSignature(
    credentials.secret,
    l2SigningString(timestampSec, method, path, body),
    dialect.signatureEncoding,
  );
  return {
    [names.address]: address,
    [names.signature]: signature,
    [names.timestamp]: String(timestampSec),
    [names.apiKey]: credentials.apiKey,
    [names.passphrase]: credentials.passphrase,
  };
}

/** Request headers as a server sees them (Node lower-cases names; a repeated header is an array). */
export type IncomingHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** What the server knows about an API key. */
export interface KnownApiKey {
  credentials: ApiCredentials;
  /** The wallet address the key was issued to. */
  address: string;
}

export interface L2VerifyInput {
  dialect: Dialect;
  headers: IncomingHeaders;
  method: string;
  /** Request path without the query string. */
  path: string;
  /** Raw body text as received, or undefined when there is none. */
  body: string | undefined;
  nowSec: number;
  /** Permitted |now − timestamp| in seconds (docs/protocol.md §1: 30). */
  maxSkewSec: number;
  lookupCredentials: (apiKey: string) => KnownApiKey | undefined;
}

export type L2VerifyResult = { ok: true; apiKey: string; address: string } | { ok: false; reason: string };

/** Reads one header case-insensitively; a repeated header is refused (ambiguous). */
export function headerValue(headers: IncomingHeaders, name: string): string | undefined {
  let v = headers[name] ?? headers[name.toLowerCase()];
  if (v === undefined) {
    const lower = name.toLowerCase();
    for (const k of Object.keys(headers)) {
      if (k.toLowerCase() === lower) {
        v = headers[k];
        break;
      }
    }
  }
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v;
  return v.length === 1 ? v[0] : undefined;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Checks a request's L2 headers: presence, freshness, key, passphrase, address, then the HMAC. */
export function verifyL2Headers(input: L2VerifyInput): L2VerifyResult {
  const { dialect, headers } = input;
  const names = l2HeaderNames(dialect);
  const got: Record<keyof typeof names, string> = {
    address: '',
    apiKey: '',
    passphrase: '',
    timestamp: '',
    signature: '',
  };
  for (const key of Object.keys(names) as Array<keyof typeof names>) {
    const v = headerValue(headers, names[key]);
    if (v === undefined || v === '') return { ok: false, reason: `missing header ${names[key]}` };
    got[key] = v;
  }
  if (!/^\d{1,15}$/.test(got.timestamp)) return { ok: false, reason: `${names.timestamp} is not Unix seconds` };
  const ts = Number(got.timestamp);
  if (Math.abs(input.nowSec - ts) > input.maxSkewSec)
    return { ok: false, reason: `${names.timestamp} outside the permitted skew` };
  const known = input.lookupCredentials(got.apiKey);
  if (known === undefined) return { ok: false, reason: `unknown ${names.apiKey}` };
  if (!sameText(got.passphrase, known.credentials.passphrase))
    return { ok: false, reason: `${names.passphrase} does not match the key` };
  if (!/^0x[0-9a-fA-F]{40}$/.test(got.address) || got.address.toLowerCase() !== known.address.toLowerCase()) {
    return { ok: false, reason: `${names.address} is not the key's address` };
  }
  if (input.path.includes('?')) return { ok: false, reason: 'path passed to verification carries a query string' };
  const mac = decodeMac(got.signature, dialect.signatureEncoding);
  if (mac === null) return { ok: false, reason: `${names.signature} is not ${dialect.signatureEncoding}` };
  let expected: Buffer;
  try {
    expected = hmacBytes(
      decodeSecret(known.credentials.secret),
      l2SigningString(got.timestamp, input.method, input.path, input.body),
    );
  } catch {
    return { ok: false, reason: 'stored secret is not base64' };
  }
  if (mac.length !== expected.length || !timingSafeEqual(mac, expected))
    return { ok: false, reason: `${names.signature} does not match` };
  return { ok: true, apiKey: known.credentials.apiKey, address: checksumAddress(known.address) };
}
