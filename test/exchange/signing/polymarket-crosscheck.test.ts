// Proves the polymarket dialect against Polymarket's official client (@polymarket/clob-client-v2):
// for random orders its OrderBuilder (given the same key, salt and timestamp) produces the same
// amounts, fields and signature as buildOrder + OrderSigner, and its JSON body agrees with ours.
// Sizes stay at or under 10,000 shares: beyond that its float arithmetic (size × price in a double,
// rounded up at amount + 4 decimals) can land one millionth under the exact notional (e.g.
// 3,821,562.15 @ 0.5679 → …144984 instead of …144985), where we keep docs/protocol.md's exact rule.
// Its builder draws the salt as Math.round(Math.random() * Date.now()) and stamps Date.now(): both
// are pinned here, offline (no network is touched by building orders).
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { Wallet as WalletV5 } from '@ethersproject/wallet';
import {
  getContractConfig,
  OrderBuilder,
  orderToJsonV2,
  Side as PolySide,
  SignatureTypeV2,
} from '@polymarket/clob-client-v2';
import { formatMicros, SCALE } from '../../../src/core/money.js';
import { tickDecimals } from '../../../src/core/tick.js';
import { DIALECTS } from '../../../src/exchange/dialect.js';
import { buildOrder } from '../../../src/exchange/signing/order.js';
import { OrderSigner } from '../../../src/exchange/signing/signer.js';
import { toWireSubmission } from '../../../src/exchange/signing/wire-order.js';
import { intentArbWith, KEY_A } from './arbitraries.js';

type TickSize = '0.1' | '0.01' | '0.001' | '0.0001' | '0.005' | '0.0025';

const dialect = DIALECTS.polymarket;
const walletV5 = new WalletV5(KEY_A);
const polyBuilder = new OrderBuilder(walletV5 as never, 137, SignatureTypeV2.EOA);
const ours = new OrderSigner(KEY_A, dialect);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('polymarket dialect against @polymarket/clob-client-v2', () => {
  it('has the contracts and chain of its config', () => {
    const c = getContractConfig(137);
    expect(dialect.chainId).toBe(137);
    expect(dialect.verifyingContract).toBe(c.exchangeV2);
    expect(dialect.negRiskVerifyingContract).toBe(c.negRiskExchangeV2);
  });

  it('builds the same amounts and the same signature for a few hundred random orders', async () => {
    const samples = fc.sample(
      fc.tuple(
        intentArbWith(10_000),
        fc.integer({ min: 1, max: 2 ** 40 }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        fc.constantFrom<0 | 2>(0, 2),
      ),
      { numRuns: 300, seed: 20260611 },
    );
    let compared = 0;
    for (const [intent, nowMs, r, sigType] of samples) {
      const tickSize = formatMicros(intent.tick) as TickSize;
      vi.spyOn(Date, 'now').mockReturnValue(nowMs);
      vi.spyOn(Math, 'random').mockReturnValue(r);
      // A safe funder for signature type 2 (maker ≠ signer), to cover both layouts.
      const funder = sigType === 2 ? '0x00000000000000000000000000000000DeaDBeef' : undefined;
      const builder =
        funder === undefined
          ? polyBuilder
          : new OrderBuilder(walletV5 as never, 137, SignatureTypeV2.POLY_GNOSIS_SAFE, funder);
      const theirs = await builder.buildOrder(
        {
          tokenID: intent.tokenId,
          price: intent.price / SCALE,
          size: intent.size / SCALE,
          side: intent.side === 'BUY' ? PolySide.BUY : PolySide.SELL,
        },
        { tickSize, negRisk: intent.negRisk },
        2,
      );
      vi.restoreAllMocks();
      const salt = String(Math.round(r * nowMs));
      const unsigned = buildOrder(intent, {
        maker: funder ?? ours.address,
        signer: ours.address,
        signatureType: sigType,
        salt,
        timestampMs: nowMs,
      });
      const signed = ours.sign(unsigned);
      const t = theirs as unknown as Record<string, unknown>;
      expect({
        tick: tickSize,
        price: formatMicros(intent.price),
        size: formatMicros(intent.size),
        maker: t['makerAmount'],
        taker: t['takerAmount'],
      }).toEqual({
        tick: tickSize,
        price: formatMicros(intent.price),
        size: formatMicros(intent.size),
        maker: String(signed.makerAmount),
        taker: String(signed.takerAmount),
      });
      expect(t['salt']).toBe(signed.salt);
      expect(t['timestamp']).toBe(String(signed.timestampMs));
      expect(t['maker']).toBe(signed.maker);
      expect(t['signer']).toBe(signed.signer);
      expect(t['side']).toBe(signed.side);
      expect(t['signatureType']).toBe(signed.signatureType);
      expect(t['metadata']).toBe(signed.metadata);
      expect(t['builder']).toBe(signed.builder);
      expect(t['signature']).toBe(signed.signature);

      // The JSON body: same values for every field both sides send (salt a number in this dialect).
      const body = toWireSubmission(signed, { orderType: 'GTC', owner: 'owner-key', dialect });
      const polyBody = orderToJsonV2(theirs as never, 'owner-key', 'GTC' as never) as {
        order: Record<string, unknown>;
        owner: string;
        orderType: string;
      };
      for (const k of [
        'salt',
        'maker',
        'signer',
        'tokenId',
        'makerAmount',
        'takerAmount',
        'side',
        'signatureType',
        'timestamp',
        'metadata',
        'builder',
        'signature',
      ]) {
        expect((body.order as unknown as Record<string, unknown>)[k], k).toEqual(polyBody.order[k]);
      }
      expect(body.owner).toBe(polyBody.owner);
      expect(body.orderType).toBe(polyBody.orderType);
      compared++;
      // Keep the decimals check honest: the notional never has more decimals than tick + 2.
      const notional = intent.side === 'BUY' ? signed.makerAmount : signed.takerAmount;
      expect(notional % 10 ** (6 - Math.min(6, tickDecimals(intent.tick) + 2))).toBe(0);
    }
    expect(compared).toBe(300);
  });
});
