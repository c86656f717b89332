// Ledger vs exchange positions: integer comparison with a 0.000001-share tolerance, both ways of
// naming a token (token id, or `<condition_id>:<outcome_index>` per the interface), the exchange's
// size threshold, redeemable positions, and a real recorded /positions payload.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { diffPositions, tokenResolver, type ExchangePositionLike } from '../../src/ledger/positions-diff.js';
import { COND, NO, YES } from './helpers.js';
import { realJson } from '../support/fixtures.js';

interface V2Position {
  token_id: string;
  condition_id: string;
  current_size: number;
  outcome_index: number;
  redeemable: boolean;
}
const real = realJson('data_api_v2_positions.json') as V2Position[];
const realAsExchange: ExchangePositionLike[] = real.map((p) => ({
  tokenId: p.token_id,
  conditionId: p.condition_id,
  size: p.current_size,
  redeemable: p.redeemable,
}));

describe('diffPositions', () => {
  it('finds no difference when the ledger agrees with a real /positions payload', () => {
    // Both sides of "JD Vance wins 2028", 400 000 shares each.
    const ledger = [
      { tokenId: YES, size: 400_000_000_000 },
      { tokenId: NO, size: 400_000_000_000 },
    ];
    expect(diffPositions(ledger, realAsExchange)).toEqual([]);
  });

  it('reports mismatches, missing positions on either side, beyond 0.000001 share', () => {
    const ledger = [
      { tokenId: YES, size: 400_000_000_001 }, // 0.000001 share more: within tolerance
      { tokenId: NO, size: 399_999_000_000 }, // 1 share less
      { tokenId: 'ledger-only', size: 5_000_000 },
      { tokenId: 'flat', size: 0 },
    ];
    const exchange = [...realAsExchange, { tokenId: 'exchange-only', size: 0.25 }];
    expect(diffPositions(ledger, exchange)).toEqual([
      {
        kind: 'size_mismatch',
        tokenId: NO,
        asset: null,
        ledgerSize: 399_999_000_000,
        exchangeSize: 400_000_000_000,
        diff: 1_000_000,
      },
      {
        kind: 'missing_in_ledger',
        tokenId: 'exchange-only',
        asset: null,
        ledgerSize: 0,
        exchangeSize: 250_000,
        diff: 250_000,
      },
      {
        kind: 'missing_on_exchange',
        tokenId: 'ledger-only',
        asset: null,
        ledgerSize: 5_000_000,
        exchangeSize: 0,
        diff: -5_000_000,
      },
    ]);
    expect(diffPositions([{ tokenId: YES, size: 400_000_000_002 }], realAsExchange.slice(1))).toEqual([
      expect.objectContaining({ kind: 'size_mismatch', diff: -2 }),
    ]);
  });

  it('converts float sizes exactly through their decimal form', () => {
    // 0.1 + 0.2 as a float is 0.30000000000000004: still 300 000 millionths.
    expect(diffPositions([{ tokenId: 't', size: 300_000 }], [{ tokenId: 't', size: 0.1 + 0.2 }])).toEqual([]);
    expect(diffPositions([{ tokenId: 't', size: 21_040_000 }], [{ asset: 't', size: 21.04 }])).toEqual([]);
  });

  it('resolves the interface`s <condition_id>:<outcome_index> assets through the markets', () => {
    const resolve = tokenResolver([{ conditionId: COND, tokenIds: [YES, NO] }]);
    const upper = `${COND.toUpperCase().replace('0X', '0x')}:1`; // hex case differs: same condition
    const exchange: ExchangePositionLike[] = [
      { asset: `${COND}:0`, size: 10 },
      { asset: upper, size: 3 },
      { asset: '0xunknown:0', size: 1 },
    ];
    const ledger = [
      { tokenId: YES, size: 10_000_000 },
      { tokenId: NO, size: 2_000_000 },
    ];
    expect(diffPositions(ledger, exchange, { resolveToken: resolve })).toEqual([
      {
        kind: 'unresolved_asset',
        tokenId: null,
        asset: '0xunknown:0',
        ledgerSize: 0,
        exchangeSize: 1_000_000,
        diff: 1_000_000,
      },
      {
        kind: 'size_mismatch',
        tokenId: NO,
        asset: upper,
        ledgerSize: 2_000_000,
        exchangeSize: 3_000_000,
        diff: 1_000_000,
      },
    ]);
    // Without the markets the interface's assets cannot be tied to tokens: reported, not dropped.
    expect(diffPositions([], [{ asset: `${COND}:0`, size: 1 }])).toEqual([
      expect.objectContaining({ kind: 'unresolved_asset' }),
    ]);
    // conditionId + outcomeIndex fields work too.
    expect(
      diffPositions([{ tokenId: NO, size: 1_000_000 }], [{ conditionId: COND, outcomeIndex: 1, size: 1 }], {
        resolveToken: resolve,
      }),
    ).toEqual([]);
  });

  it('does not call a small position missing when the exchange was asked for larger ones only', () => {
    const ledger = [
      { tokenId: 'small', size: 500_000 },
      { tokenId: 'big', size: 2_000_000 },
    ];
    expect(diffPositions(ledger, [], { exchangeSizeThreshold: 1_000_000 }).map((d) => d.tokenId)).toEqual(['big']);
  });

  it('ignores redeemable positions the ledger already settled, not those it still holds', () => {
    const exchange = [{ tokenId: YES, size: 10, redeemable: true }];
    expect(diffPositions([], exchange)).toEqual([]);
    expect(diffPositions([{ tokenId: YES, size: 9_000_000 }], exchange)).toEqual([
      expect.objectContaining({ kind: 'size_mismatch', diff: 1_000_000 }),
    ]);
  });

  it('reports a size that is not a finite number', () => {
    expect(diffPositions([{ tokenId: 't', size: 1_000_000 }], [{ tokenId: 't', size: Number.NaN }])).toEqual([
      { kind: 'invalid_size', tokenId: 't', asset: null, ledgerSize: 1_000_000, exchangeSize: null, diff: 0 },
    ]);
  });

  it('agrees with itself: a ledger compared to its own sizes as floats has no difference', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({
            tokenId: fc.string({ unit: fc.constantFrom(...'0123456789abcdef'.split('')), minLength: 1, maxLength: 8 }),
            size: fc.integer({ min: 0, max: 10 ** 15 }),
          }),
          { selector: (p) => p.tokenId },
        ),
        (ledger) => {
          const exchange = ledger
            .filter((p) => p.size > 0)
            .map((p) => ({ tokenId: p.tokenId, size: p.size / 1_000_000 }));
          expect(diffPositions(ledger, exchange)).toEqual([]);
        },
      ),
    );
  });
});
