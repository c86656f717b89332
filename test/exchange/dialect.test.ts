// Dialects: the values of docs/protocol.md's table, lookup by name, and config overrides.
import { describe, expect, it } from 'vitest';
import { dialectFromConfig, DialectError, DIALECTS, getDialect } from '../../src/exchange/dialect.js';
import { domainSeparator } from '../../src/exchange/signing/eip712.js';

describe('dialects', () => {
  it('hold the values of docs/protocol.md table', () => {
    expect(DIALECTS.spec).toEqual({
      name: 'spec',
      headerPrefix: 'SVC_',
      signatureEncoding: 'hex',
      chainId: 31337,
      exchangeName: 'Prediction Market Exchange',
      exchangeVersion: '2',
      verifyingContract: '0x00000000000000000000000000000000000000e1',
      negRiskVerifyingContract: '0x00000000000000000000000000000000000000E2',
      saltOnWire: 'string',
      readWire: 'interface',
      orderWire: 'interface',
      pricesItemSide: false,
      fees: 'base-bps',
    });
    expect(DIALECTS.polymarket).toMatchObject({
      name: 'polymarket',
      headerPrefix: 'POLY_',
      signatureEncoding: 'base64url',
      chainId: 137,
      exchangeName: 'Polymarket CTF Exchange',
      exchangeVersion: '2',
      verifyingContract: '0xE111180000d2663C0091e4f400237545B87B996B',
      negRiskVerifyingContract: '0xe2222d279d744050d28e00520010520000310F59',
      saltOnWire: 'number',
      readWire: 'public',
      orderWire: 'public',
      pricesItemSide: true,
      fees: 'fee-details',
    });
    expect(Object.isFrozen(DIALECTS.spec)).toBe(true);
  });

  it('are looked up by name, and an unknown name is a config error naming it', () => {
    expect(getDialect('polymarket')).toBe(DIALECTS.polymarket);
    let err: unknown;
    try {
      getDialect('kalshi');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DialectError);
    expect((err as DialectError).code).toBe('CONFIG_DIALECT');
    expect((err as Error).message).toContain('"kalshi"');
    expect((err as Error).message).toContain('spec, polymarket');
  });

  it('take overrides from config as a new frozen object with its own domain separator', () => {
    expect(dialectFromConfig('spec')).toBe(DIALECTS.spec);
    const d = dialectFromConfig('spec', {
      chainId: 1337,
      verifyingContract: '0x1111111111111111111111111111111111111111',
    });
    expect(d).toMatchObject({
      name: 'spec',
      chainId: 1337,
      verifyingContract: '0x1111111111111111111111111111111111111111',
      negRiskVerifyingContract: DIALECTS.spec.negRiskVerifyingContract,
    });
    expect(Object.isFrozen(d)).toBe(true);
    expect(DIALECTS.spec.chainId).toBe(31337);
    expect(domainSeparator(d, false)).not.toBe(domainSeparator(DIALECTS.spec, false));
    expect(domainSeparator(d, true)).not.toBe(domainSeparator(DIALECTS.spec, true));
    expect(() => dialectFromConfig('spec', { chainId: 0 })).toThrow(DialectError);
    expect(() => dialectFromConfig('spec', { verifyingContract: '0x12' })).toThrow(/not an address/);
    expect(() =>
      dialectFromConfig('spec', { negRiskVerifyingContract: '0xE111180000d2663C0091e4f400237545B87B996b' }),
    ).toThrow(/checksum/);
  });
});
