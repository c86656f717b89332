// Redacting a URL's secrets before it is shown: the userinfo password and secret-looking query
// parameters become ***, everything else (scheme, user, host, port, path) stays; non-URLs pass.
import { describe, expect, it } from 'vitest';
import { redactUrl, redactUrlsIn, urlPassword } from '../../src/core/redact-url.js';

describe('redactUrl', () => {
  it('hides the password and secret parameters, keeps the address', () => {
    expect(redactUrl('redis://:hunter2@127.0.0.1:6379')).toBe('redis://:***@127.0.0.1:6379');
    expect(redactUrl('rediss://user:p%40ss@h.example:6380/2?password=x&db=2')).toBe(
      'rediss://user:***@h.example:6380/2?password=***&db=2',
    );
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(redactUrl('not a url')).toBe('not a url');
  });

  it('finds URLs inside a text, and gives the password itself for a secret filter', () => {
    expect(redactUrlsIn('{"kind":"x","url":"redis://u:hunter2@h:1"}')).toBe('{"kind":"x","url":"redis://u:***@h:1"}');
    expect(urlPassword('redis://:p%40ss@h:1')).toBe('p@ss');
    expect(urlPassword('redis://h:1')).toBe('');
  });
});
