// Canned exchange answers for the client tests: real recorded payloads from test/fixtures/real/
// where one exists (book, markets page, order responses, prices history, trades, events), and
// interface-conformant records, typed by the wire types of src/exchange/wire.ts, for the routes
// no licensed real example covers (positions, comments, leaderboard, ...). Also test credentials.
import { readFileSync } from 'node:fs';
import { getAddress } from 'ethers';
import { fileURLToPath } from 'node:url';
import type { ApiCredentials } from '../../../src/exchange/auth/credentials.js';
import type {
  WireApiKeyCreds,
  WireBestPrices,
  WireBook,
  WireCancelResult,
  WireClobMarketSettings,
  WireClosedPosition,
  WireComment,
  WireEventFull,
  WireLastTradePrice,
  WireLeaderboardEntry,
  WireMarketsEnvelope,
  WireMidpoints,
  WireOrderLookup,
  WireOrderSubmission,
  WirePlacementResult,
  WirePosition,
  WirePriceHistoryBatch,
  WirePublicSearch,
  WireSimplifiedMarket,
  WireTag,
} from '../../../src/exchange/wire.js';

const REAL = fileURLToPath(new URL('../../fixtures/real/', import.meta.url));

export function real(name: string): object {
  return JSON.parse(readFileSync(REAL + name, 'utf8')) as object;
}

export const ADDRESS = getAddress('0x6af75d4e4aaf700450efbac3708cce1665810ff1');
export const USER = ADDRESS.toLowerCase();

/** Test-only credentials (not a real key). */
export const CREDS: ApiCredentials = {
  apiKey: '5f2b6c1e-8a4d-4c7b-9e3f-0a1b2c3d4e5f',
  secret: 'c2VjcmV0LWZvci10ZXN0cy1vbmx5LW5vdC1hLXJlYWwta2V5IQ==',
  passphrase: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
};

export const TOKEN = '16040015440196279900485035793550429453516625694844857319147506590755961451627';
export const CONDITION = '0x7ad403c3508f8e3912940fd1a913f227591145ca0614074208e0b962d5fcc422';
export const ORDER_ID = '0x94f351bb28cfe3d4507a24ffafa528409d6de50235f33e81e8fad12929c1cd16';

export function submission(salt = '12345'): WireOrderSubmission {
  return {
    order: {
      tokenId: TOKEN,
      conditionId: CONDITION,
      maker: ADDRESS,
      signer: ADDRESS,
      makerAmount: '10520000',
      takerAmount: '21040000',
      side: 'BUY',
      metadata: `0x${'0'.repeat(64)}`,
      salt,
      signatureType: 0,
      signature: `0x${'ab'.repeat(65)}`,
      timestamp: '1781289172000',
      builder: `0x${'0'.repeat(64)}`,
    },
    orderType: 'GTC',
    owner: CREDS.apiKey,
  };
}

/** A bare order record of the public order wire (test/fixtures/real/wire/orders/SOURCES.md). */
export const orderRecordPublic = real('wire/orders/order_get_nautilus.json');
export const placementLive = (real('clob_rest_order_responses.json') as { post_order_live: WirePlacementResult })
  .post_order_live;
export const cancelReal = (real('clob_rest_order_responses.json') as { cancel_order: WireCancelResult }).cancel_order;
export const bookReal = real('wire/markets/book_get_ccxt_2026-06-12.json') as WireBook;
export const marketsPageReal = real('wire/markets/markets_get_page_nautilus_2024.json') as WireMarketsEnvelope<unknown>;

export function bookFor(tokenId: string): WireBook {
  return { ...bookReal, asset_id: tokenId };
}

export const orderLookup: WireOrderLookup = {
  order: {
    associateTrades: [],
    id: ORDER_ID,
    status: 'LIVE',
    market: CONDITION,
    originalSize: '21.04',
    outcome: 'Yes',
    makerAddress: ADDRESS,
    owner: CREDS.apiKey,
    price: '0.5',
    side: 'BUY',
    sizeMatched: '0',
    assetId: TOKEN,
    type: 'GTC',
    createdAt: '2026-06-12T18:35:37.000Z',
  },
};

export const bestPricesFor = (ids: readonly string[]): WireBestPrices =>
  Object.fromEntries(ids.map((id) => [id, { BUY: '0.5', SELL: '0.52' }]));
export const midpointsFor = (ids: readonly string[]): WireMidpoints =>
  Object.fromEntries(ids.map((id) => [id, '0.51']));
export const lastTradesFor = (ids: readonly string[]): WireLastTradePrice[] =>
  ids.map((token_id) => ({ token_id, price: '0.51', side: 'BUY' }));
export const historyFor = (ids: readonly string[]): WirePriceHistoryBatch => ({
  history: Object.fromEntries(ids.map((id) => [id, [{ t: 1790000000, p: 0.52 }]])),
});

const rewards = {
  rates: [{ asset_address: '0x2791bca1f2de4661ed88a30c99a7a9449aa84174', rewards_daily_rate: 750 }],
  min_size: 200,
  max_spread: 1.5,
};

export const simplifiedMarket = (i: number): WireSimplifiedMarket => ({
  condition_id: `0x${i.toString(16).padStart(64, '0')}`,
  status: 'active',
  neg_risk: false,
  market_id: i,
  question: `Question ${i}?`,
  slug: `question-${i}`,
  active: true,
  closed: false,
  archived: false,
  accepting_orders: true,
  tokens: [
    { token_id: String(1000 + 2 * i), outcome: 'Yes', price: 0.5, winner: false },
    { token_id: String(1001 + 2 * i), outcome: 'No', price: 0.5, winner: false },
  ],
  rewards,
  assets_ids: [String(1000 + 2 * i), String(1001 + 2 * i)],
  outcomes: ['Yes', 'No'],
});

