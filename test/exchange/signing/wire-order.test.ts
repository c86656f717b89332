// Signed orders to and from the wire: key order and salt form per dialect, GTD/post-only rules,
// JSON round trips, signer recovery, and ParseErrors naming the field path.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Wallet } from 'ethers';
import { InvariantError, ParseError } from '../../../src/core/errors.js';
import { DIALECTS } from '../../../src/exchange/dialect.js';
import { buildOrder } from '../../../src/exchange/signing/order.js';
import { OrderSigner } from '../../../src/exchange/signing/signer.js';
import {
  parseWireOrder,
  recoverOrderSigner,
  toWireSubmission,
  wireOrderId,
} from '../../../src/exchange/signing/wire-order.js';
import { intent, KEY_A, KEY_B, orderArb } from './arbitraries.js';

const wallet = new Wallet(KEY_A);
const specSigner = new OrderSigner(KEY_A, DIALECTS.spec);
const polySigner = new OrderSigner(KEY_A, DIALECTS.polymarket);
const base = {
  maker: wallet.address,
  signer: wallet.address,
  signatureType: 0 as const,
  timestampMs: 1_790_000_000_000,
  salt: '123456789',
};

describe('toWireSubmission', () => {
  it('emits table 2.2 in order, salt a string (spec) or a number (polymarket)', () => {
    const s = specSigner.sign(buildOrder(intent(), base));
    const spec = toWireSubmission(s, { orderType: 'GTC', owner: 'k', dialect: DIALECTS.spec });
    expect(Object.keys(spec.order)).toEqual([
      'tokenId',
      'conditionId',
      'maker',
      'signer',
      'makerAmount',
      'takerAmount',
      'side',
      'metadata',
      'salt',
      'signatureType',
      'signature',
      'timestamp',
      'builder',
    ]);
    expect(spec).toMatchObject({
      orderType: 'GTC',
      owner: 'k',
      order: {
        salt: '123456789',
        makerAmount: '10520000',
        takerAmount: '21040000',
        timestamp: '1790000000000',
        side: 'BUY',
        signatureType: 0,
      },
    });
    expect('postOnly' in spec).toBe(false);
    const poly = toWireSubmission(polySigner.sign(buildOrder(intent(), base)), {
      orderType: 'GTC',
      owner: 'k',
      dialect: DIALECTS.polymarket,
    });
    expect(poly.order.salt).toBe(123456789);
    // The public order wire: the official client's keys and order (checked against the package in
    // test/exchange/client/public-order-bodies.test.ts).
    expect(Object.keys(poly)).toEqual(['deferExec', 'postOnly', 'order', 'owner', 'orderType']);
    expect(Object.keys(poly.order)).toEqual([
      'salt',
      'maker',
      'signer',
      'tokenId',
      'makerAmount',
      'takerAmount',
      'side',
      'signatureType',
      'timestamp',
      'expiration',
      'metadata',
      'builder',
      'signature',
    ]);
    expect(poly).toMatchObject({ deferExec: false, postOnly: false, order: { expiration: '0' } });
  });

  it('adds expiration for GTD and postOnly where allowed, and refuses the rest', () => {
    const s = specSigner.sign(buildOrder(intent(), base));
    const gtd = toWireSubmission(s, {
      orderType: 'GTD',
      owner: 'k',
      dialect: DIALECTS.spec,
      expirationSec: 1_790_000_600,
      postOnly: true,
    });
    expect(gtd.order.expiration).toBe('1790000600');
    expect(gtd.postOnly).toBe(true);
    expect(() => toWireSubmission(s, { orderType: 'GTD', owner: 'k', dialect: DIALECTS.spec })).toThrow(InvariantError);
    expect(() => toWireSubmission(s, { orderType: 'FAK', owner: 'k', dialect: DIALECTS.spec, postOnly: true })).toThrow(
      InvariantError,
    );
    expect(() =>
      toWireSubmission(s, { orderType: 'FOK', owner: 'k', dialect: DIALECTS.spec, expirationSec: 5 }),
    ).toThrow(InvariantError);
  });

  it('refuses a salt the polymarket dialect cannot carry as a JSON number', () => {
    const s = polySigner.sign(buildOrder(intent(), { ...base, salt: (2n ** 60n).toString() }));
    expect(() => toWireSubmission(s, { orderType: 'GTC', owner: 'k', dialect: DIALECTS.polymarket })).toThrow(
      ParseError,
    );
  });
});

