// OrderSigner: byte-equal to ethers' signTypedData, deterministic, domain-separated, refuses a
// foreign signer, never prints its key.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Wallet } from 'ethers';
import { InvariantError } from '../../../src/core/errors.js';
import { DIALECTS } from '../../../src/exchange/dialect.js';
import { ORDER_EIP712_TYPES, orderDomain, orderTypedMessage } from '../../../src/exchange/signing/eip712.js';
import { OrderSigner } from '../../../src/exchange/signing/signer.js';
import { KEY_A, KEY_B, orderArb } from './arbitraries.js';

const wallet = new Wallet(KEY_A);

describe('OrderSigner', () => {
  it('signs exactly as ethers signTypedData does, in both dialects', async () => {
    for (const dialect of [DIALECTS.spec, DIALECTS.polymarket]) {
      const signer = new OrderSigner(KEY_A, dialect);
      expect(signer.address).toBe(wallet.address);
      const orders = fc.sample(orderArb(wallet.address), { numRuns: 40, seed: dialect.chainId });
      for (const o of orders) {
        const s = signer.sign(o);
        expect(s.signature).toBe(
          await wallet.signTypedData(orderDomain(dialect, o.negRisk), ORDER_EIP712_TYPES, orderTypedMessage(o)),
        );
        expect(s.id).toMatch(/^0x[0-9a-f]{64}$/);
        expect({ ...s, signature: undefined, id: undefined }).toEqual({ ...o, signature: undefined, id: undefined });
      }
    }
  });

  it('is deterministic and separates dialects and neg-risk domains', () => {
    const o = fc.sample(orderArb(wallet.address), { numRuns: 1, seed: 3 })[0]!;
    const spec = new OrderSigner(KEY_A, DIALECTS.spec);
    const poly = new OrderSigner(KEY_A, DIALECTS.polymarket);
    expect(spec.sign(o)).toEqual(spec.sign(o));
    expect(spec.sign(o).id).not.toBe(poly.sign(o).id);
    expect(spec.sign({ ...o, negRisk: !o.negRisk }).id).not.toBe(spec.sign(o).id);
  });

  it('refuses an order naming another signer', () => {
    const o = fc.sample(orderArb(wallet.address), { numRuns: 1, seed: 4 })[0]!;
    expect(() => new OrderSigner(KEY_B, DIALECTS.spec).sign(o)).toThrow(InvariantError);
  });

  it('never prints its key', () => {
    const signer = new OrderSigner(KEY_A, DIALECTS.spec);
    const bare = KEY_A.slice(2);
    expect(JSON.stringify(signer)).not.toContain(bare);
    expect(inspect(signer, { showHidden: true, depth: 5 })).not.toContain(bare);
    expect(String(Object.values(signer))).not.toContain(bare);
    expect(() => new OrderSigner(`${KEY_A.slice(0, -1)}z`, DIALECTS.spec)).toThrow(/not 32 bytes of hex/);
    try {
      new OrderSigner(`${KEY_A.slice(0, -1)}z`, DIALECTS.spec);
    } catch (e) {
      expect(String(e)).not.toContain(bare.slice(0, 20));
    }
  });
});