export function simplifiedPage(from: number, n: number, next: string): WireMarketsEnvelope<WireSimplifiedMarket> {
  return {
    data: Array.from({ length: n }, (_, k) => simplifiedMarket(from + k)),
    next_cursor: next,
    limit: n,
    count: n,
  };
}

export const clobMarket: WireClobMarketSettings = {
  gst: '',
  r: rewards,
  c: CONDITION,
  nr: false,
  t: [
    { t: TOKEN, o: 'Yes' },
    { t: '1', o: 'No' },
  ],
  mts: 0.01,
  mos: 5,
  fd: { r: 0, e: 0, to: true },
  mbf: 0,
  tbf: 0,
  rfqe: false,
  itode: false,
  ibce: false,
  oas: 0,
};

export const position: WirePosition = {
  proxyWallet: USER,
  asset: TOKEN,
  conditionId: CONDITION,
  size: 21.04,
  avgPrice: 0.5,
  initialValue: 10.52,
  currentValue: 10.94,
  cashPnl: 0.42,
  percentPnl: 3.99,
  totalBought: 21.04,
  realizedPnl: 0,
  percentRealizedPnl: 0,
  curPrice: 0.52,
  redeemable: false,
  mergeable: false,
  negativeRisk: false,
  title: 'Will JD Vance win the 2028 US Presidential Election?',
  slug: 'will-jd-vance-win-the-2028-us-presidential-election',
  icon: '',
  eventSlug: 'presidential-election-winner-2028',
  outcome: 'Yes',
  oppositeOutcome: 'No',
  oppositeAsset: '1',
  outcomeIndex: 0,
  timestamp: 1781289172,
  endDate: '2028-11-07T00:00:00Z',
};

export const closedPosition: WireClosedPosition = (({ negativeRisk: _n, ...rest }) => rest)(position);

export const tag: WireTag = {
  id: '2',
  label: 'Politics',
  slug: 'politics',
  createdAt: '2023-10-25T18:55:50.681Z',
  updatedAt: '2024-06-04T16:40:40.435Z',
  requiresTranslation: false,
};

export const comment: WireComment = {
  id: '1001',
  body: 'Interesting market',
  parentEntityType: 'Event',
  parentEntityID: 30829,
  parentCommentID: '',
  userAddress: USER,
  replyAddress: '',
  createdAt: '2026-06-12T18:35:37.000Z',
  updatedAt: '2026-06-12T18:35:37.000Z',
  profile: {
    name: 'trader',
    pseudonym: 'Calm-Owl',
    bio: '',
    proxyWallet: USER,
    baseAddress: USER,
    profileImage: '',
    displayUsernamePublic: true,
    isMod: false,
    isCreator: false,
    profileImageOptimized: {},
    positions: [{ tokenId: TOKEN, positionSize: '21.04' }],
  },
  reactions: [],
  reportCount: 0,
  reactionCount: 0,
  replyCount: 0,
  replies: [],
};

export const leaderboardEntry: WireLeaderboardEntry = {
  rank: '1',
  proxyWallet: USER,
  userName: 'trader',
  vol: 1234.5,
  pnl: 99.25,
  profileImage: '',
  xUsername: null,
  verifiedBadge: null,
};

export const eventsReal = real('gamma_events_dem_nominee_2028.json') as unknown[];

export const eventFull: WireEventFull = {
  id: '30829',
  ticker: 'democratic-presidential-nominee-2028',
  slug: 'democratic-presidential-nominee-2028',
  title: 'Democratic Presidential Nominee 2028',
  description: 'd',
  resolutionSource: '',
  image: '',
  icon: '',
  startDate: '2024-11-05T00:00:00Z',
  endDate: '2028-08-31T00:00:00Z',
  createdAt: '2024-11-04T19:59:41.263Z',
  updatedAt: '2026-06-12T18:35:37.000Z',
  active: true,
  closed: false,
  archived: false,
  tags: [tag],
  creationDate: '2024-11-04T19:59:41.263Z',
  markets: [],
  series: [],
  eventMetadata: {},
};

export const publicSearchAnswer: WirePublicSearch = {
  events: [],
  tags: [tag],
  profiles: [{ name: 'trader', pseudonym: 'Calm-Owl', proxyWallet: USER, profileImage: '' }],
};

export const apiKeyCreds: WireApiKeyCreds = {
  apiKey: CREDS.apiKey,
  secret: CREDS.secret,
  passphrase: CREDS.passphrase,
};

/** The real markets page turned into the sampling variant (§2.8: the base record plus these fields). */
export function samplingPageFromReal(next: string): WireMarketsEnvelope<unknown> {
  const data = (marketsPageReal.data as Array<Record<string, unknown>>).map((m, i) => ({
    ...m,
    status: 'active',
    market_id: i + 1,
    slug: String(m['market_slug']),
    assets_ids: (m['tokens'] as Array<{ token_id: string }>).map((t) => t.token_id),
    outcomes: (m['tokens'] as Array<{ outcome: string }>).map((t) => t.outcome),
    event: { id: String(i + 1), slug: `event-${i + 1}`, title: 'Event', ticker: `event-${i + 1}`, description: '' },
    raw_metadata: {},
  }));
  return { data, next_cursor: next, limit: data.length, count: data.length };
}
