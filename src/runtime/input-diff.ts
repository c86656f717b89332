// What changed in the reconciler's inputs between two calls, found by walking this call's flat
// lists of quotes and orders against the last call's, without grouping either by token. Invariant
// (what IncrementalReconciler relies on): a token not reported has, in both calls, the same quotes
// and the same orders (field by field, every field a plan depends on), in the same order. A token
// may be reported without a change (the caller then compares or recomputes): never the reverse.
// Why a walk: an executor lists its orders in the order it tracked them (a removal leaves the rest
// in order, a new order comes last) and a strategy lists a market's quotes in the same places
// cycle after cycle, so the two lists mostly pair up one to one; grouping hundreds of quotes and
// orders into maps by token every cycle cost more than the rest of the reconcile (a profile of 50
// markets).
import type { LiveOrder } from '../core/order.js';
import type { DesiredQuote } from '../core/quote.js';

/** Two quotes a plan cannot tell apart (every field a placement carries). */
export function sameQuote(x: DesiredQuote, y: DesiredQuote): boolean {
  return (
    x === y ||
    (x.side === y.side &&
      x.price === y.price &&
      x.size === y.size &&
      x.tag === y.tag &&
      x.postOnly === y.postOnly &&
      x.tokenId === y.tokenId)
  );
}

/** Two orders a plan cannot tell apart (every field of a LiveOrder it reads). */
export function sameOrder(x: LiveOrder, y: LiveOrder): boolean {
  return (
    x === y ||
    (x.id === y.id &&
      x.state === y.state &&
      x.sizeMatched === y.sizeMatched &&
      x.originalSize === y.originalSize &&
      x.price === y.price &&
      x.side === y.side &&
      x.createdAtMs === y.createdAtMs &&
      x.tag === y.tag &&
      x.tokenId === y.tokenId)
  );
}

export function sameQuotes(a: readonly DesiredQuote[], b: readonly DesiredQuote[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameQuote(a[i] as DesiredQuote, b[i] as DesiredQuote)) return false;
  return true;
}

export function sameOrders(a: readonly LiveOrder[], b: readonly LiveOrder[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameOrder(a[i] as LiveOrder, b[i] as LiveOrder)) return false;
  return true;
}

/**
 * Reports (`changed`) the tokens whose quotes may differ between `before` and `now`. The lists are
 * paired position by position; a pair that differs reports both its tokens, and so do the quotes
 * past the shorter list. (After a market's quote count changes, every later pair may differ: the
 * walk then reports more tokens than changed, which the invariant allows.)
 */
export function diffQuotes(
  now: readonly DesiredQuote[],
  before: readonly DesiredQuote[],
  changed: (tokenId: string) => void,
): void {
  const n = Math.min(now.length, before.length);
  for (let i = 0; i < n; i++) {
    const x = now[i] as DesiredQuote;
    const y = before[i] as DesiredQuote;
    if (sameQuote(x, y)) continue;
    changed(x.tokenId);
    if (y.tokenId !== x.tokenId) changed(y.tokenId);
  }
  for (let i = n; i < now.length; i++) changed((now[i] as DesiredQuote).tokenId);
  for (let i = n; i < before.length; i++) changed((before[i] as DesiredQuote).tokenId);
}

/**
 * Reports the tokens whose orders may differ between `before` and `now`, and the orders that
 * were not paired: `gone` (in `before` only) and `added` (in `now` only). Pairs are found in order:
 * an order of `now` pairs with the next of `before` of the same id (changed fields report its
 * token); an order of `before` with another id is gone. So the paired orders have the same ids in
 * both lists, and every order of either list is paired or reported.
 */
export function diffOrders(
  now: readonly LiveOrder[],
  before: readonly LiveOrder[],
  changed: (tokenId: string) => void,
  gone: LiveOrder[],
  added: LiveOrder[],
): void {
  let i = 0;
  let j = 0;
  while (i < now.length && j < before.length) {
    const x = now[i] as LiveOrder;
    const y = before[j] as LiveOrder;
    if (x === y) {
      i++;
      j++;
    } else if (x.id === y.id) {
      if (!sameOrder(x, y)) {
        changed(x.tokenId);
        if (y.tokenId !== x.tokenId) changed(y.tokenId);
      }
      i++;
      j++;
    } else {
      changed(y.tokenId);
      gone.push(y);
      j++;
    }
  }
  for (; j < before.length; j++) {
    const y = before[j] as LiveOrder;
    changed(y.tokenId);
    gone.push(y);
  }
  for (; i < now.length; i++) {
    const x = now[i] as LiveOrder;
    changed(x.tokenId);
    added.push(x);
  }
}
