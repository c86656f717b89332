// L1 ClobAuth headers (docs/protocol.md §2): build and recover in both dialects, tamper detection,
// freshness, and the deterministic API-key derivation the simulator answers with.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Wallet } from 'ethers';
import { dialectFromConfig, DIALECTS } from '../../../src/exchange/dialect.js';
import { AuthError } from '../../../src/exchange/auth/errors.js';
import { buildL1Headers, deriveApiCredentials, recoverL1Address } from '../../../src/exchange/auth/l1.js';
import { buildL2Headers, verifyL2Headers } from '../../../src/exchange/auth/l2.js';

const wallet = new Wallet('0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318');
const other = new Wallet('0x8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f');

describe('L1 headers', () => {
  it('carry the four headers and recover to the wallet, in both dialects', async () => {
    for (const dialect of [DIALECTS.spec, DIALECTS.polymarket]) {
      const h = await buildL1Headers({ dialect, wallet, timestampSec: 1_790_000_000, nonce: 7 });
      const p = dialect.headerPrefix;
      expect(Object.keys(h).sort()).toEqual([`${p}ADDRESS`, `${p}NONCE`, `${p}SIGNATURE`, `${p}TIMESTAMP`]);
      expect(h[`${p}NONCE`]).toBe('7');
      expect(recoverL1Address(h, dialect)).toEqual({
        ok: true,
        address: wallet.address,
        nonce: '7',
        timestampSec: 1_790_000_000,
      });
      // Lower-cased names, as a Node server sees them.
      const lower = Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
      expect(recoverL1Address(lower, dialect).ok).toBe(true);
    }
  });

  it('fail when anything signed changes, or the chain differs', async () => {
    const d = DIALECTS.spec;
    const h = await buildL1Headers({ dialect: d, wallet, timestampSec: 1_790_000_000, nonce: 0n });
    const bad: Array<[Record<string, string | undefined>, string]> = [
      [{ ...h, SVC_NONCE: '1' }, 'was not made by'],
      [{ ...h, SVC_TIMESTAMP: '1790000001' }, 'was not made by'],
      [{ ...h, SVC_ADDRESS: other.address }, 'was not made by'],
      [{ ...h, SVC_SIGNATURE: undefined }, 'missing header SVC_SIGNATURE'],
      [{ ...h, SVC_SIGNATURE: '0x1234' }, 'not a 65-byte'],
      [{ ...h, SVC_TIMESTAMP: 'now' }, 'not Unix seconds'],
      [{ ...h, SVC_NONCE: '-1' }, 'not an unsigned integer'],
    ];
    for (const [headers, reason] of bad) {
      const r = recoverL1Address(headers, d);
      expect(r.ok, reason).toBe(false);
      if (!r.ok) expect(r.reason, reason).toContain(reason);
    }
    expect(recoverL1Address(h, dialectFromConfig('spec', { chainId: 1 })).ok).toBe(false);
    expect(recoverL1Address(h, DIALECTS.polymarket).ok).toBe(false);
  });

  it('check freshness when asked', async () => {
    const h = await buildL1Headers({ dialect: DIALECTS.spec, wallet, timestampSec: 1000, nonce: 1 });
    expect(recoverL1Address(h, DIALECTS.spec, { nowSec: 1030, maxSkewSec: 30 }).ok).toBe(true);
    expect(recoverL1Address(h, DIALECTS.spec, { nowSec: 1031, maxSkewSec: 30 })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('skew'),
    });
  });

  it('refuse bad inputs', async () => {
    await expect(
      buildL1Headers({ dialect: DIALECTS.spec, wallet, timestampSec: 1.5, nonce: 0 }),
    ).rejects.toBeInstanceOf(AuthError);
    await expect(buildL1Headers({ dialect: DIALECTS.spec, wallet, timestampSec: 1, nonce: -1 })).rejects.toBeInstanceOf(
      AuthError,
    );
  });
});

describe('deriveApiCredentials', () => {
  it('is deterministic per (server secret, address, nonce) and well-formed', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }), fc.nat(), (serverSecret, nonce) => {
        const a = deriveApiCredentials(serverSecret, wallet.address, nonce);
        const b = deriveApiCredentials(serverSecret, wallet.address.toLowerCase(), BigInt(nonce));
        expect([a.apiKey, a.secret, a.passphrase]).toEqual([b.apiKey, b.secret, b.passphrase]);
        expect(a.apiKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(Buffer.from(a.secret, 'base64')).toHaveLength(32);
        expect(a.secret).toMatch(/^[A-Za-z0-9+/]{43}=$/);
        expect(a.passphrase).toMatch(/^[0-9a-f]{64}$/);
      }),
      { numRuns: 100 },
    );
  });

  it('gives unrelated credentials to another nonce, address or server secret', () => {
    const base = deriveApiCredentials('server', wallet.address, 0);
    for (const c of [
      deriveApiCredentials('server', wallet.address, 1),
      deriveApiCredentials('server', other.address, 0),
      deriveApiCredentials('server2', wallet.address, 0),
    ]) {
      expect(c.apiKey).not.toBe(base.apiKey);
      expect(c.secret).not.toBe(base.secret);
      expect(c.passphrase).not.toBe(base.passphrase);
    }
    expect(() => deriveApiCredentials('', wallet.address, 0)).toThrow(AuthError);
  });

  it('issues credentials that work for L2 signing end to end', () => {
    const creds = deriveApiCredentials(Buffer.from('simulator secret'), wallet.address, 3);
    const h = buildL2Headers({
      dialect: DIALECTS.spec,
      credentials: creds,
      address: wallet.address,
      method: 'DELETE',
      path: '/order',
      body: '{"orderId":"0x1"}',
      timestampSec: 100,
    });
    const r = verifyL2Headers({
      dialect: DIALECTS.spec,
      headers: h,
      method: 'DELETE',
      path: '/order',
      body: '{"orderId":"0x1"}',
      nowSec: 100,
      maxSkewSec: 30,
      lookupCredentials: (k) => (k === creds.apiKey ? { credentials: creds, address: wallet.address } : undefined),
    });
    expect(r).toEqual({ ok: true, apiKey: creds.apiKey, address: wallet.address });
    expect(JSON.stringify(creds)).not.toContain(creds.secret);
  });
});
