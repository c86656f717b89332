// The order manager's decisions, with no effects: what a plan cancels, which of its placements go
// and in which chunks, what the limiter's pressure and the cancel reserve cut, how each order is
// built and recorded, and what an exchange's answer to a placement means. Both executors of a plan
// run exactly these: the live/sandbox OrderManager (asynchronous, over HTTP) and the backtest's
// synchronous executor (src/backtest/replay/executor.ts), so a backtest decides as live does.
// Invariants kept:
// - pure: no I/O, no clock, no promise; questions to the limiter are asked by the caller (the
//   generators below yield each question and take its answer), so one decision serves a limiter
//   that answers synchronously (backtest) and one that answers over Redis (live);
// - the rules are the order manager's (its header states them): cancels only of orders still
//   live, placements blocked by halt/breaker/backlog, by a duplicate key, a failed cancel at the
//   key, an order in flight at the key, a cooling key or a missing market; replacements before
//   new quotes; chunks of at most 15 of one priority; chunks the limiter cannot send within the
//   horizon are dropped with everything after them; placements beyond the cancel reserve dropped.
import { OddsmakerError } from '../core/errors.js';
import type { Shares } from '../core/money.js';
import { checkLiveTransition } from '../core/order-lifecycle.js';
import { MAX_ORDERS_PER_BATCH, type LiveOrderState, type PlacementResult } from '../core/order.js';
import type { WritePriority } from '../exchange/gateway.js';
import type {
  BuildOrderOptions,
  OrderIntent,
  SignatureType,
  SignedOrder,
  UnsignedOrder,
} from '../exchange/signing/index.js';
import type { SignedOrderInput } from '../ledger/index.js';
import type { WaitQuery } from '../ratelimit/types.js';
import type { FillEvent, FillOutcome } from './fill-tracker.js';
import type { OrderBookState, TrackedOrder } from './order-book-state.js';
import type {
  ApplyReport,
  DropReason,
  DroppedPlacement,
  MarketInfo,
  MarketsByToken,
  PollFillsOptions,
  RejectedPlacement,
} from './order-manager-types.js';
import { quoteKey, type PlacementIntent, type ReconcilePlan } from './types.js';

export const PLACE_ROUTE = 'POST /orders';
export const CANCEL_ROUTE = 'DELETE /order';
export const BATCH_CANCEL_ROUTE = 'DELETE /orders';

/**
 * The exchange's refusal of a post-only order that would cross ("invalid post-only order: order
 * crosses book", the message the official clients surface; our simulator answers the same).
 */
export const POST_ONLY_CROSS = /post[- ]only.*cross/i;

export type PlacePriority = Exclude<WritePriority, 'cancel'>;

/** A placement of the plan that passed the gates. */
export interface Chosen {
  readonly intent: PlacementIntent;
  readonly key: string;
  readonly market: MarketInfo;
  readonly priority: PlacePriority;
}

/** Mutable collector behind ApplyReport. */
export class Tally {
  superseded = false;
  cancelsSent = 0;
  cancelled = 0;
  cancelsFailed = 0;
  placementsSent = 0;
  accepted = 0;
  unknown = 0;
  readonly rejected: RejectedPlacement[] = [];
  readonly dropped: DroppedPlacement[] = [];
  readonly fills: FillEvent[] = [];
  drop(key: string, reason: DropReason): void {
    this.dropped.push({ key, reason });
  }
  report(): ApplyReport {
    return {
      superseded: this.superseded,
      cancelsSent: this.cancelsSent,
      cancelled: this.cancelled,
      cancelsFailed: this.cancelsFailed,
      placementsSent: this.placementsSent,
      accepted: this.accepted,
      rejected: this.rejected,
      unknown: this.unknown,
      dropped: this.dropped,
      fills: this.fills,
    };
  }
}

export const SUPERSEDED_REPORT: ApplyReport = Object.freeze(Object.assign(new Tally(), { superseded: true }).report());
export const EMPTY_REPORT: ApplyReport = Object.freeze({
  ...new Tally().report(),
  rejected: Object.freeze([]),
  dropped: Object.freeze([]),
  fills: Object.freeze([]),
});

/** Nothing to send, nothing running, no breaker pulling quotes: the plan only records the markets. */
export function isIdlePlan(plan: ReconcilePlan): boolean {
  return plan.cancels.length === 0 && plan.placements.length === 0;
}

