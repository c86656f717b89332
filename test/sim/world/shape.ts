// Shape checker for the world's wire output, written from the tables of docs/exchange-interface.md §2
// (not from wire.ts, so it checks the renderers against the interface itself). A shape lists every
// field with its JSON type; `checkShape` reports missing fields, extra fields and wrong types.
// Types: string, number (finite), integer, boolean, iso (ISO 8601 UTC with ms), null-able string,
// object (any plain object), json-strings (a string holding a JSON array of strings), nested shapes
// and arrays of either.

export type FieldType =
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'iso'
  | 'object'
  | 'string|null'
  | 'json-strings'
  | Shape
  | { array: FieldType };
export interface Shape {
  readonly [field: string]: FieldType;
}

const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function checkShape(value: unknown, shape: FieldType, path = '$'): string[] {
  const errs: string[] = [];
  if (typeof shape === 'string') {
    switch (shape) {
      case 'string':
        if (typeof value !== 'string') errs.push(`${path}: expected string, got ${JSON.stringify(value)}`);
        break;
      case 'number':
        if (typeof value !== 'number' || !Number.isFinite(value))
          errs.push(`${path}: expected number, got ${JSON.stringify(value)}`);
        break;
      case 'integer':
        if (!Number.isSafeInteger(value)) errs.push(`${path}: expected integer, got ${JSON.stringify(value)}`);
        break;
      case 'boolean':
        if (typeof value !== 'boolean') errs.push(`${path}: expected boolean, got ${JSON.stringify(value)}`);
        break;
      case 'iso':
        if (typeof value !== 'string' || !ISO_RE.test(value) || new Date(value).toISOString() !== value)
          errs.push(`${path}: expected ISO 8601, got ${JSON.stringify(value)}`);
        break;
      case 'object':
        if (!isPlain(value)) errs.push(`${path}: expected object, got ${JSON.stringify(value)}`);
        break;
      case 'string|null':
        if (typeof value !== 'string' && value !== null)
          errs.push(`${path}: expected string or null, got ${JSON.stringify(value)}`);
        break;
      case 'json-strings': {
        let ok = typeof value === 'string';
        if (ok) {
          try {
            const a: unknown = JSON.parse(value as string);
            ok = Array.isArray(a) && a.every((x) => typeof x === 'string');
          } catch {
            ok = false;
          }
        }
        if (!ok) errs.push(`${path}: expected a JSON list of strings in a string, got ${JSON.stringify(value)}`);
        break;
      }
    }
    return errs;
  }
  if (isArraySpec(shape)) {
    if (!Array.isArray(value)) return [`${path}: expected array, got ${JSON.stringify(value)}`];
    value.forEach((v, i) => errs.push(...checkShape(v, shape.array, `${path}[${i}]`)));
    return errs;
  }
  if (!isPlain(value)) return [`${path}: expected object, got ${JSON.stringify(value)}`];
  const s = shape as Shape;
  for (const k of Object.keys(s)) {
    if (!(k in value)) errs.push(`${path}.${k}: missing`);
    else errs.push(...checkShape(value[k], s[k] as FieldType, `${path}.${k}`));
  }
  for (const k of Object.keys(value)) if (!(k in s)) errs.push(`${path}.${k}: not in the table`);
  return errs;
}

// A shape whose only field is named "array" would be ambiguous; none of the tables has one.
function isArraySpec(s: object): s is { array: FieldType } {
  return Object.keys(s).length === 1 && 'array' in s;
}

const arr = (t: FieldType): FieldType => ({ array: t });

export const REWARDS: Shape = {
  rates: arr({ asset_address: 'string', rewards_daily_rate: 'number' }),
  min_size: 'number',
  max_spread: 'number',
};
export const TOKEN: Shape = { token_id: 'string', outcome: 'string', price: 'number', winner: 'boolean' };

/** §2.8 base variant. */
export const MARKET: Shape = {
  enable_order_book: 'boolean',
  active: 'boolean',
  closed: 'boolean',
  archived: 'boolean',
  accepting_orders: 'boolean',
  accepting_order_timestamp: 'iso',
  minimum_order_size: 'number',
  minimum_tick_size: 'number',
  condition_id: 'string',
  question_id: 'string',
  question: 'string',
  description: 'string',
  market_slug: 'string',
  end_date_iso: 'iso',
  game_start_time: 'string',
  seconds_delay: 'number',
  fpmm: 'string',
  maker_base_fee: 'number',
  taker_base_fee: 'number',
  notifications_enabled: 'boolean',
  neg_risk: 'boolean',
  is_50_50_outcome: 'boolean',
  neg_risk_market_id: 'string',
  neg_risk_request_id: 'string',
  icon: 'string',
  image: 'string',
  rewards: REWARDS,
  tokens: arr(TOKEN),
  tags: arr('string'),
  itode: 'boolean',
  taker_order_delay_ms: 'number',
  order_age_seconds: 'number',
  screening_check_enabled: 'boolean',
};

export const SAMPLING_MARKET: Shape = {
  ...MARKET,
  status: 'string',
  market_id: 'number',
  slug: 'string',
  assets_ids: arr('string'),
  outcomes: arr('string'),
  event: { id: 'string', slug: 'string', title: 'string', ticker: 'string', description: 'string' },
  raw_metadata: 'object',
};

/** §2.9 */
export const SIMPLIFIED_MARKET: Shape = {
  condition_id: 'string',
  status: 'string',
  neg_risk: 'boolean',
  market_id: 'number',
  question: 'string',
  slug: 'string',
  active: 'boolean',
  closed: 'boolean',
  archived: 'boolean',
  accepting_orders: 'boolean',
  tokens: arr(TOKEN),
  rewards: REWARDS,
  assets_ids: arr('string'),
  outcomes: arr('string'),
};

