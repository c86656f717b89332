// From engine trades to the venue's public records: each fill becomes one portfolio Fill per side
// (maker and taker) for the PositionBook and the public trade log, and moves the last trade price
// of both tokens of the market. Invariants kept here:
// - engine accounts are shown under their wallet: an address id as itself (lower case), any other
//   id as a world trader's wallet chosen by a hash of the id (deterministic);
// - only the venue's own accounts (wallets it issued an API key to or funded) get PositionBook
//   positions; the synthetic traders appear in the public trade log only (they are funded with
//   minted tokens the portfolio never saw, so their sells could not be accounted);
// - a portfolio failure (a fill the PositionBook refuses) never reaches the engine: the engine
//   rethrows listener errors into the submitting call, so they are counted here instead;
// - the last trade of a token is the engine's (taker side in that token's terms).
import { createHash } from 'node:crypto';
import type { MatchingEngine, Trade } from '../engine/index.js';
import type { Fill, LastTrades, PositionBook, TradeLog, World } from '../world/index.js';
import { isAddress } from '../world/query.js';

export class WalletMap {
  private readonly cache = new Map<string, string>();

  constructor(private readonly world: World) {}

  /** The wallet shown for an engine account. */
  walletOf(owner: string): string {
    if (isAddress(owner)) return owner.toLowerCase();
    let w = this.cache.get(owner);
    if (w === undefined) {
      const users = this.world.users;
      if (users.length === 0) return '0x' + createHash('sha256').update(owner).digest('hex').slice(0, 40);
      const h = createHash('sha256').update(`flow-wallet/${owner}`).digest().readUInt32BE(0);
      w = (users[h % users.length] as (typeof users)[number]).proxyWallet;
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

export class FillRecorder {
  readonly stats: FillStats = { fills: 0, positionErrors: 0, lastPositionError: null };

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
    this.leg(t, t.makerOwner, t.makerTokenId, t.makerSide, t.makerPrice, t.makerFee, `${t.id}/m`, 'maker');
    this.leg(t, t.takerOwner, t.takerTokenId, t.takerSide, t.takerPrice, t.takerFee, `${t.id}/t`, 'taker');
    const m = this.engine.marketOfToken(t.takerTokenId);
    const state = m === undefined ? undefined : this.engine.market(m.conditionId);
    if (state !== undefined) {
      for (const token of state.tokens) {
        const lt = this.engine.lastTrade(token);
        if (lt !== null && lt !== undefined) this.lastTrades.record(token, lt.price, lt.side, lt.timeMs);
      }
    }
  }

  private leg(t: Trade, owner: string, tokenId: string, side: 'BUY' | 'SELL', price: number, fee: number, key: string, role: 'maker' | 'taker'): void {
    const fill: Fill = {
      user: this.wallets.walletOf(owner),
      tokenId,
      conditionId: t.conditionId,
      side,
      price: price as Fill['price'],
      size: t.size,
      feeMicros: fee as Fill['feeMicros'],
      timeMs: t.timeMs,
      transactionHash: '0x' + createHash('sha256').update(key).digest('hex'),
      role,
    };
    this.stats.fills++;
    try {
      this.trades.append(fill);
      if (this.hasPortfolio(owner)) this.positions.applyFill(fill);
    } catch (e) {
      this.stats.positionErrors++;
      this.stats.lastPositionError = e instanceof Error ? e.message : String(e);
    }
  }
}