/** The plan's cancels of orders still live; every live order when `pullAll` (the breaker is open). */
export function cancelTargets(plan: ReconcilePlan, book: OrderBookState, pullAll: boolean): TrackedOrder[] {
  if (pullAll) return book.inState('live');
  const out: TrackedOrder[] = [];
  const seen = new Set<string>();
  for (const c of plan.cancels) {
    const o = book.get(c.orderId);
    if (o === undefined || o.state !== 'live' || seen.has(o.id)) continue;
    seen.add(o.id);
    out.push(o);
  }
  return out;
}

/** Cancel requests: one per order without batch cancels, else chunks of `batchSize`. */
export function cancelChunks<T>(orders: readonly T[], batchSize: number | null): T[][] {
  if (batchSize === null) return orders.map((o) => [o]);
  const chunks: T[][] = [];
  for (let i = 0; i < orders.length; i += batchSize) chunks.push(orders.slice(i, i + batchSize));
  return chunks;
}

/** What stops a placement besides the plan itself (the executor's state, asked per key). */
export interface PlacementGates {
  /** Stops every placement (halted, breaker, fill backlog), else null. */
  readonly block: DropReason | null;
  /** 'blocked' / 'stale' when an order at the key is in flight or newer than the plan. */
  keyBlock(key: string): 'blocked' | 'stale' | null;
  /** The key was rejected recently and cools down. */
  cooling(key: string): boolean;
}

/** The plan's placements that may go now, replacements first (they restore pulled quotes). */
export function choosePlacements(
  plan: ReconcilePlan,
  markets: MarketsByToken,
  failedKeys: ReadonlySet<string>,
  gates: PlacementGates,
  tally: Tally,
): Chosen[] {
  const out: Chosen[] = [];
  const seen = new Set<string>();
  for (const p of plan.placements) {
    const key = quoteKey(p.quote.tokenId, p.quote.side, p.quote.price);
    if (gates.block !== null) {
      tally.drop(key, gates.block);
      continue;
    }
    if (seen.has(key)) {
      tally.drop(key, 'duplicate');
      continue;
    }
    seen.add(key);
    if (failedKeys.has(key)) {
      tally.drop(key, 'cancel-failed');
      continue;
    }
    const kb = gates.keyBlock(key);
    if (kb !== null) {
      tally.drop(key, kb);
      continue;
    }
    if (gates.cooling(key)) {
      tally.drop(key, 'cooldown');
      continue;
    }
    const market = markets.get(p.quote.tokenId);
    if (market === undefined) {
      tally.drop(key, 'no-market');
      continue;
    }
    out.push({ intent: p, key, market, priority: p.kind });
  }
  const chosen: Chosen[] = [];
  for (const c of out) if (c.priority === 'replace') chosen.push(c);
  for (const c of out) if (c.priority === 'new') chosen.push(c);
  return chosen;
}

