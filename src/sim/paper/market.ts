// What the paper venue knows of one market: the settings the exchange reports (GET /clob-markets),
// reduced to what matching, checks and positions need. Invariants kept by every PaperMarket:
// - exactly two distinct token ids, [outcome 0, outcome 1]; the engine's book is in outcome-0
//   ("YES") terms and the other token's book is its mirror;
// - the tick is one of the ticks in use (core/tick.ts), the minimum size a non-negative integer of
//   share millionths, fees integer basis points in [0, 10⁴];
// - `fees` is the model fills are charged by (core/fees.ts), from the settings' fields the
//   exchange's dialect charges by (Dialect.fees: base bps, or the public exchange's `fd`); a market
//   whose fees cannot be charged exactly is refused (PAPER_MARKET_UNSUPPORTED).
// Pure: no I/O, no engine.
import { feeModelOf, type FeeModel, type FeeSchedule } from '../../core/fees.js';
import type { ClobMarketSettings } from '../../core/market.js';
import type { Price, Shares } from '../../core/money.js';
import { isKnownTick } from '../../core/tick.js';
import { MAX_BPS } from '../engine/fees.js';
import { PaperError } from './errors.js';

export interface PaperMarket {
  readonly conditionId: string;
  /** [outcome 0 (the book's terms), outcome 1]. */
  readonly tokens: readonly [string, string];
  /** Outcome names, same order ("Yes", "No"). */
  readonly outcomes: readonly [string, string];
  readonly tick: Price;
  readonly minSize: Shares;
  readonly makerFeeBps: number;
  readonly takerFeeBps: number;
  /** The model fills are charged by (see the header); absent: the base fees. */
  readonly fees?: FeeModel;
  readonly negRisk: boolean;
}

/** Display fields of a market for positions (from the sampling markets, when seen). */
export interface MarketDisplay {
  readonly title: string;
  readonly slug: string;
  readonly icon: string;
  readonly eventSlug: string;
  readonly endDate: string | null;
}

function validBps(v: number): boolean {
  return Number.isSafeInteger(v) && v >= 0 && v <= MAX_BPS;
}

/**
 * The venue's view of a market's settings, charged by `schedule` (the dialect's `fees`); throws
 * PaperError when the engine cannot hold it.
 */
export function paperMarketFromSettings(s: ClobMarketSettings, schedule: FeeSchedule = 'base-bps'): PaperMarket {
  const where = `market ${s.conditionId}`;
  if (s.tokens.length !== 2)
    throw new PaperError(
      'PAPER_MARKET_UNSUPPORTED',
      `${where}: ${s.tokens.length} tokens, the venue simulates binary markets only`,
    );
  const [a, b] = s.tokens as readonly [{ tokenId: string; outcome: string }, { tokenId: string; outcome: string }];
  if (a.tokenId === '' || b.tokenId === '' || a.tokenId === b.tokenId) {
    throw new PaperError('PAPER_MARKET_UNSUPPORTED', `${where}: the two token ids must be distinct and non-empty`);
  }
  const tick = s.tickSize;
  if (tick === null || !isKnownTick(tick))
    throw new PaperError('PAPER_MARKET_UNSUPPORTED', `${where}: unknown tick ${String(tick)}`);
  const minSize = s.minOrderSize;
  if (minSize === null || !Number.isSafeInteger(minSize) || minSize < 0) {
    throw new PaperError('PAPER_MARKET_UNSUPPORTED', `${where}: invalid minimum order size ${String(minSize)}`);
  }
  // Absent base fees (the public exchange omits them) are no base fee, as in marketdata/universe.ts.
  const makerFeeBps = s.makerBaseFeeBps ?? 0;
  const takerFeeBps = s.takerBaseFeeBps ?? 0;
  if (!validBps(makerFeeBps) || !validBps(takerFeeBps)) {
    throw new PaperError('PAPER_MARKET_UNSUPPORTED', `${where}: fees must be integer bps in [0, 10000]`);
  }
  const fees = feeModelOf(schedule, {
    makerBaseFeeBps: makerFeeBps,
    takerBaseFeeBps: takerFeeBps,
    feeDetails: s.feeDetails,
  });
  if (fees === null)
    throw new PaperError(
      'PAPER_MARKET_UNSUPPORTED',
      `${where}: fee details ${JSON.stringify(s.feeDetails)} cannot be charged exactly`,
    );
  return {
    conditionId: s.conditionId,
    tokens: [a.tokenId, b.tokenId],
    outcomes: [a.outcome, b.outcome],
    tick,
    minSize,
    makerFeeBps,
    takerFeeBps,
    fees,
    negRisk: s.negRisk,
  };
}
