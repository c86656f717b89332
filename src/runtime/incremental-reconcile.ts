// Reconcile, token by token, reusing last cycle's answer for every token whose inputs did not
// change. Reconcile (src/execution/reconcile.ts) is pure and keyed by (token, side, price): no
// decision about one token depends on another's quotes or orders, and its output is ordered by
// token first. So the plan of the whole set is the concatenation, over tokens in sorted order, of
// each token's plan (cancels, kept and blocked as they come; placements with every token's
// `replace` group before every token's `new` group). Invariants kept:
// - the plan returned is exactly, element for element and in the same order, what
//   reconcile(desired, live, opts) returns for the same inputs (property-tested);
// - a token's cached plan is reused only when its desired quotes (every field a placement
//   carries, post-only included), its orders (compared field by field, in the order given) and its minimum order size are all the same as when it was made;
//   anything else recomputes it, so a plan that was not carried out (say, placements dropped under
//   rate-limit pressure) is produced again, as reconcile would;
// - an order id present twice in the live set is an InvariantError, as in reconcile.
// Why: most cycles change the quotes of few tokens, and reconcile's cost (keys, maps, sorting)
// dominates the cycle on a large universe (bench/cycle.bench.ts).
import type { LiveOrder } from '../core/order.js';
import type { DesiredQuote } from '../core/quote.js';
import { assertUniqueIds, reconcile, type ReconcileOptions } from '../execution/reconcile.js';
import type { BlockedKey, CancelIntent, PlacementIntent, ReconcilePlan } from '../execution/types.js';

interface TokenMemo {
  readonly desired: readonly DesiredQuote[];
  readonly live: readonly LiveOrder[];
  readonly min: number;
  readonly plan: ReconcilePlan;
}

const NONE: readonly never[] = [];

function sameQuotes(a: readonly DesiredQuote[], b: readonly DesiredQuote[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as DesiredQuote;
    const y = b[i] as DesiredQuote;
    if (
      x !== y &&
      (x.side !== y.side ||
        x.price !== y.price ||
        x.size !== y.size ||
        x.tag !== y.tag ||
        x.postOnly !== y.postOnly ||
        x.tokenId !== y.tokenId)
    )
      return false;
  }
  return true;
}

function sameOrders(a: readonly LiveOrder[], b: readonly LiveOrder[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as LiveOrder;
    const y = b[i] as LiveOrder;
    if (
      x !== y &&
      (x.id !== y.id ||
        x.state !== y.state ||
        x.sizeMatched !== y.sizeMatched ||
        x.originalSize !== y.originalSize ||
        x.price !== y.price ||
        x.side !== y.side ||
        x.createdAtMs !== y.createdAtMs ||
        x.tag !== y.tag ||
        x.tokenId !== y.tokenId)
    )
      return false;
  }
  return true;
}

function group<T extends { readonly tokenId: string }>(items: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const it of items) {
    const l = out.get(it.tokenId);
    if (l === undefined) out.set(it.tokenId, [it]);
    else l.push(it);
  }
  return out;
}

export class IncrementalReconciler {
  private memo = new Map<string, TokenMemo>();
  private order: readonly string[] = [];
  private orderSet: ReadonlySet<string> = new Set();
  /** Tokens whose plan was recomputed by the last call (for benchmarks and tests). */
  lastRecomputed = 0;

  /** Tolerances are fixed for the reconciler's life (they are part of every cached plan). */
  constructor(private readonly opts: Omit<ReconcileOptions, 'minOrderSize'> = {}) {}

  plan(
    desired: readonly DesiredQuote[],
    live: readonly LiveOrder[],
    minOrderSize?: (tokenId: string) => number,
  ): ReconcilePlan {
    assertUniqueIds(live);
    const wants = group(desired);
    const orders = group(live);
    const sorted = this.sortedTokens(wants, orders);

    const cancels: CancelIntent[] = [];
    const replace: PlacementIntent[] = [];
    const fresh: PlacementIntent[] = [];
    const kept: LiveOrder[] = [];
    const blocked: BlockedKey[] = [];
    // A new map, not a cleared one: Map.prototype.clear costs more than a small map (a profile).
    const next = new Map<string, TokenMemo>();
    let recomputed = 0;
    for (const token of sorted) {
      const d = wants.get(token) ?? NONE;
      const l = orders.get(token) ?? NONE;
      const min = minOrderSize?.(token) ?? 0;
      const m = this.memo.get(token);
      let p: ReconcilePlan;
      if (m !== undefined && m.min === min && sameQuotes(m.desired, d) && sameOrders(m.live, l)) {
        p = m.plan;
      } else {
        p = reconcile(d, l, {
          toleranceShares: this.opts.toleranceShares ?? 0,
          toleranceBps: this.opts.toleranceBps ?? 0,
          minOrderSize: () => min,
        });
        recomputed++;
      }
      // A reused plan's memo holds inputs equal, field by field, to this call's: it stays.
      next.set(token, m !== undefined && m.plan === p ? m : { desired: d, live: l, min, plan: p });
      for (const c of p.cancels) cancels.push(c);
      for (const x of p.placements) (x.kind === 'replace' ? replace : fresh).push(x);
      for (const k of p.kept) kept.push(k);
      for (const b of p.blocked) blocked.push(b);
    }
    this.memo = next;
    this.lastRecomputed = recomputed;
    return { cancels, placements: replace.concat(fresh), kept, blocked };
  }

  /** Tokens with quotes or orders, sorted as reconcile orders them; last call's order when the set is the same. */
  private sortedTokens(wants: ReadonlyMap<string, unknown>, orders: ReadonlyMap<string, unknown>): readonly string[] {
    // The same set as last call: every token of both is in it, and as many distinct tokens.
    let count = wants.size;
    let same = true;
    for (const t of wants.keys()) if (!this.orderSet.has(t)) same = false;
    for (const t of orders.keys()) {
      if (!wants.has(t)) count++;
      if (!this.orderSet.has(t)) same = false;
    }
    if (!same || count !== this.orderSet.size) {
      const tokens = new Set<string>(wants.keys());
      for (const t of orders.keys()) tokens.add(t);
      this.order = [...tokens].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      this.orderSet = tokens;
    }
    return this.order;
  }
}
