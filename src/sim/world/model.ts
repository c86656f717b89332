// Domain records of the synthetic world (no wire shapes here: renderers turn these into the
// interface's JSON). Invariants kept here:
// - static records (events, markets, tags, series, users, comments, past trades, leaderboard
//   figures) never change after generation; everything the venue can change about a market lives
//   in its `MarketState`, mutated only through `World` methods (world.ts), so renderers always
//   reflect the venue's current tick, flags, prices and winner;
// - money-like figures are integer millionths (Price, Shares, Micros); times are epoch ms;
// - a market has exactly two outcome tokens, index 0 and 1, and `winner` is set only when resolved.
import type { Micros, Price, Shares } from '../../core/money.js';

/** Categories of the world; the leaderboard's categories are these upper-cased plus OVERALL. */
export const CATEGORIES = [
  'politics',
  'sports',
  'crypto',
  'finance',
  'culture',
  'mentions',
  'weather',
  'economics',
  'tech',
] as const;
export type Category = (typeof CATEGORIES)[number];

export type OutcomeIndex = 0 | 1;

export interface TagRec {
  readonly id: string;
  readonly label: string;
  readonly slug: string;
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
  readonly requiresTranslation: boolean;
}

export interface SeriesRec {
  readonly index: number;
  readonly id: string;
  readonly ticker: string;
  readonly slug: string;
  readonly title: string;
  readonly seriesType: string;
  /** 'daily' | 'weekly' | 'monthly' | 'annual'. */
  readonly recurrence: string;
  readonly image: string;
  readonly icon: string;
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
}

/** Liquidity rewards of a market (docs/protocol.md §6). */
export interface RewardsRec {
  /** Collateral address the rewards are paid in. */
  readonly assetAddress: string;
  /** Daily reward pool in collateral millionths (750 → 750_000_000). */
  readonly dailyRate: Micros;
  /** Minimum order size that scores, shares. */
  readonly minSize: Shares;
  /** Maximum distance from the midpoint that scores, in cents, millionths (1.5¢ → 1_500_000). */
  readonly maxSpreadCents: number;
}

/** Fee schedule of a market (the `fd` of §2.10): rate in millionths (0.07 → 70_000). */
export interface FeeRec {
  readonly rate: number;
  readonly exponent: number;
  readonly takerOnly: boolean;
  /** Base fees in basis points (§2.8 maker_base_fee / taker_base_fee). */
  readonly makerBaseFeeBps: number;
  readonly takerBaseFeeBps: number;
}

/** Everything about a market the venue may change while the world runs. */
export interface MarketState {
  tick: Price;
  minOrderSize: Shares;
  active: boolean;
  closed: boolean;
  archived: boolean;
  acceptingOrders: boolean;
  enableOrderBook: boolean;
  /** Displayed token prices (§2.8 tokens[].price), index = outcome index. */
  prices: [Price, Price];
  winner: OutcomeIndex | null;
  resolvedAtMs: number | null;
  updatedAtMs: number;
}

export interface MarketRec {
  readonly index: number;
  /** Numeric market id (`market_id`). */
  readonly id: number;
  readonly conditionId: string;
  readonly questionId: string;
  readonly question: string;
  /** Short label of this market inside its event ("Alice Moreau", "↑ 120,000"). */
  readonly groupItemTitle: string;
  readonly description: string;
  readonly slug: string;
  readonly eventIndex: number;
  readonly category: Category;
  readonly outcomes: readonly [string, string];
  readonly tokenIds: readonly [string, string];
  /** Tag labels as listed on the CLOB market record (§2.8 `tags`). */
  readonly tagLabels: readonly string[];
  readonly tagIds: readonly string[];
  readonly icon: string;
  readonly image: string;
  readonly resolutionSource: string;
  readonly createdAtMs: number;
  readonly startDateMs: number;
  readonly endDateMs: number;
  readonly acceptingOrderTimestampMs: number;
  /** Kick-off of a sports game; null for markets that are not games. */
  readonly gameStartTimeMs: number | null;
  readonly secondsDelay: number;
  readonly fpmm: string;
  readonly notificationsEnabled: boolean;
  readonly is5050Outcome: boolean;
  readonly negRisk: boolean;
  readonly negRiskMarketId: string;
  readonly negRiskRequestId: string;
  readonly rewards: RewardsRec | null;
  readonly fee: FeeRec;
  readonly rfqEnabled: boolean;
  readonly takerOrderDelayEnabled: boolean;
  readonly takerOrderDelayMs: number;
  readonly orderAgeSeconds: number;
  readonly screeningCheckEnabled: boolean;
  /** Latent probability of outcome 0 the synthetic order flow can orbit. */
  readonly latentProbability: Price;
  readonly state: MarketState;
}

