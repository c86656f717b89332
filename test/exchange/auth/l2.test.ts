// L2 HMAC signing (docs/protocol.md §1): the public vector in both dialects, header building, and the
// simulator-side verification with a named reason for every failure.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DIALECTS } from '../../../src/exchange/dialect.js';
import { makeCredentials } from '../../../src/exchange/auth/credentials.js';
import { AuthError, CredentialsError } from '../../../src/exchange/auth/errors.js';
import {
  buildL2Headers,
  hmacSignature,
  l2SigningString,
  verifyL2Headers,
  type KnownApiKey,
} from '../../../src/exchange/auth/l2.js';

// Public vector of docs/protocol.md §1.
const VECTOR = {
  secret: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
  message: '1000000test-sign/orders{"hash": "0x123"}',
};
const VECTOR_B64 = 'ZwAdJKvoYRlEKDkNMwd5BuwNNtg93kNaR_oU2HrfVvc=';

const creds = makeCredentials({
  apiKey: '2f1b7d3e-8c4a-4e6b-9d2f-1a3b5c7d9e0f',
  secret: 'c2VjcmV0LWJ5dGVzLWZvci10ZXN0aW5nLW9ubHktMzI=',
  passphrase: 'a'.repeat(64),
});
const ADDRESS = '0x90F8bf6A479f320ead074411a4B0e7944Ea8c9C1';
const known: KnownApiKey = { credentials: creds, address: ADDRESS };
const lookup = (k: string): KnownApiKey | undefined => (k === creds.apiKey ? known : undefined);

