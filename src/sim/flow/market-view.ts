// What a trader sees of its market: the tokens, the latent, the state check run at the start of
// every task, and whether the market's flow has ended. Kept as an interface so the traders do not
// import the MarketFlow class that owns them.
import type { MarketState } from '../engine/types.js';
import type { LatentProcess } from './latent.js';
import type { MarketTokens } from './orders.js';

export interface MarketView extends MarketTokens {
  readonly conditionId: string;
  readonly latent: LatentProcess;
  /** Scales the taker arrival rates of this market (mean one across markets). */
  readonly activity: number;
  /** True once the market resolved (accounts redeemed) or was removed from the flow: no more tasks. */
  readonly finished: boolean;
  /**
   * Brings the latent to `at`, funds the accounts on first use, redeems after resolution, and
   * returns the market's state when it takes orders now, else null.
   */
  ready(at: number): MarketState | null;
}
