// Deterministic private keys for tests and benchmarks: the same label gives the same key on every
// run and machine, so a failure (a signature, an order id, an address in a ledger) reproduces
// exactly. Never Wallet.createRandom() or randomBytes for keys. Keys are keccak256 of a labelled
// string; they guard nothing and must never hold funds.
import { keccak256, toUtf8Bytes, Wallet } from 'ethers';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** 0x + 64 hex: the test key named `label` (a valid secp256k1 scalar). */
export function seededKey(label: string): string {
  const key = keccak256(toUtf8Bytes(`oddsmaker test key: ${label}`));
  const k = BigInt(key);
  // Holds for every label in use (the chance of a miss is ~2^-128); checked so that it stays true.
  if (k === 0n || k >= N) throw new Error(`seededKey(${label}) is not a valid secp256k1 key: pick another label`);
  return key;
}

/** The wallet of seededKey(label). */
export function seededWallet(label: string): Wallet {
  return new Wallet(seededKey(label));
}
