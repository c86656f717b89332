// Credentials and keys from the environment and an encrypted keystore; redaction in every printed
// form; no secret in any error message.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { encryptKeystoreJsonSync, Wallet } from 'ethers';
import {
  addressFromEnv,
  credentialsFromEnv,
  loadWallet,
  makeCredentials,
  parsePrivateKey,
} from '../../../src/exchange/auth/credentials.js';
import { CredentialsError } from '../../../src/exchange/auth/errors.js';

const KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const ADDRESS = new Wallet(KEY).address;
const SECRET = 'c2VjcmV0LWJ5dGVzLWZvci10ZXN0aW5nLW9ubHktMzI=';
const PASSPHRASE = '0123456789abcdef'.repeat(4);
const API_KEY = '2f1b7d3e-8c4a-4e6b-9d2f-1a3b5c7d9e0f';
const env = { ODDSMAKER_API_KEY: API_KEY, ODDSMAKER_API_SECRET: SECRET, ODDSMAKER_API_PASSPHRASE: PASSPHRASE };
const PASSWORD = 'correct horse battery staple';

/** A keystore encrypted here with a tiny scrypt cost, so the test stays fast. */
function keystore(): string {
  const w = new Wallet(KEY);
  return encryptKeystoreJsonSync({ address: w.address, privateKey: w.privateKey }, PASSWORD, { scrypt: { N: 16 } });
}

async function errorOf(f: () => unknown): Promise<Error> {
  try {
    await f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a throw');
}

function expectNoSecret(text: string): void {
  for (const s of [SECRET, PASSPHRASE, KEY.slice(2), KEY.slice(2, 30), PASSWORD]) expect(text).not.toContain(s);
}

describe('API credentials', () => {
  it('load from the environment', () => {
    const c = credentialsFromEnv(env);
    expect([c.apiKey, c.secret, c.passphrase]).toEqual([API_KEY, SECRET, PASSPHRASE]);
  });

  it('never print their secret or passphrase', () => {
    const c = credentialsFromEnv(env);
    for (const text of [
      JSON.stringify(c),
      JSON.stringify({ nested: { c } }),
      inspect(c),
      inspect({ c }, { depth: 9 }),
      String(c),
      `${c}`,
    ]) {
      expectNoSecret(text);
      expect(text).toContain('[redacted]');
    }
    expect(JSON.parse(JSON.stringify(c))).toEqual({ apiKey: API_KEY, secret: '[redacted]', passphrase: '[redacted]' });
  });

  it('name the missing or malformed variable, never its value', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ ...env, ODDSMAKER_API_SECRET: '' }, /ODDSMAKER_API_SECRET is not set/],
      [{ ODDSMAKER_API_KEY: API_KEY, ODDSMAKER_API_PASSPHRASE: PASSPHRASE }, /ODDSMAKER_API_SECRET is not set/],
      [{ ...env, ODDSMAKER_API_KEY: 'key' }, /ODDSMAKER_API_KEY is not a uuid/],
      [{ ...env, ODDSMAKER_API_SECRET: `${SECRET}!!` }, /ODDSMAKER_API_SECRET is not base64/],
      [{ ...env, ODDSMAKER_API_PASSPHRASE: `${PASSPHRASE}0` }, /ODDSMAKER_API_PASSPHRASE is not 64/],
    ];
    for (const [e, re] of cases) {
      const err = await errorOf(() => credentialsFromEnv(e));
      expect(err).toBeInstanceOf(CredentialsError);
      expect(err.message).toMatch(re);
      expectNoSecret(err.message);
      expectNoSecret(inspect(err));
      expect((err as CredentialsError).code).toBe('CONFIG_CREDENTIALS');
    }
    expect(() => makeCredentials({ apiKey: API_KEY, secret: SECRET, passphrase: 'x' })).toThrow(/passphrase/);
  });

  it('read the address checksummed', () => {
    expect(addressFromEnv({ ODDSMAKER_ADDRESS: ADDRESS.toLowerCase() })).toBe(ADDRESS);
    expect(() => addressFromEnv({})).toThrow(/ODDSMAKER_ADDRESS is not set/);
    expect(() => addressFromEnv({ ODDSMAKER_ADDRESS: '0x12' })).toThrow(CredentialsError);
  });
});

