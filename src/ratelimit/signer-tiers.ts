// The exchange's per-signer trading limits as data: the two token buckets of a signer (orders,
// cancels), what each trading route costs in tokens, the volume tiers' rates and bursts, and the
// names of the response headers that report them. The limiter (signer-budget.ts) and the
// simulator (src/sim/server/signer-gate.ts) both read this one table.
//
// Source: "CLOB Trading Rate Limits", https://docs.polymarket.com/api-reference/trading-rate-limits
// (read 2026-11-25), and "Get rate limit tier",
// https://docs.polymarket.com/api-reference/account/get-rate-limit-tier. What the page says:
// - each signer (the address of the API credentials) has an order bucket and a cancel bucket;
//   activity in one does not consume the other; both are separate from the Cloudflare IP windows
//   (table 8 here), and a request must satisfy both layers;
// - token costs: POST /order 1, POST /orders the number of orders of the (non-empty) batch,
//   DELETE /order 1, DELETE /orders the number of submitted ids, DELETE /cancel-all and
//   DELETE /cancel-market-orders 1 up front plus 1 per order cancelled, deducted once known (the
//   exchange cannot know the count beforehand); on tiers that allow a negative cancel balance
//   (Standard to Gold) that deduction can leave a debt that blocks later cancels until repaid, the
//   other tiers floor the balance at zero;
// - tokens refill continuously at the tier's rate; burst is the bucket's capacity; a batch is
//   admitted only when the bucket holds enough tokens for every entry, otherwise the whole request
//   is refused and nothing of it is processed; a batch costing more than the burst can never be
//   admitted (split it);
// - headers on an evaluated request: `Poly-RateLimit-Remaining` (balance after this request, may
//   be negative after a cancel-all on a debt tier), `Poly-RateLimit-Reset` (Unix seconds when
//   enough tokens will be there; on an admitted request it may be the current time),
//   `Poly-RateLimit-Tier` (the tier applied, lower case); conditionally `Retry-After` (on a 429
//   whose cost fits the burst: the shortest wait before retrying) and `Poly-RateLimit-Warning:
//   true` (warning mode: the request would have been refused under live enforcement);
// - refusal: 429 Too Many Requests. The page gives no body; this project answers it in the
//   exchange's error shape `{"error": "Too Many Requests"}` like every other 429 (docs/protocol.md
//   §4), see src/sim/server/signer-gate.ts;
// - GET /v1/user/rate-limit-tier (L2 headers) returns the tier of the credentials' signer, as of
//   the last tier refresh (every three hours, from the maker wallet's 30-day volume). The page's
//   OpenAPI excerpt available here does not show the response schema; we answer `{"tier": "<name>"}`
//   with the header's lower-case spelling (a decision, recorded in docs/rate-limits.md).
// Cross-checked (not copied) against polyoxide-core's signer_limit.rs
// (https://docs.rs/polyoxide-core/0.26.0/src/polyoxide_core/signer_limit.rs.html) and its mirror
// of the page: the same eight tiers and figures, the same header names.
export type SignerBucketKind = 'order' | 'cancel';

export const SIGNER_TIERS = ['standard', 'copper', 'bronze', 'silver', 'gold', 'platinum', 'diamond', 'elite'] as const;
export type SignerTier = (typeof SIGNER_TIERS)[number];

export interface SignerAllowance {
  /** Tokens refilled per second. */
  readonly rate: number;
  /** Capacity: the most tokens the bucket ever holds. */
  readonly burst: number;
}

export interface SignerTierSpec {
  readonly order: SignerAllowance;
  readonly cancel: SignerAllowance;
  /** The cancel balance may go below zero after a cancel-all's per-order deduction. */
  readonly cancelDebt: boolean;
}

const t = (
  orderRate: number,
  orderBurst: number,
  cancelRate: number,
  cancelBurst: number,
  cancelDebt: boolean,
): SignerTierSpec => ({
  order: { rate: orderRate, burst: orderBurst },
  cancel: { rate: cancelRate, burst: cancelBurst },
  cancelDebt,
});

/** The tier table as published (30-day maker volume: none, $30k, $50k, $100k, $500k, $2.5M, $5M, $10M). */
export const SIGNER_TIER_TABLE: Readonly<Record<SignerTier, SignerTierSpec>> = {
  standard: t(40, 60, 80, 120, true),
  copper: t(60, 90, 120, 180, true),
  bronze: t(80, 120, 160, 240, true),
  silver: t(200, 300, 400, 600, true),
  gold: t(400, 600, 800, 1200, true),
  platinum: t(450, 675, 900, 1350, false),
  diamond: t(525, 787, 1050, 1575, false),
  elite: t(600, 900, 1200, 1800, false),
};