describe('parseWireOrder and recoverOrderSigner', () => {
  it('round-trips random signed orders through JSON in both dialects and recovers the signer', () => {
    fc.assert(
      fc.property(orderArb(wallet.address), fc.constantFrom(DIALECTS.spec, DIALECTS.polymarket), (o, dialect) => {
        const signer = dialect === DIALECTS.spec ? specSigner : polySigner;
        // The polymarket dialect carries salts as JSON numbers: keep them under 2^53 there.
        const order = dialect.saltOnWire === 'number' ? { ...o, salt: String(BigInt(o.salt) % 2n ** 53n) } : o;
        const signed = signer.sign(order);
        const wire = JSON.parse(
          JSON.stringify(toWireSubmission(signed, { orderType: 'GTC', owner: 'k', dialect })),
        ) as { order: Record<string, unknown> };
        // The public order wire leaves conditionId out (it is not signed): a server adds the market's.
        if (dialect.orderWire === 'public') expect(Object.hasOwn(wire.order, 'conditionId')).toBe(false);
        const parsed = parseWireOrder({ conditionId: signed.conditionId, ...wire.order }, dialect);
        const { negRisk: _n, signature: _s, id: _i, ...fields } = signed;
        expect(parsed.fields).toEqual(fields);
        expect(wireOrderId(parsed, dialect, signed.negRisk)).toBe(signed.id);
        expect(recoverOrderSigner(wire.order, dialect, signed.negRisk)).toBe(wallet.address);
      }),
      { numRuns: 30 },
    );
  });

  it('recovers someone else when the order, the domain or the key differ', () => {
    const signed = specSigner.sign(buildOrder(intent(), base));
    const wire = toWireSubmission(signed, { orderType: 'GTC', owner: 'k', dialect: DIALECTS.spec }).order;
    expect(recoverOrderSigner(wire, DIALECTS.spec, false)).toBe(wallet.address);
    expect(recoverOrderSigner({ ...wire, makerAmount: '10520001' }, DIALECTS.spec, false)).not.toBe(wallet.address);
    expect(recoverOrderSigner(wire, DIALECTS.spec, true)).not.toBe(wallet.address);
    expect(recoverOrderSigner(wire, DIALECTS.polymarket, false)).not.toBe(wallet.address);
    // conditionId is not signed: changing it leaves the signer unchanged.
    expect(recoverOrderSigner({ ...wire, conditionId: `0x${'ab'.repeat(32)}` }, DIALECTS.spec, false)).toBe(
      wallet.address,
    );
    const other = new OrderSigner(KEY_B, DIALECTS.spec);
    const byB = other.sign(buildOrder(intent(), { ...base, maker: other.address, signer: other.address }));
    expect(
      recoverOrderSigner(
        toWireSubmission(byB, { orderType: 'GTC', owner: 'k', dialect: DIALECTS.spec }).order,
        DIALECTS.spec,
        false,
      ),
    ).toBe(other.address);
  });

  it('accepts both salt forms and the "0" expiration of the public client', () => {
    const signed = specSigner.sign(buildOrder(intent(), base));
    const wire = toWireSubmission(signed, { orderType: 'GTC', owner: 'k', dialect: DIALECTS.spec }).order;
    expect(parseWireOrder({ ...wire, salt: 123456789 }, DIALECTS.spec).fields.salt).toBe('123456789');
    expect(parseWireOrder({ ...wire, expiration: '0' }, DIALECTS.spec).expirationSec).toBeUndefined();
    expect(parseWireOrder({ ...wire, expiration: '1790000600' }, DIALECTS.spec).expirationSec).toBe(1_790_000_600);
  });

  it('names the offending field in a ParseError', () => {
    const signed = specSigner.sign(buildOrder(intent(), base));
    const wire = toWireSubmission(signed, { orderType: 'GTC', owner: 'k', dialect: DIALECTS.spec })
      .order as unknown as Record<string, unknown>;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...wire, makerAmount: '1.5' }, 'order.makerAmount'],
      [{ ...wire, makerAmount: 10520000 }, 'order.makerAmount'],
      [{ ...wire, takerAmount: '99999999999999999999' }, 'order.takerAmount'],
      [{ ...wire, salt: -1 }, 'order.salt'],
      [{ ...wire, salt: '1e5' }, 'order.salt'],
      [{ ...wire, side: 'buy' }, 'order.side'],
      [{ ...wire, signatureType: '0' }, 'order.signatureType'],
      [{ ...wire, maker: '0xabc' }, 'order.maker'],
      [{ ...wire, signature: '0x12' }, 'order.signature'],
      [{ ...wire, tokenId: '01' }, 'order.tokenId'],
      [{ ...wire, timestamp: 1790000000000 }, 'order.timestamp'],
      [{ ...wire, expiration: 'soon' }, 'order.expiration'],
      [Object.fromEntries(Object.entries(wire).filter(([k]) => k !== 'builder')), 'order.builder'],
    ];
    for (const [w, path] of cases) {
      let err: unknown;
      try {
        parseWireOrder(w, DIALECTS.spec);
      } catch (e) {
        err = e;
      }
      expect(err, path).toBeInstanceOf(ParseError);
      expect((err as ParseError).path, path).toBe(path);
    }
    expect(() => parseWireOrder(null, DIALECTS.spec)).toThrow(ParseError);
    expect(() => recoverOrderSigner({ ...wire, signature: `0x${'00'.repeat(65)}` }, DIALECTS.spec, false)).toThrow(
      ParseError,
    );
  });
});
