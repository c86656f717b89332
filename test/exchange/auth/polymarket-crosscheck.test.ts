// L1 and L2 headers of the polymarket dialect against Polymarket's official client
// (@polymarket/clob-client-v2's createL1Headers / createL2Headers), with an ethers v5 wallet as
// its documentation uses. Offline: building headers touches no network.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Wallet as WalletV5 } from '@ethersproject/wallet';
import { createL1Headers, createL2Headers } from '@polymarket/clob-client-v2';
import { Wallet } from 'ethers';
import { DIALECTS } from '../../../src/exchange/dialect.js';
import { makeCredentials } from '../../../src/exchange/auth/credentials.js';
import { buildL1Headers, recoverL1Address } from '../../../src/exchange/auth/l1.js';
import { buildL2Headers } from '../../../src/exchange/auth/l2.js';

const KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const v5 = new WalletV5(KEY);
const v6 = new Wallet(KEY);
const dialect = DIALECTS.polymarket;

describe('polymarket dialect auth against @polymarket/clob-client-v2', () => {
  it('reproduces the HMAC public vector through its L2 header builder', async () => {
    const creds = {
      key: '00000000-0000-4000-8000-000000000000',
      secret: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
      passphrase: '0'.repeat(64),
    };
    const theirs = await createL2Headers(
      v5 as never,
      creds,
      { method: 'test-sign', requestPath: '/orders', body: '{"hash": "0x123"}' },
      1000000,
    );
    expect(theirs.POLY_SIGNATURE).toBe('ZwAdJKvoYRlEKDkNMwd5BuwNNtg93kNaR_oU2HrfVvc=');
  });

  it('builds the same L2 headers for random requests', async () => {
    const samples = fc.sample(
      fc.record({
        secret: fc
          .uint8Array({ minLength: 32, maxLength: 32 })
          .map((b) => Buffer.from(b).toString('base64').replace(/\+/g, '-').replace(/\//g, '_')),
        method: fc.constantFrom('GET', 'POST', 'DELETE'),
        path: fc.stringMatching(/^\/[a-z0-9/-]{0,30}$/),
        body: fc.option(fc.json(), { nil: undefined }),
        ts: fc.integer({ min: 1_600_000_000, max: 2_000_000_000 }),
      }),
      { numRuns: 100, seed: 42 },
    );
    for (const s of samples) {
      const apiKey = '2f1b7d3e-8c4a-4e6b-9d2f-1a3b5c7d9e0f';
      const passphrase = 'ab'.repeat(32);
      const theirs = await createL2Headers(
        v5 as never,
        { key: apiKey, secret: s.secret, passphrase },
        { method: s.method, requestPath: s.path, ...(s.body === undefined ? {} : { body: s.body }) },
        s.ts,
      );
      const ours = buildL2Headers({
        dialect,
        credentials: makeCredentials({ apiKey, secret: s.secret, passphrase }),
        address: v6.address,
        method: s.method,
        path: s.path,
        body: s.body,
        timestampSec: s.ts,
      });
      expect(ours).toEqual({ ...theirs });
    }
  });

  it('builds the same L1 headers, and recovers its headers', async () => {
    for (const [ts, nonce] of [
      [1_790_000_000, 0],
      [1_700_000_123, 5],
      [1_800_000_000, 123456789],
    ] as const) {
      const theirs = await createL1Headers(v5 as never, 137, nonce, ts);
      const ours = await buildL1Headers({ dialect, wallet: v6, timestampSec: ts, nonce });
      expect(ours).toEqual({ ...theirs });
      expect(recoverL1Address(theirs as unknown as Record<string, string>, dialect)).toMatchObject({
        ok: true,
        address: v6.address,
        nonce: String(nonce),
      });
    }
  });
});
