// Every account kind (signature types 0–3) signed by us equals what the official client's
// ExchangeOrderBuilderV2 produces (@polymarket/clob-client-v2 v1.1.0,
// dist/order-utils/exchangeOrderBuilderV2.js; not exported from the package index, so imported by
// path), given the same seeded key, salt and timestamp: every signed field and the signature byte
// for byte, in both exchange domains. Maker and signer come from orderParties, which must match
// the official createOrder's choice (dist/order-builder/helpers/createOrder.js).
import { describe, expect, it } from 'vitest';
import { Wallet as WalletV5 } from '@ethersproject/wallet';
import { getContractConfig } from '@polymarket/clob-client-v2';
// @ts-expect-error -- a dist module outside the package's exports map; its .d.ts is a stub
import { ExchangeOrderBuilderV2 } from '../../../node_modules/@polymarket/clob-client-v2/dist/order-utils/exchangeOrderBuilderV2.js';
import { SigningKey, computeAddress } from 'ethers';
import { price, shares } from '../../../src/core/money.js';
import { DIALECTS } from '../../../src/exchange/dialect.js';
import {
  accountKindProblem,
  buildOrder,
  depositWalletDigest,
  depositWalletWrapProblem,
  OrderSigner,
  orderParties,
  SigningPool,
  unwrapDepositWalletSignature,
  type SignatureType,
} from '../../../src/exchange/signing/index.js';
import { recoverSigner } from '../../../src/exchange/signing/wire-order.js';
import { CONDITION, KEY_A, TOKEN } from './arbitraries.js';

const dialect = DIALECTS.polymarket;
const FUNDER = '0x00000000000000000000000000000000DeaDBeef';
const SALT = '123456789012345';
const TS = 1_764_000_000_123;

interface OfficialOrder {
  salt: string;
  maker: string;
  signer: string;
  tokenId: string;
  makerAmount: string;
  takerAmount: string;
  side: string;
  signatureType: number;
  timestamp: string;
  metadata: string;
  builder: string;
  signature: string;
}

async function official(
  kind: SignatureType,
  negRisk: boolean,
  maker: string,
  signer: string,
  makerAmount: number,
  takerAmount: number,
  side: 'BUY' | 'SELL',
): Promise<OfficialOrder> {
  const c = getContractConfig(137);
  const b = new ExchangeOrderBuilderV2(
    negRisk ? c.negRiskExchangeV2 : c.exchangeV2,
    137,
    new WalletV5(KEY_A),
    () => SALT,
  );
  return b.buildSignedOrder({
    maker,
    signer,
    tokenId: TOKEN,
    makerAmount: String(makerAmount),
    takerAmount: String(takerAmount),
    side,
    signatureType: kind,
    timestamp: String(TS),
  }) as Promise<OfficialOrder>;
}

const key = new OrderSigner(KEY_A, dialect);
const CASES: { kind: SignatureType; funder?: string }[] = [
  { kind: 0 },
  { kind: 1, funder: FUNDER },
  { kind: 2, funder: FUNDER },
  { kind: 3, funder: FUNDER },
];