/** Consecutive same-priority runs, cut into chunks of at most 15. */
export function chunkByPriority<T>(items: readonly T[], priorityOf: (t: T) => string): T[][] {
  const out: T[][] = [];
  let cur: T[] = [];
  let pr: string | null = null;
  for (const it of items) {
    const p = priorityOf(it);
    if (cur.length === MAX_ORDERS_PER_BATCH || (pr !== null && p !== pr)) {
      out.push(cur);
      cur = [];
    }
    cur.push(it);
    pr = p;
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

/** A question to the limiter: the wait before the k-th chunk of ours could be sent on POST /orders. */
export type PressureQuestion = WaitQuery & {
  readonly priority: PlacePriority;
  readonly cost: number;
  readonly tokens: number;
};

/**
 * Keeps the placements whose POST /orders chunk the limiter can send within `horizonMs`; the
 * rest is dropped as `pressure` (the next cycle recomputes it from fresher books). Yields one
 * question per chunk (this chunk after the earlier ones: cost k + 1, the signer's tokens so far)
 * and takes the wait in ms (Infinity: never sendable).
 */
export function* keepUnderPressure(
  chosen: readonly Chosen[],
  horizonMs: number,
  tally: Tally,
): Generator<PressureQuestion, Chosen[], number> {
  if (chosen.length === 0) return [];
  const groups = chunkByPriority(chosen, (c) => c.priority);
  const kept: Chosen[] = [];
  let tokens = 0;
  for (let k = 0; k < groups.length; k++) {
    const g = groups[k] as Chosen[];
    tokens += g.length;
    const wait = yield { priority: (g[0] as Chosen).priority, cost: k + 1, tokens };
    if (wait > horizonMs) {
      for (const rest of groups.slice(k)) for (const c of rest) tally.drop(c.key, 'pressure');
      break;
    }
    kept.push(...g);
  }
  return kept;
}

/** The limiter's error for more requests than a window can ever hold: a wait of Infinity. */
export function isNeverSendable(e: unknown): boolean {
  return e instanceof OddsmakerError && e.code === 'RATE_LIMIT_ROUTE';
}

/** What the cancel reserve leaves: the placements kept and the headroom after them. */
export interface ReserveCut {
  readonly kept: Chosen[];
  /** Cancel capacity − reserve − open orders, before these placements (null: nothing to reserve). */
  readonly headroom: number | null;
  /** The headroom after the kept placements (they are open orders too once sent). */
  readonly after: number | null;
}

/**
 * Keeps the placements that leave every open order cancellable within the cancel route's
 * budgets (`capacity` orders), less `reserve`; the rest is dropped as `cancel-reserve`.
 */
export function withinCancelReserve(
  chosen: Chosen[],
  capacity: number,
  reserve: number,
  open: number,
  tally: Tally,
): ReserveCut {
  if (!Number.isFinite(capacity)) return { kept: chosen, headroom: null, after: null };
  const headroom = capacity - reserve - open;
  const allowed = Math.max(0, headroom);
  const after = headroom - Math.min(allowed, chosen.length);
  if (allowed >= chosen.length) return { kept: chosen, headroom, after };
  for (const c of chosen.slice(allowed)) tally.drop(c.key, 'cancel-reserve');
  return { kept: chosen.slice(0, allowed), headroom, after };
}

/** Cancel capacity in orders from a route's windows: the tightest window, × the batch size when batched. */
export function cancelCapacity(windows: readonly { limit: number; used: number }[], batchSize: number | null): number {
  const requests = windows.reduce((m, w) => Math.min(m, w.limit - w.used), Number.POSITIVE_INFINITY);
  return batchSize === null ? requests : requests * batchSize;
}

/** Who signs and for whom, and how: the order manager's fixed options for building orders. */
export interface OrderParties {
  readonly maker: string;
  readonly signerAddress: string;
  readonly signatureType: SignatureType | undefined;
  readonly postOnlyDefault: boolean;
  readonly random: (() => number) | undefined;
}

/**
 * The parties of an executor's orders: the funder makes them when there is one (proxy, safe and
 * deposit wallets), else the signer; post-only by default as the config says.
 */
export function orderParties(o: {
  readonly signerAddress: string;
  readonly maker?: string | undefined;
  readonly signatureType?: SignatureType | undefined;
  readonly postOnly: boolean;
  readonly random?: (() => number) | undefined;
}): OrderParties {
  return {
    maker: o.maker ?? o.signerAddress,
    signerAddress: o.signerAddress,
    signatureType: o.signatureType,
    postOnlyDefault: o.postOnly,
    random: o.random,
  };
}

/** Post-only unless the strategy's quote says otherwise (config orders.postOnly is the default). */
export function postOnlyOf(c: Chosen, parties: OrderParties): boolean {
  return c.intent.quote.postOnly ?? parties.postOnlyDefault;
}

/** The arguments of buildOrder for a chosen placement at `nowMs`. */
export function orderToBuild(c: Chosen, parties: OrderParties, nowMs: number): [OrderIntent, BuildOrderOptions] {
  // Optional fields assigned when set (not spread in: this runs for every order).
  const intent: OrderIntent = {
    tokenId: c.intent.quote.tokenId,
    conditionId: c.market.conditionId,
    side: c.intent.quote.side,
    price: c.intent.quote.price,
    size: c.intent.quote.size,
    orderType: 'GTC',
    tick: c.market.tickSize,
    negRisk: c.market.negRisk,
  };
  if (postOnlyOf(c, parties)) intent.postOnly = true;
  const options: BuildOrderOptions = {
    maker: parties.maker,
    // A deposit wallet (type 3) signs as itself: signer = maker (signing/account-kind.ts).
    signer: parties.signatureType === 3 ? parties.maker : parties.signerAddress,
    signatureType: parties.signatureType ?? 0,
    timestampMs: nowMs,
  };
  if (parties.random !== undefined) options.random = parties.random;
  return [intent, options];
}

/** Shares of a signed order: BUY receives takerAmount shares, SELL gives makerAmount (docs/protocol.md §3). */
export function sharesOf(o: UnsignedOrder): Shares {
  return (o.side === 'BUY' ? o.takerAmount : o.makerAmount) as Shares;
}

/** The ledger's record of a signed order, written before it is sent. */
export function signedOrderRecord(
  s: SignedOrder,
  c: Chosen,
  nowMs: number,
  signedJson: string,
  strategy: string | undefined,
): SignedOrderInput {
  const record: { -readonly [K in keyof SignedOrderInput]: SignedOrderInput[K] } = {
    id: s.id,
    tokenId: s.tokenId,
    conditionId: s.conditionId,
    side: s.side,
    price: c.intent.quote.price,
    size: sharesOf(s),
    orderType: 'GTC',
    salt: s.salt,
    createdAtMs: nowMs,
    signedJson,
    meta: { key: c.key, kind: c.priority, tag: c.intent.quote.tag ?? null },
  };
  if (strategy !== undefined) record.strategy = strategy;
  return record;
}

/** What an exchange's answer to one placement of ours means. */
export type PlacementVerdict = 'accepted' | 'other-id' | 'rejected' | 'unusable';

export function placementVerdict(orderId: string, r: PlacementResult): PlacementVerdict {
  if (r.accepted || (r.success && r.errorMsg === '' && r.status === 'unmatched' && r.orderId === orderId))
    return r.orderId === orderId ? 'accepted' : 'other-id';
  return r.errorMsg !== '' ? 'rejected' : 'unusable';
}

/**
 * Moves a tracked order to another live-order state, checked against the one order state machine
 * (src/core/order-lifecycle.ts): a move its table does not allow is a bug (InvariantError).
 */
export function moveTo(t: TrackedOrder, to: LiveOrderState): void {
  checkLiveTransition(t.id, t.state, to);
  t.state = to;
}

/**
 * Mirrors a ledger outcome (after a placement answer or a lookup) into the tracked order: live
 * stays tracked, terminal is removed. True when the order is now owed its final read (its cancel
 * was answered before this stale read).
 */
export function mirrorOutcome(book: OrderBookState, t: TrackedOrder, out: FillOutcome): boolean {
  if (out.state === 'live' || out.state === 'sent' || out.state === 'signed') {
    book.setMatched(t.id, out.sizeMatched);
    t.acknowledged = true;
    // A lookup never undoes a cancel in flight; it only confirms the order rests.
    if (t.state !== 'cancelling') moveTo(t, 'live');
  } else if (out.state === 'unknown') {
    book.setMatched(t.id, out.sizeMatched);
    moveTo(t, 'unknown');
  } else if (out.state === 'cancelling') {
    // A stale lookup left our cancel pending: the order rests until it is cancelled again.
    book.setMatched(t.id, out.sizeMatched);
    t.acknowledged = true;
    moveTo(t, 'live');
  } else if (out.state === 'closing') {
    // A stale lookup of an order whose cancel was answered: its final read is still owed.
    book.remove(t.id);
    return true;
  } else {
    book.remove(t.id);
  }
  return false;
}

/**
 * Live orders in the order they are looked up for fills (`live` itself may be reordered): those
 * that may have filled first (asked once per order), then the least recently read, then the
 * oldest placed.
 */
export function lookupOrder(live: TrackedOrder[], mayHaveFilled: PollFillsOptions['mayHaveFilled']): TrackedOrder[] {
  if (mayHaveFilled === undefined) return live.sort(leastRecentlyRead);
  // Split, then each part sorted: the same order as one sort ranked on mayHaveFilled, without a
  // set lookup in every comparison (a many-market run sorts hundreds of orders every poll).
  const first: TrackedOrder[] = [];
  const rest: TrackedOrder[] = [];
  for (const o of live) (mayHaveFilled(o) ? first : rest).push(o);
  first.sort(leastRecentlyRead);
  rest.sort(leastRecentlyRead);
  for (const o of rest) first.push(o);
  return first;
}

/** The least recently read first, then the oldest placed (seq is unique: a total order). */
function leastRecentlyRead(a: TrackedOrder, b: TrackedOrder): number {
  return a.polledAtMs - b.polledAtMs || a.seq - b.seq;
}
