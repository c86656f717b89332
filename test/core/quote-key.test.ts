// The quote key: `token|side|price`, the same string object for the same quote every time (so the
// maps keyed by it hash it once), distinct for each side and price, and still right after the
// interning cache starts afresh.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoteKey } from '../../src/core/quote.js';

const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';

describe('quoteKey', () => {
  it('is token|side|price, one string object per quote, distinct across sides and prices', () => {
    const a = quoteKey(TOKEN, 'BUY', 420_000);
    expect(a).toBe(`${TOKEN}|BUY|420000`);
    expect(Object.is(quoteKey(TOKEN, 'BUY', 420_000), a)).toBe(true);
    expect(quoteKey(TOKEN, 'SELL', 420_000)).toBe(`${TOKEN}|SELL|420000`);
    expect(quoteKey(TOKEN, 'BUY', 0)).toBe(`${TOKEN}|BUY|0`);
    expect(quoteKey(TOKEN, 'SELL', 0)).toBe(`${TOKEN}|SELL|0`);
  });

  it('equals the plain concatenation for any token, side and price, past the cache cap too', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.stringMatching(/^[0-9]{1,78}$/), fc.constantFrom('BUY', 'SELL'), fc.nat(1_000_000)), {
          maxLength: 50,
        }),
        (quotes) => {
          for (const [t, s, p] of quotes) expect(quoteKey(t, s as 'BUY' | 'SELL', p)).toBe(`${t}|${s}|${p}`);
        },
      ),
      { numRuns: 300 },
    );
    // Over 200,000 distinct keys: the cache starts afresh and keys stay right.
    for (let p = 0; p < 210_000; p++) quoteKey('9', p % 2 === 0 ? 'BUY' : 'SELL', p);
    expect(quoteKey(TOKEN, 'BUY', 420_000)).toBe(`${TOKEN}|BUY|420000`);
    expect(quoteKey('9', 'SELL', 209_999)).toBe('9|SELL|209999');
  });
});
