// The order-signature verifier: exactly "recovers to the signer" — by recovery for a signer's first
// order, then by the worker threads' equation — against tampering (digest, v, s, another key,
// malformed encodings), across several signers, and as a property against ethers' recovery.
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { computeAddress, keccak256, SigningKey, toUtf8Bytes } from 'ethers';
import { recoverSigner } from '../../../src/exchange/signing/index.js';
import { OrderSignatureVerifier, wellFormedSignature, type VerifyJob } from '../../../src/sim/server/sig-verify.js';
import { OptionError } from '../../../src/core/errors.js';

const KEY_A = '0x' + '11'.repeat(32);
const KEY_B = '0x' + '22'.repeat(32);
const a = new SigningKey(KEY_A);
const b = new SigningKey(KEY_B);
const addrA = computeAddress(a.publicKey);
const addrB = computeAddress(b.publicKey);
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const digest = (i: number): string => keccak256(toUtf8Bytes(`order ${i}`));
const sign = (k: SigningKey, d: string): string => k.sign(d).serialized;

/** v flipped (27 ↔ 28): a valid signature of a different key. */
function flipV(sig: string): string {
  const v = sig.slice(130);
  return sig.slice(0, 130) + (v === '1b' ? '1c' : '1b');
}

function highS(sig: string): string {
  const s = BigInt('0x' + sig.slice(66, 130));
  return sig.slice(0, 66) + (N - s).toString(16).padStart(64, '0') + sig.slice(130);
}

const verifiers: OrderSignatureVerifier[] = [];
function make(opts: ConstructorParameters<typeof OrderSignatureVerifier>[0]): OrderSignatureVerifier {
  const v = new OrderSignatureVerifier(opts);
  verifiers.push(v);
  return v;
}
afterAll(async () => {
  await Promise.all(verifiers.map((v) => v.close()));
});

describe('OrderSignatureVerifier', () => {
  it('answers exactly "recovers to the signer", first by recovery, then by the workers\' equation', async () => {
    const v = make({ workers: 2, windowBits: 8, minChunk: 2 });
    const d0 = digest(0);
    expect(await v.verifyMany([{ digest: d0, signature: sign(a, d0), signer: addrA }])).toEqual([true]);
    expect(v.counts).toEqual({ recovered: 1, fast: 0 });
    const jobs: VerifyJob[] = [];
    const expected: boolean[] = [];
    for (let i = 1; i <= 12; i++) {
      const d = digest(i);
      const sig = sign(a, d);
      jobs.push({ digest: d, signature: sig, signer: addrA.toLowerCase() });
      expected.push(true);
      jobs.push({ digest: digest(i + 100), signature: sig, signer: addrA });
      expected.push(false); // another digest
      jobs.push({ digest: d, signature: flipV(sig), signer: addrA });
      expected.push(false);
    }
    expect(await v.verifyMany(jobs)).toEqual(expected);
    expect(v.counts.fast).toBe(36);
  });

  it('refuses signatures of another key, malformed ones and high or out-of-range s', async () => {
    const v = make({ workers: 1, windowBits: 8 });
    const d = digest(1);
    await v.verifyMany([{ digest: d, signature: sign(a, d), signer: addrA }]);
    const good = sign(a, d);
    const jobs: VerifyJob[] = [
      { digest: d, signature: sign(b, d), signer: addrA },
      { digest: d, signature: good.slice(0, 130), signer: addrA },
      { digest: d, signature: good.slice(0, 130) + '1d', signer: addrA },
      { digest: d, signature: highS(good), signer: addrA },
      { digest: d, signature: '0x' + '00'.repeat(64) + '1b', signer: addrA },
      { digest: d, signature: good, signer: addrB },
      // v written as 0/1 instead of 27/28.
      { digest: d, signature: good.slice(0, 130) + (good.endsWith('1b') ? '00' : '01'), signer: addrA },
    ];
    expect(await v.verifyMany(jobs)).toEqual([false, false, false, false, false, false, true]);
    expect(wellFormedSignature(good)).toBe(true);
    expect(wellFormedSignature(highS(good))).toBe(false);
  });

  it('keeps several signers apart', async () => {
    const v = make({ workers: 1, windowBits: 8 });
    const d = digest(5);
    await v.verifyMany([
      { digest: d, signature: sign(a, d), signer: addrA },
      { digest: d, signature: sign(b, d), signer: addrB },
    ]);
    const e = digest(6);
    expect(
      await v.verifyMany([
        { digest: e, signature: sign(a, e), signer: addrA },
        { digest: e, signature: sign(b, e), signer: addrB },
        { digest: e, signature: sign(a, e), signer: addrB },
        { digest: e, signature: sign(b, e), signer: addrA },
      ]),
    ).toEqual([true, true, false, false]);
  });

  it('agrees with ethers recovery on random digests, keys and tampering (property)', async () => {
    const v = make({ workers: 1, windowBits: 8 });
    await v.verifyMany([{ digest: digest(0), signature: sign(a, digest(0)), signer: addrA }]);
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 3 }),
        async (bytes, useA, tamper) => {
          const d = keccak256(bytes);
          let sig = sign(useA ? a : b, d);
          if (tamper === 1) sig = flipV(sig);
          if (tamper === 2)
            sig = sig.slice(0, 10) + ((Number.parseInt(sig.slice(10, 11), 16) + 1) % 16).toString(16) + sig.slice(11);
          let expected: boolean;
          try {
            expected = recoverSigner(d, sig) === addrA;
          } catch {
            expected = false;
          }
          const [got] = await v.verifyMany([{ digest: d, signature: sig, signer: addrA }]);
          expect(got).toBe(expected);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('verifies in-thread by recovery with no worker, and after close', async () => {
    const v = make({ workers: 0 });
    const d = digest(9);
    expect(
      await v.verifyMany([
        { digest: d, signature: sign(a, d), signer: addrA },
        { digest: d, signature: sign(a, d), signer: addrB },
      ]),
    ).toEqual([true, false]);
    expect(v.counts).toEqual({ recovered: 2, fast: 0 });
    const w = make({ workers: 1, windowBits: 8 });
    await w.close();
    expect(w.workers).toBe(0);
    expect(await w.verifyMany([{ digest: d, signature: sign(a, d), signer: addrA }])).toEqual([true]);
  });

  it('validates its options', () => {
    expect(() => new OrderSignatureVerifier({ workers: -1 })).toThrow(OptionError);
    expect(() => new OrderSignatureVerifier({ workers: 0, windowBits: 20 })).toThrow(OptionError);
    expect(() => new OrderSignatureVerifier({ workers: 0, maxKeys: 0 })).toThrow(OptionError);
  });
});
