// The simulator's account registry of wallet contracts: which proxy (1), safe (2) or deposit
// wallet (3) belongs to which owner key. The real exchange derives each from the owner's address
// (its proxy and safe factories deploy at CREATE2 addresses of the owner, and a deposit wallet is
// registered to its owner); the simulator has no chain, so each owner's wallet of each kind is a
// deterministic stand-in address, keccak256("oddsmaker-sim-wallet" ‖ kind ‖ owner)[12:], that a
// client computes with simWalletAddress to put in exchange.funder. A wallet can also be registered
// explicitly (tests, or a trader mirroring a real account).
// Invariants: addresses are held checksummed and compared case-insensitively; one wallet has one
// owner and one kind; `requireDepositWallet` models the exchange's rule for new API accounts
// ("maker address not allowed, please use the deposit wallet flow" for any other kind).
import { concat, getAddress, keccak256, toUtf8Bytes } from 'ethers';
import type { SignatureType } from '../../exchange/signing/index.js';

export type WalletKind = Exclude<SignatureType, 0>;

export function simWalletAddress(owner: string, kind: WalletKind): string {
  const h = keccak256(concat([toUtf8Bytes('oddsmaker-sim-wallet'), new Uint8Array([kind]), getAddress(owner)]));
  return getAddress(`0x${h.slice(-40)}`);
}

export interface WalletRegistryOptions {
  /** New accounts must trade through a deposit wallet (type 3); other kinds are refused. */
  requireDepositWallet?: boolean;
}

export class WalletRegistry {
  requireDepositWallet: boolean;
  readonly #explicit = new Map<string, { owner: string; kind: WalletKind }>();

  constructor(opts: WalletRegistryOptions = {}) {
    this.requireDepositWallet = opts.requireDepositWallet === true;
  }

  /** Records `wallet` as `owner`'s wallet of `kind` (besides the derived one). */
  register(owner: string, kind: WalletKind, wallet: string): void {
    this.#explicit.set(wallet.toLowerCase(), { owner: getAddress(owner), kind });
  }

  /** True when `wallet` is `owner`'s wallet of `kind` (derived or registered). */
  owns(owner: string, kind: WalletKind, wallet: string): boolean {
    if (simWalletAddress(owner, kind).toLowerCase() === wallet.toLowerCase()) return true;
    const r = this.#explicit.get(wallet.toLowerCase());
    return r !== undefined && r.kind === kind && r.owner.toLowerCase() === owner.toLowerCase();
  }
}
