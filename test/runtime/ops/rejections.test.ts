// Rejection reasons: every per-order and request-level message of docs/protocol.md §4 maps to its own
// reason, and any text at all maps into the fixed set (so a label can never grow with traffic).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REJECTION_REASONS, rejectionReason } from '../../../src/runtime/ops/rejections.js';

describe('rejectionReason', () => {
  it('names each message of the protocol', () => {
    const cases: Array<[string, string]> = [
      ['order 0xab12 is invalid. Price (0.123) breaks minimum tick size rule: 0.01', 'tick-size'],
      ['order 0xab12 is invalid. Size (1) lower than the minimum: 5', 'min-size'],
      ['order 0xab12 is invalid. Duplicated.', 'duplicated'],
      ['not enough balance / allowance', 'balance'],
      ['invalid post-only order: order crosses book', 'post-only-cross'],
      ["order couldn't be fully filled. FOK orders are fully filled or killed.", 'fok-unfilled'],
      [
        'no orders found to match with FAK order. FAK orders are partially filled or killed if no match is found.',
        'fak-unmatched',
      ],
      ['the market is not yet ready to process new orders', 'market-not-ready'],
      ['Invalid order payload', 'invalid-payload'],
      ['Too many orders in payload: 16, max allowed: 15', 'too-many-orders'],
      ['the order owner has to be the owner of the API KEY', 'owner-mismatch'],
      ['Unauthorized/Invalid api key', 'unauthorized'],
      ['request failed before reaching the book: EXCHANGE_UNAVAILABLE', 'request-failed'],
      ['', 'other'],
      ['a brand new error', 'other'],
    ];
    for (const [msg, reason] of cases) expect(rejectionReason(msg), msg).toBe(reason);
  });

  it('maps any text into the fixed set', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) =>
        (REJECTION_REASONS as readonly string[]).includes(rejectionReason(s)),
      ),
    );
  });
});