export interface EventRec {
  readonly index: number;
  readonly id: string;
  readonly ticker: string;
  readonly slug: string;
  readonly title: string;
  readonly description: string;
  readonly resolutionSource: string;
  readonly image: string;
  readonly icon: string;
  readonly category: Category;
  readonly startDateMs: number;
  readonly endDateMs: number;
  readonly createdAtMs: number;
  readonly creationDateMs: number;
  readonly updatedAtMs: number;
  readonly tagIds: readonly string[];
  readonly seriesIndexes: readonly number[];
  readonly marketIndexes: readonly number[];
  /** Wallet of the event's creator; the `creator` query scope matches it. */
  readonly creator: string;
  readonly negRisk: boolean;
  readonly negRiskMarketId: string;
  readonly eventMetadata: Readonly<Record<string, string | number | boolean>>;
}

export interface ImageOptimizedRec {
  readonly id: string;
  readonly imageUrlSource: string;
  readonly imageUrlOptimized: string;
  readonly imageSizeKbSource: number;
  readonly imageSizeKbOptimized: number;
  readonly imageOptimizedComplete: boolean;
  readonly imageOptimizedLastUpdatedMs: number;
  readonly relID: number;
  readonly field: string;
  readonly relname: string;
}

/** A synthetic trader: comment author, leaderboard row, search profile. */
export interface UserRec {
  readonly index: number;
  /** Proxy wallet, lower-case 0x + 40 hex. */
  readonly proxyWallet: string;
  readonly baseAddress: string;
  readonly name: string;
  readonly pseudonym: string;
  readonly bio: string;
  readonly profileImage: string;
  readonly profileImageOptimized: ImageOptimizedRec;
  readonly displayUsernamePublic: boolean;
  readonly isMod: boolean;
  readonly isCreator: boolean;
  readonly xUsername: string | null;
  readonly verifiedBadge: string | null;
  readonly positions: readonly { readonly tokenId: string; readonly positionSize: Shares }[];
}

export interface ReactionRec {
  readonly id: string;
  readonly reactionType: string;
  readonly icon: string;
  readonly userIndex: number;
  readonly createdAtMs: number;
}

export interface CommentRec {
  readonly id: string;
  readonly body: string;
  readonly parentEntityType: string;
  readonly parentEntityID: number;
  /** Id of the comment replied to; '' for a top-level comment (the table allows no null). */
  readonly parentCommentID: string;
  readonly userIndex: number;
  /** Wallet of the author of the comment replied to; '' for a top-level comment. */
  readonly replyAddress: string;
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
  readonly reactions: readonly ReactionRec[];
  readonly reportCount: number;
  readonly replies: readonly CommentRec[];
}

export const LEADERBOARD_CATEGORIES = [
  'OVERALL',
  'POLITICS',
  'SPORTS',
  'CRYPTO',
  'FINANCE',
  'CULTURE',
  'MENTIONS',
  'WEATHER',
  'ECONOMICS',
  'TECH',
] as const;
export const LEADERBOARD_PERIODS = ['DAY', 'WEEK', 'MONTH', 'ALL'] as const;
export type LeaderboardCategoryName = (typeof LEADERBOARD_CATEGORIES)[number];
export type LeaderboardPeriodName = (typeof LEADERBOARD_PERIODS)[number];

/**
 * One trade of the world's synthetic past (before its start), as one wallet's side of a match:
 * the history the leaderboard, positions, closed positions and /trades are all derived from
 * (past-trades.ts generates it, standings.ts derives the rest). Price on the market's tick, size
 * a whole multiple of 10 shares, whole seconds, no fee (a maker, or a taker on a fee-free market).
 */
export interface PastTrade {
  readonly userIndex: number;
  readonly marketIndex: number;
  readonly outcomeIndex: OutcomeIndex;
  readonly side: 'BUY' | 'SELL';
  readonly price: Price;
  readonly size: Shares;
  readonly timeMs: number;
  readonly role: 'maker' | 'taker';
}

/** One user's figures in one category and period (collateral millionths, whole cents). */
export interface LeaderboardFigure {
  readonly userIndex: number;
  readonly vol: Micros;
  readonly pnl: Micros;
}