describe('private key', () => {
  it('parses with or without 0x and surrounding whitespace', () => {
    expect(parsePrivateKey(`  ${KEY.slice(2).toUpperCase()}\n`)).toBe(KEY);
  });

  it('refuses malformed and out-of-range keys without echoing them', async () => {
    for (const bad of [
      KEY.slice(0, -2),
      `${KEY}00`,
      `0x${'0'.repeat(64)}`,
      `0x${'f'.repeat(64)}`,
      `${KEY.slice(0, -1)}g`,
    ]) {
      const err = await errorOf(() => parsePrivateKey(bad, 'ODDSMAKER_PRIVATE_KEY'));
      expect(err).toBeInstanceOf(CredentialsError);
      expect(err.message).toContain('ODDSMAKER_PRIVATE_KEY');
      expect(err.message).not.toContain(bad.slice(2, 20));
      expect(inspect(err)).not.toContain(bad.slice(2, 20));
    }
  });

  it('loads a wallet from ODDSMAKER_PRIVATE_KEY', async () => {
    expect((await loadWallet({ ODDSMAKER_PRIVATE_KEY: KEY })).address).toBe(ADDRESS);
  });

  it('loads a wallet from an encrypted keystore with the password from the environment', async () => {
    const json = keystore();
    const files = new Map([['/keys/k.json', json]]);
    const readFile = async (p: string): Promise<string> => {
      const f = files.get(p);
      if (f === undefined) throw Object.assign(new Error(`ENOENT ${p}`), { code: 'ENOENT' });
      return f;
    };
    const w = await loadWallet(
      { ODDSMAKER_KEYSTORE: '/keys/k.json', ODDSMAKER_KEYSTORE_PASSWORD: PASSWORD },
      { readFile },
    );
    expect(w.address).toBe(ADDRESS);
    expect(w.privateKey).toBe(KEY);

    const wrong = await errorOf(() =>
      loadWallet({ ODDSMAKER_KEYSTORE: '/keys/k.json', ODDSMAKER_KEYSTORE_PASSWORD: 'wrong password' }, { readFile }),
    );
    expect(wrong).toBeInstanceOf(CredentialsError);
    expect(wrong.message).toMatch(/incorrect password/);
    expect(wrong.message).not.toContain('wrong password');

    const missing = await errorOf(() =>
      loadWallet({ ODDSMAKER_KEYSTORE: '/keys/none.json', ODDSMAKER_KEYSTORE_PASSWORD: PASSWORD }, { readFile }),
    );
    expect(missing.message).toMatch(/cannot read \/keys\/none\.json \(ENOENT\)/);
    expectNoSecret(missing.message);

    files.set('/keys/bad.json', '{"not":"a keystore"}');
    const bad = await errorOf(() =>
      loadWallet({ ODDSMAKER_KEYSTORE: '/keys/bad.json', ODDSMAKER_KEYSTORE_PASSWORD: PASSWORD }, { readFile }),
    );
    expect(bad.message).toMatch(/not a valid encrypted JSON keystore/);

    const noPassword = await errorOf(() => loadWallet({ ODDSMAKER_KEYSTORE: '/keys/k.json' }, { readFile }));
    expect(noPassword.message).toMatch(/ODDSMAKER_KEYSTORE_PASSWORD is not set/);
  });

  it('refuses no source and two sources', async () => {
    expect((await errorOf(() => loadWallet({}))).message).toMatch(/no signing key/);
    const both = await errorOf(() =>
      loadWallet({ ODDSMAKER_PRIVATE_KEY: KEY, ODDSMAKER_KEYSTORE: '/k.json', ODDSMAKER_KEYSTORE_PASSWORD: PASSWORD }),
    );
    expect(both.message).toMatch(/set only one/);
    expectNoSecret(both.message);
  });
});