describe('account kinds against the official ExchangeOrderBuilderV2', () => {
  for (const { kind, funder } of CASES) {
    for (const negRisk of [false, true]) {
      for (const side of ['BUY', 'SELL'] as const) {
        it(`type ${kind}, ${negRisk ? 'neg-risk' : 'normal'} exchange, ${side}: same fields and signature`, async () => {
          const parties = orderParties(kind, key.address, funder);
          // createOrder's rule: maker = funder ?? key; signer = maker for POLY_1271, else the key.
          expect(parties.maker).toBe(funder ?? key.address);
          expect(parties.signer).toBe(kind === 3 ? FUNDER : key.address);
          const unsigned = buildOrder(
            {
              tokenId: TOKEN,
              conditionId: CONDITION,
              side,
              price: price(430_000),
              size: shares(25_000_000),
              orderType: 'GTC',
              tick: price(10_000),
              negRisk,
            },
            { ...parties, signatureType: kind, salt: SALT, timestampMs: TS },
          );
          const ours = key.sign(unsigned);
          const theirs = await official(
            kind,
            negRisk,
            parties.maker,
            parties.signer,
            unsigned.makerAmount,
            unsigned.takerAmount,
            side,
          );
          expect({
            salt: ours.salt,
            maker: ours.maker,
            signer: ours.signer,
            tokenId: ours.tokenId,
            makerAmount: String(ours.makerAmount),
            takerAmount: String(ours.takerAmount),
            side: ours.side,
            signatureType: ours.signatureType,
            timestamp: String(ours.timestampMs),
            metadata: ours.metadata,
            builder: ours.builder,
            signature: ours.signature,
          }).toEqual({
            salt: theirs.salt,
            maker: theirs.maker,
            signer: theirs.signer,
            tokenId: theirs.tokenId,
            makerAmount: theirs.makerAmount,
            takerAmount: theirs.takerAmount,
            side: theirs.side,
            signatureType: theirs.signatureType,
            timestamp: theirs.timestamp,
            metadata: theirs.metadata,
            builder: theirs.builder,
            signature: theirs.signature.toLowerCase(),
          });
          if (kind === 3) {
            // 317 bytes: inner ‖ separator ‖ contents ‖ type string ‖ its length (clob-client-v2).
            expect(ours.signature).toHaveLength(2 + 2 * 317);
            const w = unwrapDepositWalletSignature(ours.signature);
            expect(w).not.toBeNull();
            expect(depositWalletWrapProblem(w!, unsigned, dialect)).toBeNull();
            expect(recoverSigner(depositWalletDigest(unsigned, dialect), w!.inner)).toBe(key.address);
          } else {
            expect(recoverSigner(ours.id, ours.signature)).toBe(key.address);
          }
        });
      }
    }
  }

  it('a deposit-wallet order wrapped for one domain does not pass for the other, nor for another order', () => {
    const parties = orderParties(3, key.address, FUNDER);
    const base = {
      tokenId: TOKEN,
      conditionId: CONDITION,
      side: 'BUY' as const,
      price: price(430_000),
      size: shares(25_000_000),
      orderType: 'GTC' as const,
      tick: price(10_000),
    };
    const a = buildOrder({ ...base, negRisk: false }, { ...parties, signatureType: 3, salt: SALT, timestampMs: TS });
    const signed = key.sign(a);
    const w = unwrapDepositWalletSignature(signed.signature)!;
    expect(depositWalletWrapProblem(w, { ...a, negRisk: true }, dialect)).toMatch(/domain/);
    expect(depositWalletWrapProblem(w, { ...a, salt: '1' }, dialect)).toMatch(/another order/);
  });

  it('the signing pool signs a deposit-wallet batch exactly as the in-thread signer', async () => {
    const pool = new SigningPool({ privateKey: KEY_A, dialect, workers: 1, inlineMax: 0 });
    try {
      const parties = orderParties(3, pool.address, FUNDER);
      const orders = [1, 2, 3].map((i) =>
        buildOrder(
          {
            tokenId: TOKEN,
            conditionId: CONDITION,
            side: 'BUY',
            price: price(430_000),
            size: shares(i * 5_000_000),
            orderType: 'GTC',
            tick: price(10_000),
            negRisk: false,
          },
          { ...parties, signatureType: 3, salt: String(i), timestampMs: TS },
        ),
      );
      expect(await pool.signBatch(orders)).toEqual(orders.map((o) => key.sign(o)));
    } finally {
      await pool.close();
    }
  });

  it('refuses a deposit-wallet order whose signer is not its maker', () => {
    expect(() =>
      buildOrder(
        {
          tokenId: TOKEN,
          conditionId: CONDITION,
          side: 'BUY',
          price: price(430_000),
          size: shares(5_000_000),
          orderType: 'GTC',
          tick: price(10_000),
          negRisk: false,
        },
        { maker: FUNDER, signer: key.address, signatureType: 3, timestampMs: TS },
      ),
    ).toThrow(/signed by its maker/);
  });

  it('says when the account kind does not fit the addresses', () => {
    const me = computeAddress(new SigningKey(KEY_A).publicKey);
    expect(accountKindProblem(0, me)).toBeNull();
    expect(accountKindProblem(0, me, me.toLowerCase())).toBeNull();
    expect(accountKindProblem(0, me, FUNDER)).toMatch(/EOA/);
    for (const k of [1, 2, 3] as const) {
      expect(accountKindProblem(k, me, FUNDER)).toBeNull();
      expect(accountKindProblem(k, me)).toMatch(/not set/);
      expect(accountKindProblem(k, me, me)).toMatch(/key's own address/);
    }
  });
});
