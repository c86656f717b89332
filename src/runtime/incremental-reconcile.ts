// Reconcile, token by token, reusing last cycle's answer for every token whose inputs did not
// change. Reconcile (src/execution/reconcile.ts) is pure and keyed by (token, side, price): no
// decision about one token depends on another's quotes or orders, and its output is ordered by
// token first. So the plan of the whole set is the concatenation, over tokens in sorted order, of
// each token's plan (cancels, kept and blocked as they come; placements with every token's
// `replace` group before every token's `new` group). Invariants kept:
// - the plan returned is exactly, element for element and in the same order, what
//   reconcile(desired, live, opts) returns for the same inputs (property-tested);
// - a token's cached plan is reused only when its desired quotes (every field a placement
//   carries, post-only included), its orders (compared field by field, in the order given) and
//   its minimum order size are all the same as when it was made; anything else recomputes it, so
//   a plan that was not carried out (say, placements dropped under rate-limit pressure) is
//   produced again, as reconcile would;
// - an order id present twice in the live set is an InvariantError, as in reconcile; after any
//   error the next call starts afresh.
// How: the tokens whose inputs changed are found by walking this call's lists against the last
// call's (input-diff.ts), and only they are regrouped; when many changed (or on the first call),
// every token is grouped again. The ids of the last live set are kept, so a new order's id is
// checked against them instead of hashing every id again.
// Why: most cycles change the quotes of few tokens, and reconcile's cost (keys, maps, sorting)
// dominates the cycle on a large universe (bench/cycle.bench.ts); grouping by token every cycle
// then cost more than the rest (a 50-market profile).
import type { LiveOrder } from '../core/order.js';
import type { DesiredQuote } from '../core/quote.js';
import { duplicateOrderId, reconcile, uniqueIds, type ReconcileOptions } from '../execution/reconcile.js';
import type { BlockedKey, CancelIntent, PlacementIntent, ReconcilePlan } from '../execution/types.js';
import { diffOrders, diffQuotes, sameOrders, sameQuotes } from './input-diff.js';

interface TokenMemo {
  readonly desired: readonly DesiredQuote[];
  readonly live: readonly LiveOrder[];
  readonly min: number;
  readonly plan: ReconcilePlan;
}

/** A token of the last call: the inputs and plan of its memo are that call's. */
interface TokenSlot {
  readonly tokenId: string;
  memo: TokenMemo;
  /** The call that found its inputs changed (or made it). */
  changedIn: number;
}

const NONE: readonly never[] = [];
const NO_MIN = (): number => 0;
/** Beyond this many changed tokens, every token is grouped again (one pass, not one per token). */
const MAX_CHANGED = 32;