/** The tightest tier: assumed until the exchange says otherwise. */
export const DEFAULT_SIGNER_TIER: SignerTier = 'standard';

/** Which bucket each trading route draws from; routes not listed are not metered per signer. */
export const SIGNER_ROUTE_BUCKET: Readonly<Record<string, SignerBucketKind>> = {
  'POST /order': 'order',
  'POST /orders': 'order',
  'DELETE /order': 'cancel',
  'DELETE /orders': 'cancel',
  'DELETE /cancel-all': 'cancel',
  'DELETE /cancel-market-orders': 'cancel',
};

/** Routes whose cost is 1 + the orders they cancel, unknown until the answer. */
export const SIGNER_POST_CHARGED: ReadonlySet<string> = new Set(['DELETE /cancel-all', 'DELETE /cancel-market-orders']);

export const SIGNER_TIER_ROUTE = '/v1/user/rate-limit-tier';

export const HDR_REMAINING = 'Poly-RateLimit-Remaining';
export const HDR_RESET = 'Poly-RateLimit-Reset';
export const HDR_TIER = 'Poly-RateLimit-Tier';
export const HDR_WARNING = 'Poly-RateLimit-Warning';

export function isSignerTier(s: unknown): s is SignerTier {
  return typeof s === 'string' && (SIGNER_TIERS as readonly string[]).includes(s);
}

/** A tier header's value, case-insensitive; null for an unknown name (never guess a wider bucket). */
export function parseSignerTier(value: unknown): SignerTier | null {
  if (typeof value !== 'string') return null;
  const v = value.trim().toLowerCase();
  return isSignerTier(v) ? v : null;
}

/** What one response reported about the signer's bucket for its route. */
export interface SignerStatus {
  /** Tokens left after the request (may be negative); null when absent or malformed. */
  readonly remaining: number | null;
  /** Epoch ms from Poly-RateLimit-Reset (sent in Unix seconds); null when absent. */
  readonly resetAtMs: number | null;
  readonly tier: SignerTier | null;
  readonly warning: boolean;
  /** The response was a 429 refusal. */
  readonly refused: boolean;
}

type HeaderBag = Readonly<Record<string, unknown>> | { get(name: string): string | null };

function header(h: HeaderBag, name: string): string | undefined {
  if (typeof (h as { get?: unknown }).get === 'function') {
    const v = (h as { get(name: string): string | null }).get(name);
    return v ?? undefined;
  }
  const bag = h as Readonly<Record<string, unknown>>;
  const v = bag[name.toLowerCase()] ?? bag[name];
  if (Array.isArray(v)) return typeof v[0] === 'string' ? v[0] : undefined;
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

function num(s: string | undefined): number | null {
  if (s === undefined || s.trim() === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

/** The Poly-RateLimit-* headers of a response (a fetch Headers or a lower-cased header record). */
export function parseSignerHeaders(h: HeaderBag, status: number): SignerStatus | null {
  const remaining = num(header(h, HDR_REMAINING));
  const reset = num(header(h, HDR_RESET));
  const rawTier = header(h, HDR_TIER);
  const warning = header(h, HDR_WARNING)?.trim().toLowerCase() === 'true';
  if (remaining === null && reset === null && rawTier === undefined && !warning) return null;
  return {
    remaining: remaining === null ? null : Math.floor(remaining),
    resetAtMs: reset === null ? null : reset * 1000,
    tier: parseSignerTier(rawTier),
    warning,
    refused: status === 429,
  };
}

/**
 * The tokens a request costs, from its route and exact body bytes, for the transport's gate: the
 * array length of a POST /orders or DELETE /orders body, 1 for the other metered routes; undefined
 * for a route without a bucket or a body that is not a JSON array. A cancel-all's charge (1 + the
 * open orders it will cancel) cannot be read from its body: its caller passes it.
 */
export function signerTokensFor(route: string, body: string | undefined): number | undefined {
  if (SIGNER_ROUTE_BUCKET[route] === undefined) return undefined;
  if (route !== 'POST /orders' && route !== 'DELETE /orders') return 1;
  if (body === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(body);
    return Array.isArray(v) && v.length > 0 ? v.length : undefined;
  } catch {
    return undefined;
  }
}
