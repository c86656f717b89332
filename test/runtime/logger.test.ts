// The logger: JSON lines timed by the injected clock, a readable form, and no secret on any line
// whatever shape carries it (credentials objects, signed L1/L2 headers of both dialects, nested
// objects, child bindings, errors, message text).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { VirtualClock } from '../../src/core/clock.js';
import { Wallet } from 'ethers';
import { buildL1Headers } from '../../src/exchange/auth/l1.js';
import { buildL2Headers } from '../../src/exchange/auth/l2.js';
import { credentialsFromEnv } from '../../src/exchange/auth/credentials.js';
import { getDialect } from '../../src/exchange/dialect.js';
import {
  createLogger,
  isSecretKey,
  readableLine,
  REDACTED,
  scrub,
  secretValueFilter,
} from '../../src/runtime/logger.js';

const SECRET = 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3I=';
const PASSPHRASE = 'ab'.repeat(32);
const API_KEY = '123e4567-e89b-12d3-a456-426614174000';
const PRIVATE_KEY = `0x${'59'.repeat(32)}`;

function capture(opts: { pretty?: boolean; secrets?: string[] } = {}) {
  const clock = new VirtualClock(Date.UTC(2026, 0, 1, 12, 30, 5, 250));
  const lines: string[] = [];
  const log = createLogger({
    clock,
    pretty: opts.pretty ?? false,
    destination: {
      write: (l) => {
        lines.push(l);
      },
    },
    base: null,
    ...(opts.secrets !== undefined ? { secrets: opts.secrets } : {}),
  });
  return { clock, lines, log };
}

function assertClean(text: string): void {
  for (const s of [SECRET, PASSPHRASE, PRIVATE_KEY, PRIVATE_KEY.slice(2)]) expect(text).not.toContain(s);
}

describe('logger output', () => {
  it('writes one JSON line per record, timed by the injected clock', () => {
    const { lines, log, clock } = capture();
    log.info({ books: 500, quotes: 1200 }, 'cycle');
    clock.advance(1000);
    log.warn('late');
    expect(lines).toHaveLength(2);
    const a = JSON.parse(lines[0] as string) as Record<string, unknown>;
    expect(a).toEqual({
      level: 30,
      time: Date.UTC(2026, 0, 1, 12, 30, 5, 250),
      msg: 'cycle',
      books: 500,
      quotes: 1200,
    });
    expect((JSON.parse(lines[1] as string) as { time: number }).time).toBe(Date.UTC(2026, 0, 1, 12, 30, 6, 250));
  });

  it('honours the level', () => {
    const clock = new VirtualClock();
    const lines: string[] = [];
    const log = createLogger({
      clock,
      level: 'warn',
      pretty: false,
      destination: {
        write: (l) => {
          lines.push(l);
        },
      },
    });
    log.info('hidden');
    log.error('shown');
    expect(lines).toHaveLength(1);
  });

  it('prints a readable line on request', () => {
    const { lines, log } = capture({ pretty: true });
    log.info({ books: 500, pnl: '-1.25', note: 'two words' }, 'cycle');
    expect(lines[0]).toBe('12:30:05.250 INFO  cycle books=500 pnl=-1.25 note="two words"\n');
  });

  it('prints an error with its stack under the readable line', () => {
    const { lines, log } = capture({ pretty: true });
    log.error({ err: new TypeError('bad input') }, 'failed');
    const [first, ...rest] = (lines[0] as string).split('\n');
    expect(first).toBe('12:30:05.250 ERROR failed err="TypeError: bad input"');
    expect(rest.some((l) => l.includes('logger.test.ts'))).toBe(true);
  });

  it('passes non-JSON text through the readable formatter', () => {
    expect(readableLine('plain text')).toBe('plain text\n');
  });
});

