// From engine trades to the venue's public records: each fill becomes one portfolio Fill per side
// (maker and taker) for the PositionBook and the public trade log, and moves the last trade price
// of both tokens of the market. Invariants kept here:
// - engine accounts are shown under their wallet: an address id as itself (lower case), any other
//   id (a synthetic flow trader) as a wallet derived from a hash of the id (deterministic), never a
//   world trader's: a world trader's trades are its past trades only, so its positions and
//   leaderboard figures stay explained by its /trades (standings.ts);
// - only the venue's own accounts (wallets it issued an API key to or funded) get PositionBook
//   positions; the synthetic traders appear in the public trade log only (they are funded with
//   minted tokens the portfolio never saw, so their sells could not be accounted);
// - a portfolio failure (a fill the PositionBook refuses) never reaches the engine: the engine
//   rethrows listener errors into the submitting call, so they are counted here instead;
// - the last trade of a token is the engine's (taker side in that token's terms);
// - after both legs are recorded, `onRecorded` (the settlement tracker, settlement.ts) sees the
//   trade with the cost basis each leg's SELL released (null for a leg without a portfolio
//   position), so a failed settlement can take the fills back exactly.
import { createHash } from 'node:crypto';
import type { MatchingEngine, Trade } from '../engine/index.js';
import type { Fill, LastTrades, PositionBook, TradeLog, World } from '../world/index.js';
import { isAddress } from '../world/query.js';

/** The (simulated) settlement transaction hash of one leg of a trade; the same for every reader. */
export function legTransactionHash(tradeId: string, role: 'maker' | 'taker'): string {
  return (
    '0x' +
    createHash('sha256')
      .update(`${tradeId}/${role === 'maker' ? 'm' : 't'}`)
      .digest('hex')
  );
}

export class WalletMap {
  private readonly cache = new Map<string, string>();

  constructor(private readonly world: World) {}

  /** The wallet shown for an engine account. */
  walletOf(owner: string): string {
    if (isAddress(owner)) return owner.toLowerCase();
    let w = this.cache.get(owner);
    if (w === undefined) {
      w = '0x' + createHash('sha256').update(`flow-wallet/${owner}`).digest('hex').slice(0, 40);
      // A hash equal to a world trader's wallet is as likely as guessing a key; keep them apart anyway.
      if (this.world.userByWallet(w) !== undefined)
        w = '0x' + createHash('sha256').update(`flow-wallet/${owner}/2`).digest('hex').slice(0, 40);
      this.cache.set(owner, w);
    }
    return w;
  }
}

export interface FillStats {
  fills: number;
  positionErrors: number;
  lastPositionError: string | null;
}

/** What each leg's portfolio fill released (PositionBook.applyFill), null when it made none. */
export interface RecordedLegs {
  readonly maker: number | null;
  readonly taker: number | null;
}

export class FillRecorder {
  readonly stats: FillStats = { fills: 0, positionErrors: 0, lastPositionError: null };
  /** Called once per trade after its legs are recorded; must not throw. */
  onRecorded: ((t: Trade, legs: RecordedLegs) => void) | null = null;

  constructor(
    private readonly engine: MatchingEngine,
    private readonly wallets: WalletMap,
    private readonly positions: PositionBook,
    private readonly trades: TradeLog,
    private readonly lastTrades: LastTrades,
    /** True for the engine accounts whose fills make portfolio positions. */
    private readonly hasPortfolio: (owner: string) => boolean,
  ) {}

  /** Subscribes to the engine; returns the unsubscribe function. */
  attach(): () => void {
    return this.engine.onTrade((t) => this.onTrade(t));
  }

  private onTrade(t: Trade): void {
    const maker = this.leg(t, t.makerOwner, t.makerTokenId, t.makerSide, t.makerPrice, t.makerFee, 'maker');
    const taker = this.leg(t, t.takerOwner, t.takerTokenId, t.takerSide, t.takerPrice, t.takerFee, 'taker');
    const m = this.engine.marketOfToken(t.takerTokenId);
    const state = m === undefined ? undefined : this.engine.market(m.conditionId);
    if (state !== undefined) {
      for (const token of state.tokens) {
        const lt = this.engine.lastTrade(token);
        if (lt !== null && lt !== undefined) this.lastTrades.record(token, lt.price, lt.side, lt.timeMs);
      }
    }
    this.onRecorded?.(t, { maker, taker });
  }

  /** Records one leg; returns the basis its portfolio fill released, or null when it made none. */
  private leg(
    t: Trade,
    owner: string,
    tokenId: string,
    side: 'BUY' | 'SELL',
    price: number,
    fee: number,
    role: 'maker' | 'taker',
  ): number | null {
    const fill: Fill = {
      user: this.wallets.walletOf(owner),
      tokenId,
      conditionId: t.conditionId,
      side,
      price: price as Fill['price'],
      size: t.size,
      feeMicros: fee as Fill['feeMicros'],
      timeMs: t.timeMs,
      transactionHash: legTransactionHash(t.id, role),
      role,
    };
    this.stats.fills++;
    try {
      this.trades.append(fill);
      return this.hasPortfolio(owner) ? this.positions.applyFill(fill) : null;
    } catch (e) {
      this.stats.positionErrors++;
      this.stats.lastPositionError = e instanceof Error ? e.message : String(e);
      return null;
    }
  }

  /** The portfolio fill of one leg of `t` as `leg` records it (to take it back). */
  fillOf(t: Trade, role: 'maker' | 'taker'): Fill {
    const maker = role === 'maker';
    return {
      user: this.wallets.walletOf(maker ? t.makerOwner : t.takerOwner),
      tokenId: maker ? t.makerTokenId : t.takerTokenId,
      conditionId: t.conditionId,
      side: maker ? t.makerSide : t.takerSide,
      price: (maker ? t.makerPrice : t.takerPrice) as Fill['price'],
      size: t.size,
      feeMicros: (maker ? t.makerFee : t.takerFee) as Fill['feeMicros'],
      timeMs: t.timeMs,
      transactionHash: legTransactionHash(t.id, role),
      role,
    };
  }
}
