// Resolution payoffs in a backtest: what happens when the recording reaches a RESOLVED record (a
// market resolved; the event names the winning token). At the event's time, in this order:
// 1. the venue stops trading the market: the matching engine's `resolve` cancels every resting
//    order of it (ours read CANCELED_MARKET_RESOLVED, as the exchange reports them) and refuses new
//    ones ("not ready"): a placement the daemon still sends is a rejection, a value, never a crash;
// 2. the ledger settles the market at the event's time (Ledger.resolveMarket): the winner pays 1 a
//    share, the other token 0, every position of it closes; a fill the order manager learns of
//    later (a maker fill found by its next lookup) is settled as it is recorded;
// 3. the market's data stops: its books are no longer fed to the venue (a resolved market holds no
//    liquidity) and no longer served to the daemon's polls (as the exchange serves no book for a
//    resolved market), so the daemon's book cache ages out and risk drops its quotes
//    (`stale-data`); the tokens' marks become their payouts (1, 0), so equity and markouts after
//    the event value the market at what it paid.
// Invariants kept:
// - a market resolves once: a repeated record naming the same winner changes nothing, one naming
//   another winner is an error of the recording (RangeError); a winner that is not a token of the
//   recorded market is refused the same way;
// - a resolution seen before the daemon started takes the market out of the universe (it has no
//   orders and no positions yet to settle) and is still listed in the result;
// - the result lists resolutions in the order the recording holds them, each with the ledger's own
//   settlement rows (exact integers), so equal inputs give byte-identical results.
import { ONE, type Price } from '../core/money.js';
import type { Ledger } from '../ledger/index.js';
import type { ResolvedEvent } from '../marketdata/recording/reader.js';
import type { ReplayVenuePort } from './replay/venue-port.js';
import type { RecordedMarketData } from './market-data.js';
import type { BacktestResolution } from './types.js';
import { BacktestError } from './errors.js';

/** A resolution as the run keeps it: the result's fields, and how the ledger took it. */
type Resolved = Pick<
  BacktestResolution,
  'conditionId' | 'winnerTokenId' | 'tokens' | 'timeMs' | 'exchangeTimeMs' | 'ordersCanceled'
> & {
  /** Whether the ledger recorded it (false when it came before the daemon started). */
  readonly inLedger: boolean;
};

export class BacktestResolutions {
  private readonly byCondition = new Map<string, Resolved>();
  private readonly resolvedTokens = new Set<string>();

  isResolved(conditionId: string): boolean {
    return this.byCondition.has(conditionId);
  }

  isTokenResolved(tokenId: string): boolean {
    return this.resolvedTokens.has(tokenId);
  }

  /** Markets resolved so far, in record order. */
  conditionIds(): string[] {
    return [...this.byCondition.keys()];
  }

  /**
   * Applies a RESOLVED record at virtual time `timeMs` (see the header). `venue` and `ledger` are
   * null before the daemon has started. Returns the marks the market's tokens take from now on
   * ([token, payout]); empty when the record repeats an earlier resolution.
   */
  apply(
    ev: Pick<ResolvedEvent, 'conditionId' | 'tokenId' | 'exchangeTs'>,
    timeMs: number,
    md: RecordedMarketData,
    venue: Pick<ReplayVenuePort, 'hasMarket' | 'openOrderCount' | 'resolveMarket'> | null,
    ledger: Pick<Ledger, 'resolveMarket'> | null,
  ): Array<readonly [string, Price]> {
    const cid = ev.conditionId;
    const winner = ev.tokenId;
    const known = this.byCondition.get(cid);
    if (known !== undefined) {
      if (known.winnerTokenId !== winner) {
        throw new BacktestError(
          'BACKTEST_RECORDING_INCONSISTENT',
          `the recording resolves market ${cid} twice, for ${known.winnerTokenId} and then for ${winner}`,
        );
      }
      return [];
    }
    const tokens = md.settingsOf(cid)?.tokens.map((t) => t.tokenId) ?? [winner];
    if (!tokens.includes(winner))
      throw new BacktestError(
        'BACKTEST_RECORDING_INCONSISTENT',
        `the recording resolves market ${cid} for ${winner}, which is not one of its tokens`,
      );
    let ordersCanceled = 0;
    if (venue !== null && venue.hasMarket(cid)) {
      ordersCanceled = venue.openOrderCount(cid);
      venue.resolveMarket(cid, winner);
    }
    if (ledger !== null) ledger.resolveMarket(cid, winner, timeMs);
    this.byCondition.set(cid, {
      conditionId: cid,
      winnerTokenId: winner,
      tokens,
      timeMs,
      exchangeTimeMs: ev.exchangeTs,
      ordersCanceled,
      inLedger: ledger !== null,
    });
    for (const t of tokens) this.resolvedTokens.add(t);
    return tokens.map((t) => [t, (t === winner ? ONE : 0) as Price] as const);
  }

  /** The resolutions with the ledger's settlement rows, in record order (plain data). */
  collect(ledger: Pick<Ledger, 'settlements'>): BacktestResolution[] {
    const out: BacktestResolution[] = [];
    for (const r of this.byCondition.values()) {
      const rows = r.inLedger ? ledger.settlements(r.conditionId) : [];
      let shares = 0;
      let payout = 0;
      let realized = 0;
      const settlements = rows.map((s) => {
        shares += s.size;
        payout += s.proceeds;
        realized += s.realizedDelta;
        return {
          tokenId: s.tokenId,
          payout: s.payout,
          shares: s.size,
          proceeds: s.proceeds,
          realized: s.realizedDelta,
          recordedAtMs: s.recordedAtMs,
        };
      });
      out.push({
        conditionId: r.conditionId,
        winnerTokenId: r.winnerTokenId,
        tokens: [...r.tokens],
        timeMs: r.timeMs,
        exchangeTimeMs: r.exchangeTimeMs,
        ordersCanceled: r.ordersCanceled,
        sharesSettled: shares,
        payout,
        realized,
        settlements,
      });
    }
    return out;
  }
}