describe('L2 HMAC', () => {
  it('matches the public test vector in both dialects', () => {
    expect(hmacSignature(VECTOR.secret, VECTOR.message, 'base64url')).toBe(VECTOR_B64);
    const hex = hmacSignature(VECTOR.secret, VECTOR.message, 'hex');
    expect(hex).toMatch(/^[0-9a-f]{64}$/);
    expect(
      Buffer.from(hex, 'hex').equals(Buffer.from(VECTOR_B64.replace(/-/g, '+').replace(/_/g, '/'), 'base64')),
    ).toBe(true);
    expect(l2SigningString(1000000, 'test-sign', '/orders', '{"hash": "0x123"}')).toBe(
      VECTOR.message.replace('test-sign', 'TEST-SIGN'),
    );
  });

  it('accepts URL-safe secrets and refuses non-base64 ones without echoing them', () => {
    const std = 'ab+/ab+/ab+/ab+/ab+/ab+/ab+/ab+/ab+/ab+/ab8=';
    const url = std.replace(/\+/g, '-').replace(/\//g, '_');
    expect(hmacSignature(url, 'm', 'hex')).toBe(hmacSignature(std, 'm', 'hex'));
    const bad = 'not base64 at all!';
    let err: unknown;
    try {
      hmacSignature(bad, 'm', 'hex');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CredentialsError);
    expect(String((err as Error).message)).not.toContain(bad);
  });
});

describe('buildL2Headers', () => {
  it('sends the five headers with the dialect prefix and encoding', () => {
    const input = {
      credentials: creds,
      address: ADDRESS.toLowerCase(),
      method: 'post',
      path: '/order',
      body: '{"a":1}',
      timestampSec: 1_790_000_000,
    };
    const spec = buildL2Headers({ ...input, dialect: DIALECTS.spec });
    expect(Object.keys(spec).sort()).toEqual([
      'SVC_ADDRESS',
      'SVC_API_KEY',
      'SVC_PASSPHRASE',
      'SVC_SIGNATURE',
      'SVC_TIMESTAMP',
    ]);
    expect(spec).toMatchObject({
      SVC_ADDRESS: ADDRESS,
      SVC_API_KEY: creds.apiKey,
      SVC_PASSPHRASE: creds.passphrase,
      SVC_TIMESTAMP: '1790000000',
    });
    expect(spec['SVC_SIGNATURE']).toBe(hmacSignature(creds.secret, '1790000000POST/order{"a":1}', 'hex'));
    const poly = buildL2Headers({ ...input, dialect: DIALECTS.polymarket });
    expect(poly['POLY_SIGNATURE']).toBe(hmacSignature(creds.secret, '1790000000POST/order{"a":1}', 'base64url'));
    expect(Buffer.from(poly['POLY_SIGNATURE']!.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('hex')).toBe(
      spec['SVC_SIGNATURE'],
    );
  });

  it('appends nothing for a missing body, and signs the exact body bytes otherwise', () => {
    const base = {
      dialect: DIALECTS.spec,
      credentials: creds,
      address: ADDRESS,
      method: 'GET',
      path: '/data/order/0xab',
      timestampSec: 5,
    };
    expect(buildL2Headers({ ...base, body: undefined })['SVC_SIGNATURE']).toBe(
      hmacSignature(creds.secret, '5GET/data/order/0xab', 'hex'),
    );
    const a = buildL2Headers({ ...base, method: 'POST', body: '{"a":1}' })['SVC_SIGNATURE'];
    const b = buildL2Headers({ ...base, method: 'POST', body: '{"a": 1}' })['SVC_SIGNATURE'];
    expect(a).not.toBe(b);
  });

  it('refuses a query string, a relative path, a fractional timestamp, a bad method or address', () => {
    const base = {
      dialect: DIALECTS.spec,
      credentials: creds,
      address: ADDRESS,
      method: 'GET',
      path: '/orders',
      body: undefined,
      timestampSec: 5,
    };
    expect(() => buildL2Headers({ ...base, path: '/orders?id=1' })).toThrow(AuthError);
    expect(() => buildL2Headers({ ...base, path: 'orders' })).toThrow(AuthError);
    expect(() => buildL2Headers({ ...base, timestampSec: 5.5 })).toThrow(AuthError);
    expect(() => buildL2Headers({ ...base, method: 'GE T' })).toThrow(AuthError);
    expect(() => buildL2Headers({ ...base, address: '0x1234' })).toThrow(CredentialsError);
  });
});

describe('verifyL2Headers', () => {
  const now = 1_790_000_000;
  function req(
    dialect = DIALECTS.spec,
    over: Partial<{ method: string; path: string; body: string | undefined; ts: number }> = {},
  ) {
    const method = over.method ?? 'POST';
    const path = over.path ?? '/order';
    const body = 'body' in over ? over.body : '{"order":{}}';
    const headers = buildL2Headers({
      dialect,
      credentials: creds,
      address: ADDRESS,
      method,
      path,
      body,
      timestampSec: over.ts ?? now,
    });
    // Node hands a server lower-cased header names.
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    return { dialect, headers: lower, method, path, body, nowSec: now, maxSkewSec: 30, lookupCredentials: lookup };
  }

  it('accepts what buildL2Headers signs, for random methods, paths and bodies, in both dialects', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('GET', 'POST', 'DELETE'),
        fc.stringMatching(/^\/[a-z0-9/_-]{0,40}$/),
        fc.option(fc.string({ unit: 'grapheme', maxLength: 200 }), { nil: undefined }),
        fc.integer({ min: -30, max: 30 }),
        fc.constantFrom(DIALECTS.spec, DIALECTS.polymarket),
        (method, path, body, skew, dialect) => {
          const r = req(dialect, { method, path, body, ts: now + skew });
          expect(verifyL2Headers(r)).toEqual({ ok: true, apiKey: creds.apiKey, address: ADDRESS });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('names the reason for each failure', () => {
    const ok = req();
    const cases: Array<[string, Parameters<typeof verifyL2Headers>[0]]> = [
      ['missing header SVC_PASSPHRASE', { ...ok, headers: { ...ok.headers, svc_passphrase: undefined } }],
      ['outside the permitted skew', req(DIALECTS.spec, { ts: now - 31 })],
      ['outside the permitted skew', req(DIALECTS.spec, { ts: now + 31 })],
      ['not Unix seconds', { ...ok, headers: { ...ok.headers, svc_timestamp: '1.5' } }],
      ['unknown SVC_API_KEY', { ...ok, lookupCredentials: () => undefined }],
      ['SVC_PASSPHRASE does not match', { ...ok, headers: { ...ok.headers, svc_passphrase: 'b'.repeat(64) } }],
      [
        "SVC_ADDRESS is not the key's address",
        { ...ok, headers: { ...ok.headers, svc_address: '0x0000000000000000000000000000000000000001' } },
      ],
      ['SVC_SIGNATURE does not match', { ...ok, body: '{"order":{"x":1}}' }],
      ['SVC_SIGNATURE does not match', { ...ok, method: 'DELETE' }],
      ['SVC_SIGNATURE does not match', { ...ok, path: '/orders' }],
      ['SVC_SIGNATURE is not hex', { ...ok, headers: { ...ok.headers, svc_signature: 'zz' } }],
      ['missing header SVC_ADDRESS', { ...ok, dialect: DIALECTS.spec, headers: req(DIALECTS.polymarket).headers }],
    ];
    for (const [reason, input] of cases) {
      const r = verifyL2Headers(input);
      expect(r.ok, reason).toBe(false);
      if (!r.ok) expect(r.reason, reason).toContain(reason);
    }
  });

  it('never puts the secret or passphrase in a reason', () => {
    const ok = req();
    const r = verifyL2Headers({ ...ok, headers: { ...ok.headers, svc_passphrase: 'c'.repeat(64) } });
    expect(JSON.stringify(r)).not.toContain(creds.passphrase);
    expect(JSON.stringify(r)).not.toContain(creds.secret);
  });

  it('accepts a polymarket signature sent without its padding', () => {
    const r = req(DIALECTS.polymarket);
    const sig = r.headers['poly_signature']!;
    expect(verifyL2Headers({ ...r, headers: { ...r.headers, poly_signature: sig.replace(/=+$/, '') } }).ok).toBe(true);
  });
});
