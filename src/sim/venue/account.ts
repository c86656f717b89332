// The simulator's throwaway test account: a private key derived from the seed (so the same seed
// always prints the same account), its address, and the collateral it is funded with. Invariants:
// - the key is a valid secp256k1 scalar (a rejected candidate moves to the next counter);
// - nothing here is a real secret: the account exists only inside one simulator, and the `sim`
//   command prints it on purpose.
import { createHash } from 'node:crypto';
import { computeAddress, SigningKey } from 'ethers';
import { SCALE, type Micros } from '../../core/money.js';
import { parsePrivateKey } from '../../exchange/auth/credentials.js';

/** Collateral the test account starts with: 1,000,000 units. */
export const TEST_ACCOUNT_COLLATERAL = (1_000_000 * SCALE) as Micros;

export interface WalletKey {
  readonly privateKey: string;
  readonly address: string;
}

/** A wallet derived from a label and the seed: sha256 candidates until one is a valid key. */
export function deriveWallet(seed: string | number, label: string): WalletKey {
  for (let i = 0; ; i++) {
    const hex = createHash('sha256')
      .update(`oddsmaker-sim/${label}/${String(seed)}/${i}`)
      .digest('hex');
    try {
      const privateKey = parsePrivateKey(hex);
      return { privateKey, address: computeAddress(new SigningKey(privateKey).publicKey) };
    } catch {
      // Zero or above the curve order: astronomically rare; try the next counter.
    }
  }
}

/** The secret the simulator derives API credentials with (from the seed unless given). */
export function serverSecretFor(seed: string | number): string {
  return createHash('sha256')
    .update(`oddsmaker-sim/server-secret/${String(seed)}`)
    .digest('hex');
}
