// `oddsmaker auth headers` through its action function and through commander: exact body bytes,
// dialects, usage and credentials errors.
import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { VirtualClock } from '../../src/core/clock.js';
import { UsageError } from '../../src/cli/exit-codes.js';
import { authHeaders, register } from '../../src/cli/auth-headers.js';
import { CredentialsError } from '../../src/exchange/auth/errors.js';
import { hmacSignature, verifyL2Headers } from '../../src/exchange/auth/l2.js';
import { credentialsFromEnv } from '../../src/exchange/auth/credentials.js';
import { DIALECTS } from '../../src/exchange/dialect.js';

const ENV = {
  ODDSMAKER_API_KEY: '2f1b7d3e-8c4a-4e6b-9d2f-1a3b5c7d9e0f',
  ODDSMAKER_API_SECRET: 'c2VjcmV0LWJ5dGVzLWZvci10ZXN0aW5nLW9ubHktMzI=',
  ODDSMAKER_API_PASSPHRASE: 'ab'.repeat(32),
  ODDSMAKER_ADDRESS: '0x90f8bf6a479f320ead074411a4b0e7944ea8c9c1',
};
const BODY = '{"orderId": "0xabc"}\n';

function deps(env: Record<string, string> = ENV) {
  const chunks: string[] = [];
  const files = new Map([['body.json', BODY]]);
  return {
    env,
    out: { write: (s: string) => chunks.push(s) },
    clock: new VirtualClock(1_790_000_000_999),
    readFile: async (p: string) => {
      const f = files.get(p);
      if (f === undefined) throw Object.assign(new Error('nope'), { code: 'ENOENT' });
      return f;
    },
    text: () => chunks.join(''),
  };
}

describe('auth headers', () => {
  it('prints the L2 headers over the exact body file, timestamped by the clock', async () => {
    const d = deps();
    const h = await authHeaders({ method: 'delete', path: '/order', bodyFile: 'body.json' }, d);
    expect(JSON.parse(d.text())).toEqual(h);
    expect(h).toEqual({
      SVC_ADDRESS: '0x90F8bf6A479f320ead074411a4B0e7944Ea8c9C1',
      SVC_SIGNATURE: hmacSignature(ENV.ODDSMAKER_API_SECRET, `1790000000DELETE/order${BODY}`, 'hex'),
      SVC_TIMESTAMP: '1790000000',
      SVC_API_KEY: ENV.ODDSMAKER_API_KEY,
      SVC_PASSPHRASE: ENV.ODDSMAKER_API_PASSPHRASE,
    });
    expect(d.text()).not.toContain(ENV.ODDSMAKER_API_SECRET);
    const creds = credentialsFromEnv(ENV);
    expect(
      verifyL2Headers({
        dialect: DIALECTS.spec,
        headers: h,
        method: 'DELETE',
        path: '/order',
        body: BODY,
        nowSec: 1_790_000_010,
        maxSkewSec: 30,
        lookupCredentials: () => ({ credentials: creds, address: ENV.ODDSMAKER_ADDRESS }),
      }).ok,
    ).toBe(true);
  });

  it('signs no body without --body-file, honours --timestamp and the polymarket dialect', async () => {
    const h = await authHeaders(
      { method: 'GET', path: '/data/order/0xab', timestamp: '1000000', dialect: 'polymarket' },
      deps(),
    );
    expect(h['POLY_SIGNATURE']).toBe(
      hmacSignature(ENV.ODDSMAKER_API_SECRET, '1000000GET/data/order/0xab', 'base64url'),
    );
    expect(h['POLY_TIMESTAMP']).toBe('1000000');
  });

  it('turns bad flags into usage errors and missing credentials into config errors', async () => {
    const bad: Array<[Parameters<typeof authHeaders>[0], RegExp]> = [
      [{ method: 'GET', path: '/orders?limit=5' }, /query string/],
      [{ method: 'GET', path: 'orders' }, /--path/],
      [{ method: 'G3T', path: '/orders' }, /--method/],
      [{ method: 'GET', path: '/orders', timestamp: '-1' }, /--timestamp/],
      [{ method: 'POST', path: '/order', bodyFile: 'missing.json' }, /cannot read missing\.json \(ENOENT\)/],
    ];
    for (const [o, re] of bad) {
      const err = await authHeaders(o, deps()).catch((e: unknown) => e);
      expect(err, String(re)).toBeInstanceOf(UsageError);
      expect((err as Error).message).toMatch(re);
    }
    const { ODDSMAKER_API_PASSPHRASE: _p, ...noPass } = ENV;
    const err = await authHeaders({ method: 'GET', path: '/x' }, deps(noPass)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CredentialsError);
    expect((err as Error).message).toMatch(/ODDSMAKER_API_PASSPHRASE is not set/);
    const noAddr = await authHeaders({ method: 'GET', path: '/x' }, deps({ ...ENV, ODDSMAKER_ADDRESS: '' })).catch(
      (e: unknown) => e,
    );
    expect((noAddr as Error).message).toMatch(/ODDSMAKER_ADDRESS/);
  });

  it('registers under commander as `auth headers`, next to an existing `auth` command', async () => {
    const d = deps();
    const program = new Command().exitOverride();
    program
      .command('auth')
      .command('derive')
      .action(() => undefined);
    register(program, d);
    expect(program.commands.filter((c) => c.name() === 'auth')).toHaveLength(1);
    await program.parseAsync(
      ['auth', 'headers', '--method', 'POST', '--path', '/order', '--body-file', 'body.json', '--timestamp', '5'],
      { from: 'user' },
    );
    expect(JSON.parse(d.text())).toMatchObject({
      SVC_TIMESTAMP: '5',
      SVC_SIGNATURE: hmacSignature(ENV.ODDSMAKER_API_SECRET, `5POST/order${BODY}`, 'hex'),
    });
  });
});