describe('secret redaction', () => {
  it('never prints the fields of a credentials object, plain or self-redacting', () => {
    const { lines, log } = capture();
    const creds = credentialsFromEnv({
      ODDSMAKER_API_KEY: API_KEY,
      ODDSMAKER_API_SECRET: SECRET,
      ODDSMAKER_API_PASSPHRASE: PASSPHRASE,
    });
    log.info({ creds }, 'loaded');
    log.info({ creds: { apiKey: API_KEY, secret: SECRET, passphrase: PASSPHRASE } }, 'plain');
    log.info({ secret: SECRET, passphrase: PASSPHRASE, privateKey: PRIVATE_KEY }, 'top level');
    const text = lines.join('');
    assertClean(text);
    const plain = JSON.parse(lines[1] as string) as { creds: Record<string, string> };
    expect(plain.creds).toEqual({ apiKey: REDACTED, secret: REDACTED, passphrase: REDACTED });
  });

  it('never prints signed L2 headers of either dialect', () => {
    const { lines, log } = capture();
    const creds = credentialsFromEnv({
      ODDSMAKER_API_KEY: API_KEY,
      ODDSMAKER_API_SECRET: SECRET,
      ODDSMAKER_API_PASSPHRASE: PASSPHRASE,
    });
    for (const name of ['spec', 'polymarket'] as const) {
      const headers = buildL2Headers({
        dialect: getDialect(name),
        credentials: creds,
        address: '0x0000000000000000000000000000000000000001',
        timestampSec: 1_700_000_000,
        method: 'POST',
        path: '/orders',
        body: '[]',
      });
      log.info({ headers }, 'request');
      log.info(
        { req: { headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])) } },
        'lower-case',
      );
      log.info({ request: { method: 'POST', headers } }, 'nested');
      for (const [k, v] of Object.entries(headers)) {
        if (/SIGNATURE|PASSPHRASE|API_KEY/.test(k)) expect(lines.join('')).not.toContain(v);
      }
    }
    assertClean(lines.join(''));
    const first = JSON.parse(lines[0] as string) as { headers: Record<string, string> };
    expect(first.headers.SVC_TIMESTAMP).toBe('1700000000');
    expect(first.headers.SVC_SIGNATURE).toBe(REDACTED);
  });

  it('never prints the signature of L1 headers, nor the wallet key', async () => {
    const { lines, log } = capture();
    const wallet = new Wallet(PRIVATE_KEY);
    for (const name of ['spec', 'polymarket'] as const) {
      const headers = await buildL1Headers({
        dialect: getDialect(name),
        wallet,
        timestampSec: 1_700_000_000,
        nonce: 0,
      });
      log.info({ headers }, 'derive');
      const sig = Object.entries(headers).find(([k]) => k.endsWith('SIGNATURE'))?.[1] as string;
      expect(sig).toMatch(/^0x[0-9a-f]{130}$/);
      expect(lines.join('')).not.toContain(sig);
    }
    log.info({ wallet: { address: wallet.address, privateKey: wallet.privateKey } }, 'wallet');
    assertClean(lines.join(''));
    expect(lines.join('')).toContain(wallet.address);
  });

  it('redacts at any depth, in arrays, maps, child bindings and errors', () => {
    const { lines, log } = capture();
    log.info(
      {
        a: { b: { c: { d: { privateKey: PRIVATE_KEY } } } },
        list: [{ api_secret: SECRET }],
        m: new Map([['POLY_PASSPHRASE', PASSPHRASE]]),
      },
      'deep',
    );
    log.child({ auth: { passphrase: PASSPHRASE } }).info('child');
    const err = Object.assign(new Error('request failed'), {
      config: { headers: { Authorization: `Bearer ${SECRET}` } },
    });
    log.error({ err }, 'error');
    assertClean(lines.join(''));
    expect(JSON.parse(lines[2] as string)).toMatchObject({
      err: { message: 'request failed', config: { headers: { Authorization: REDACTED } } },
    });
  });

  it('censors given secret values even inside message text', () => {
    const { lines, log } = capture({ secrets: [SECRET, PASSPHRASE, PRIVATE_KEY] });
    log.warn(`could not decode ${SECRET}`);
    log.error({ err: new Error(`bad key ${PRIVATE_KEY}`) }, `passphrase ${PASSPHRASE} rejected`);
    assertClean(lines.join(''));
    expect(lines[0]).toContain(`could not decode ${REDACTED}`);
  });

  it('classifies secret key names across spellings', () => {
    for (const k of [
      'secret',
      'apiSecret',
      'passphrase',
      'SVC_PASSPHRASE',
      'poly_signature',
      'POLY_API_KEY',
      'privateKey',
      'private_key',
      'Authorization',
      'proxy-authorization',
      'ODDSMAKER_KEYSTORE_PASSWORD',
    ]) {
      expect(isSecretKey(k), k).toBe(true);
    }
    for (const k of ['SVC_TIMESTAMP', 'SVC_ADDRESS', 'tokenId', 'price', 'market', 'seed'])
      expect(isSecretKey(k), k).toBe(false);
  });

  it('property: a secret under any secret-bearing key at any depth never reaches the line', () => {
    const keyArb = fc.constantFrom(
      'secret',
      'passphrase',
      'privateKey',
      'SVC_SIGNATURE',
      'POLY_PASSPHRASE',
      'svc_api_key',
      'authorization',
    );
    const pathArb = fc.array(fc.constantFrom('a', 'headers', 'creds', 'x_y'), { maxLength: 6 });
    fc.assert(
      fc.property(pathArb, keyArb, fc.stringMatching(/^[A-Za-z0-9+/]{16,40}$/), (path, key, secret) => {
        let obj: Record<string, unknown> = { [key]: secret };
        for (const p of [...path].reverse()) obj = { [p]: obj };
        const { lines, log } = capture();
        log.info(obj, 'p');
        return !(lines[0] as string).includes(secret);
      }),
    );
  });

  it('scrub leaves the input untouched and handles cycles', () => {
    const o: Record<string, unknown> = { secret: SECRET, n: 1 };
    o.self = o;
    const s = scrub(o) as Record<string, unknown>;
    expect(o.secret).toBe(SECRET);
    expect(s).toEqual({ secret: REDACTED, n: 1, self: '[circular]' });
  });

  it('the value filter ignores strings too short to be secrets', () => {
    expect(secretValueFilter(['abc'])('abc def')).toBe('abc def');
    expect(secretValueFilter([SECRET])(`x${SECRET}y${SECRET}`)).toBe(`x${REDACTED}y${REDACTED}`);
  });
});