const byToken = (a: TokenSlot, b: TokenSlot): number => (a.tokenId < b.tokenId ? -1 : a.tokenId > b.tokenId ? 1 : 0);

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
  private calls = 0;
  /** The last call's inputs (copies), or null when the next call must group every token. */
  private last: { readonly desired: readonly DesiredQuote[]; readonly live: readonly LiveOrder[] } | null = null;
  /** The last call's tokens, sorted as reconcile orders them, and the same by id. */
  private slots: TokenSlot[] = [];
  private readonly slotOf = new Map<string, TokenSlot>();
  /** Ids of the last live set (each once). */
  private ids = new Set<string>();
  /** The last call's plan (null: none, or the last call failed). */
  private lastPlan: ReconcilePlan | null = null;
  /** Tokens whose plan was recomputed by the last call (for benchmarks and tests). */
  lastRecomputed = 0;

  /** Tolerances are fixed for the reconciler's life (they are part of every cached plan). */
  constructor(private readonly opts: Omit<ReconcileOptions, 'minOrderSize'> = {}) {}

  plan(
    desired: readonly DesiredQuote[],
    live: readonly LiveOrder[],
    minOrderSize: (tokenId: string) => number = NO_MIN,
  ): ReconcilePlan {
    try {
      const call = ++this.calls;
      this.lastRecomputed = 0;
      const changed = this.last === null ? null : this.changedTokens(desired, live, this.last);
      if (changed === null) this.regroupAll(desired, live, minOrderSize, call);
      else if (changed.length > 0) this.regroup(changed, desired, live, minOrderSize, call);
      else {
        this.refit(minOrderSize, call);
        // Inputs equal, field by field, to the last call's and every token's plan reused: the
        // last plan is this one (plans are read-only), and the last inputs stand for these.
        if (this.lastRecomputed === 0 && this.lastPlan !== null) return this.lastPlan;
      }
      this.last = { desired: desired.slice(), live: live.slice() };
      this.lastPlan = this.assemble();
      return this.lastPlan;
    } catch (e) {
      this.last = null;
      this.lastPlan = null;
      throw e;
    }
  }

  /**
   * Tokens whose inputs may have changed since the last call (null: too many), with the id set
   * brought up to this call's live set (a duplicate id throws).
   */
  private changedTokens(
    desired: readonly DesiredQuote[],
    live: readonly LiveOrder[],
    last: { readonly desired: readonly DesiredQuote[]; readonly live: readonly LiveOrder[] },
  ): string[] | null {
    const changed: string[] = [];
    let over = false;
    const note = (tokenId: string): void => {
      if (over || changed.includes(tokenId)) return;
      if (changed.length === MAX_CHANGED) over = true;
      else changed.push(tokenId);
    };
    diffQuotes(desired, last.desired, note);
    const gone: LiveOrder[] = [];
    const added: LiveOrder[] = [];
    diffOrders(live, last.live, note, gone, added);
    if (over) return null;
    // Paired orders keep their ids, which were unique: only the added ones can repeat an id.
    for (const o of gone) this.ids.delete(o.id);
    for (const o of added) {
      if (this.ids.has(o.id)) throw duplicateOrderId(o.id);
      this.ids.add(o.id);
    }
    return changed;
  }

  /** Every token grouped again; a slot's plan is still reused when its inputs are the same. */
  private regroupAll(
    desired: readonly DesiredQuote[],
    live: readonly LiveOrder[],
    minOf: (tokenId: string) => number,
    call: number,
  ): void {
    const ids = uniqueIds(live);
    const wants = group(desired);
    const orders = group(live);
    const slots: TokenSlot[] = [];
    for (const tokenId of new Set([...wants.keys(), ...orders.keys()])) {
      const s = this.fit(tokenId, wants.get(tokenId) ?? NONE, orders.get(tokenId) ?? NONE, minOf(tokenId), call);
      slots.push(s);
    }
    slots.sort(byToken);
    this.slotOf.clear();
    for (const s of slots) this.slotOf.set(s.tokenId, s);
    this.slots = slots;
    this.ids = ids;
  }

  /** The changed tokens grouped again (a token left with nothing leaves); the others keep their inputs. */
  private regroup(
    changed: readonly string[],
    desired: readonly DesiredQuote[],
    live: readonly LiveOrder[],
    minOf: (tokenId: string) => number,
    call: number,
  ): void {
    // One pass over each list, into the changed tokens' groups (a small map: few tokens change).
    const groups = new Map<string, { d: DesiredQuote[]; l: LiveOrder[] }>();
    for (const t of changed) groups.set(t, { d: [], l: [] });
    for (const q of desired) groups.get(q.tokenId)?.d.push(q);
    for (const o of live) groups.get(o.tokenId)?.l.push(o);
    for (const [tokenId, { d, l }] of groups) {
      const had = this.slotOf.get(tokenId);
      if (d.length === 0 && l.length === 0) {
        if (had !== undefined) {
          this.slotOf.delete(tokenId);
          this.slots.splice(this.slots.indexOf(had), 1);
        }
        continue;
      }
      const s = this.fit(tokenId, d, l, minOf(tokenId), call);
      if (had === undefined) {
        this.slotOf.set(tokenId, s);
        this.slots.splice(insertionPoint(this.slots, s), 0, s);
      }
    }
    this.refit(minOf, call);
  }

  /** The tokens not changed in this call have the last call's quotes and orders (input-diff.ts): only a minimum may differ. */
  private refit(minOf: (tokenId: string) => number, call: number): void {
    for (const s of this.slots) {
      if (s.changedIn === call) continue;
      const min = minOf(s.tokenId);
      if (min !== s.memo.min) s.memo = this.recompute(s.memo.desired, s.memo.live, min);
    }
  }

  /** The token's slot with a memo for these inputs: its plan reused when they are the same. */
  private fit(
    tokenId: string,
    d: readonly DesiredQuote[],
    l: readonly LiveOrder[],
    min: number,
    call: number,
  ): TokenSlot {
    const s = this.slotOf.get(tokenId);
    if (s === undefined) return { tokenId, memo: this.recompute(d, l, min), changedIn: call };
    s.changedIn = call;
    const m = s.memo;
    // A reused plan's memo holds inputs equal, field by field, to this call's: it stays.
    if (!(m.min === min && sameQuotes(m.desired, d) && sameOrders(m.live, l))) s.memo = this.recompute(d, l, min);
    return s;
  }

  private recompute(d: readonly DesiredQuote[], l: readonly LiveOrder[], min: number): TokenMemo {
    this.lastRecomputed++;
    const plan = reconcile(d, l, {
      toleranceShares: this.opts.toleranceShares ?? 0,
      toleranceBps: this.opts.toleranceBps ?? 0,
      minOrderSize: () => min,
    });
    return { desired: d, live: l, min, plan };
  }

  /** The plan of the whole set: each token's, in token order (see the header). */
  private assemble(): ReconcilePlan {
    const cancels: CancelIntent[] = [];
    const replace: PlacementIntent[] = [];
    const fresh: PlacementIntent[] = [];
    const kept: LiveOrder[] = [];
    const blocked: BlockedKey[] = [];
    for (const s of this.slots) {
      const p = s.memo.plan;
      for (const c of p.cancels) cancels.push(c);
      for (const x of p.placements) (x.kind === 'replace' ? replace : fresh).push(x);
      for (const k of p.kept) kept.push(k);
      for (const b of p.blocked) blocked.push(b);
    }
    return { cancels, placements: replace.concat(fresh), kept, blocked };
  }
}

/** Where `s` goes in `slots` (sorted by token, `s`'s token not among them). */
function insertionPoint(slots: readonly TokenSlot[], s: TokenSlot): number {
  let lo = 0;
  let hi = slots.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (byToken(slots[mid] as TokenSlot, s) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
