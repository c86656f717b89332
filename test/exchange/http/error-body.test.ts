// Error-body decoding: both JSON shapes of interface §7, tolerated variants, and non-JSON bodies
// reduced to a short single-line snippet.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeErrorBody, SNIPPET_MAX } from '../../../src/exchange/http/error-body.js';

describe('decodeErrorBody', () => {
  it('reads {error}', () => {
    expect(decodeErrorBody('{"error":"Invalid order payload"}')).toEqual({
      message: 'Invalid order payload',
      errorType: null,
      structured: true,
    });
  });

  it('reads {type, error} of the catalog', () => {
    expect(decodeErrorBody('{"type":"not found error","error":"slug x not found"}')).toEqual({
      message: 'slug x not found',
      errorType: 'not found error',
      structured: true,
    });
    expect(decodeErrorBody('{"type":"bad request","error":"bad limit"}').errorType).toBe('bad request');
    expect(decodeErrorBody('{"type":"other","error":"e"}').errorType).toBeNull();
  });

  it('reads errorMsg of a placement result sent with an error status', () => {
    expect(decodeErrorBody('{"success":false,"errorMsg":"not enough balance / allowance","orderID":""}')).toEqual({
      message: 'not enough balance / allowance',
      errorType: null,
      structured: true,
    });
  });

  it('tolerates {message} and {error:{message}}', () => {
    expect(decodeErrorBody('{"message":"upstream"}').message).toBe('upstream');
    expect(decodeErrorBody('{"error":{"message":"nested"}}').message).toBe('nested');
  });

  it('uses the <title> of an HTML page, else its text', () => {
    expect(decodeErrorBody('<html><head><title> 502 Bad Gateway </title></head><body>x</body></html>').message).toBe(
      '502 Bad Gateway',
    );
    expect(
      decodeErrorBody('<html><style>p{}</style><body><p>Service &amp; site\n down</p></body></html>').message,
    ).toBe('Service & site down');
  });

  it('an empty body has no message', () => {
    expect(decodeErrorBody('   ').message).toBeNull();
  });

  it('never returns more than SNIPPET_MAX characters, on one line, for any body', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), (s) => {
        const m = decodeErrorBody(s).message;
        return (
          m === null ||
          (m.length <= SNIPPET_MAX && (!m.includes('\n') || s.trim().startsWith('{') || s.trim().startsWith('"')))
        );
      }),
    );
    expect(decodeErrorBody('x'.repeat(10_000)).message!.length).toBe(SNIPPET_MAX);
    expect(decodeErrorBody(JSON.stringify({ error: 'y'.repeat(10_000) })).message!.length).toBe(SNIPPET_MAX);
  });
});