export const envelope = (record: Shape): Shape => ({
  data: arr(record),
  next_cursor: 'string',
  limit: 'number',
  count: 'number',
});

/** §2.10 */
export const CLOB_SETTINGS: Shape = {
  gst: 'string',
  r: REWARDS,
  c: 'string',
  nr: 'boolean',
  t: arr({ t: 'string', o: 'string' }),
  mts: 'number',
  mos: 'number',
  fd: { r: 'number', e: 'number', to: 'boolean' },
  mbf: 'number',
  tbf: 'number',
  rfqe: 'boolean',
  itode: 'boolean',
  ibce: 'boolean',
  oas: 'number',
};

const POSITION_COMMON: Shape = {
  proxyWallet: 'string',
  asset: 'string',
  conditionId: 'string',
  size: 'number',
  avgPrice: 'number',
  initialValue: 'number',
  currentValue: 'number',
  cashPnl: 'number',
  percentPnl: 'number',
  totalBought: 'number',
  realizedPnl: 'number',
  percentRealizedPnl: 'number',
  curPrice: 'number',
  redeemable: 'boolean',
  mergeable: 'boolean',
  title: 'string',
  slug: 'string',
  icon: 'string',
  eventSlug: 'string',
  outcome: 'string',
  oppositeOutcome: 'string',
  oppositeAsset: 'string',
  outcomeIndex: 'integer',
  timestamp: 'integer',
  endDate: 'iso',
};
/** §2.11 */
export const POSITION: Shape = { ...POSITION_COMMON, negativeRisk: 'boolean' };
/** §2.12 */
export const CLOSED_POSITION: Shape = POSITION_COMMON;

/** §2.15 */
export const TAG: Shape = {
  id: 'string',
  label: 'string',
  slug: 'string',
  createdAt: 'iso',
  updatedAt: 'iso',
  requiresTranslation: 'boolean',
};

/** §2.14 */
export const PROFILE: Shape = {
  name: 'string',
  pseudonym: 'string',
  bio: 'string',
  proxyWallet: 'string',
  baseAddress: 'string',
  profileImage: 'string',
  displayUsernamePublic: 'boolean',
  isMod: 'boolean',
  isCreator: 'boolean',
  profileImageOptimized: 'object',
  positions: arr({ tokenId: 'string', positionSize: 'string' }),
};

/** §2.13; replies are checked recursively by checkComment. */
export const COMMENT_FLAT: Shape = {
  id: 'string',
  body: 'string',
  parentEntityType: 'string',
  parentCommentID: 'string',
  userAddress: 'string',
  replyAddress: 'string',
  parentEntityID: 'integer',
  createdAt: 'iso',
  updatedAt: 'iso',
  profile: PROFILE,
  reactions: arr('object'),
  reportCount: 'integer',
  reactionCount: 'integer',
  replyCount: 'integer',
  replies: arr('object'),
};

export function checkComment(c: unknown, path = '$'): string[] {
  const errs = checkShape(c, COMMENT_FLAT, path);
  if (errs.length > 0) return errs;
  const replies = (c as { replies: unknown[] }).replies;
  replies.forEach((r, i) => errs.push(...checkComment(r, `${path}.replies[${i}]`)));
  return errs;
}

/** §2.16 list form. */
export const EVENT: Shape = {
  id: 'string',
  ticker: 'string',
  slug: 'string',
  title: 'string',
  description: 'string',
  resolutionSource: 'string',
  image: 'string',
  icon: 'string',
  startDate: 'iso',
  endDate: 'iso',
  createdAt: 'iso',
  updatedAt: 'iso',
  active: 'boolean',
  closed: 'boolean',
  archived: 'boolean',
  tags: arr(TAG),
};
export const EVENT_MARKET: Shape = {
  id: 'string',
  question: 'string',
  conditionId: 'string',
  slug: 'string',
  resolutionSource: 'string',
  image: 'string',
  icon: 'string',
  description: 'string',
  outcomes: 'json-strings',
  clobTokenIds: 'json-strings',
  questionID: 'string',
  startDate: 'iso',
  endDate: 'iso',
  createdAt: 'iso',
  updatedAt: 'iso',
  active: 'boolean',
  closed: 'boolean',
  archived: 'boolean',
};
export const SERIES: Shape = {
  id: 'string',
  ticker: 'string',
  slug: 'string',
  title: 'string',
  seriesType: 'string',
  recurrence: 'string',
  image: 'string',
  icon: 'string',
  active: 'boolean',
  closed: 'boolean',
  archived: 'boolean',
  createdAt: 'iso',
  updatedAt: 'iso',
};
/** §2.16 full form. */
export const EVENT_FULL: Shape = {
  ...EVENT,
  creationDate: 'iso',
  markets: arr(EVENT_MARKET),
  series: arr(SERIES),
  eventMetadata: 'object',
};

/** §2.17 */
export const LEADERBOARD_ENTRY: Shape = {
  rank: 'string',
  proxyWallet: 'string',
  userName: 'string',
  vol: 'number',
  pnl: 'number',
  profileImage: 'string',
  xUsername: 'string|null',
  verifiedBadge: 'string|null',
};

/** docs/protocol.md §8 */
export const TRADE: Shape = {
  proxyWallet: 'string',
  side: 'string',
  asset: 'string',
  conditionId: 'string',
  size: 'number',
  price: 'number',
  timestamp: 'integer',
  title: 'string',
  slug: 'string',
  outcome: 'string',
  outcomeIndex: 'integer',
  transactionHash: 'string',
};
export const SEARCH: Shape = {
  events: arr(EVENT),
  tags: arr(TAG),
  profiles: arr({ name: 'string', pseudonym: 'string', proxyWallet: 'string', profileImage: 'string' }),
};
