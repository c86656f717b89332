// parseApiKeyCreds: shape checks, and no error message ever carries credential text. The values
// below are the public all-zero test secret of docs/protocol.md §1 and made-up key/passphrase.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/core/errors.js';
import { parseApiKeyCreds } from '../../../src/exchange/parse/auth.js';
import type { WireApiKeyCreds } from '../../../src/exchange/wire.js';

const creds: WireApiKeyCreds = {
  apiKey: '00000000-0000-4000-8000-000000000000',
  secret: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
  passphrase: '0'.repeat(64),
};

function errorOf(fn: () => unknown): ParseError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ParseError);
    return err as ParseError;
  }
  throw new Error('expected a ParseError');
}

describe('parseApiKeyCreds', () => {
  it('accepts well-formed credentials, URL-safe base64 secrets included', () => {
    expect(parseApiKeyCreds(creds)).toEqual(creds);
    expect(parseApiKeyCreds({ ...creds, secret: 'ab-_cd==' }).secret).toBe('ab-_cd==');
  });

  it('names the field and never echoes the value', () => {
    const bad = { ...creds, secret: 'not base64 $ecret!' };
    const e = errorOf(() => parseApiKeyCreds(bad));
    expect(e.path).toBe('secret');
    expect(e.message).not.toContain('ecret!');
    expect(errorOf(() => parseApiKeyCreds({ ...creds, passphrase: '' })).path).toBe('passphrase');
    expect(errorOf(() => parseApiKeyCreds({ ...creds, apiKey: 5 })).path).toBe('apiKey');
    expect(errorOf(() => parseApiKeyCreds({ secret: creds.secret })).message).not.toContain(creds.secret);
  });

  it('property: whatever invalid secret arrives, the error message does not contain it', () => {
    fc.assert(
      // A '$' makes the secret invalid and distinguishes it from any fixed message text.
      fc.property(
        fc.string().map((s) => `$${s}`),
        (secret) => {
          const e = errorOf(() => parseApiKeyCreds({ ...creds, secret }));
          expect(e.message).not.toContain(secret);
          expect(e.message).not.toContain(creds.passphrase);
        },
      ),
    );
  });
});
