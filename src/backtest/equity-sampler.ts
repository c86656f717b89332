// The backtest report's equity curve: one sample per cycle, valued as the ledger's markToMarket
// values it (src/core/pnl-mark.ts: realized and fees over every position, unrealized over the
// held ones with a mark, size × mark rounded down minus cost), at the replay's latest mids.
// What only a ledger write changes (the positions, realized, fees, the inventory list) is kept
// between samples and read again when the ledger's write count moves and some position is a new
// object; a sample whose ledger and held marks are both unchanged repeats the previous values.
// So a cycle that changed nothing costs no valuation, and one that only moved a mark re-marks the
// held tokens alone. The samples
// are the same numbers, in the same shape, as a full valuation per cycle gives. An inventory equal
// to the last one is that same list (and its entries are shared), so samples keep it once.
import { unrealizedPnl } from '../core/pnl.js';
import type { Price } from '../core/money.js';
import { sameItems } from '../core/same-items.js';
import type { LedgerPosition } from '../ledger/types.js';
import type { EquitySample } from './types.js';

/** What the sampler reads of the in-memory ledger. */
export interface SampledLedger {
  /** Writes so far: equal counts, equal positions. */
  readonly operations: number;
  /** A position that changed is a new object; an unchanged one may be the same as last read. */
  positions(): LedgerPosition[];
}

export class EquitySampler {
  /** The ledger's write count the cached positions are from (−1: none yet). */
  private version = -1;
  /** The ledger's positions when last read (to see that a write moved none). */
  private positions: readonly LedgerPosition[] = [];
  private held: LedgerPosition[] = [];
  private realized = 0;
  private fees = 0;
  private inventory: ReadonlyArray<readonly [string, number]> = [];
  /** The held tokens' marks at the last valuation (null: none), by index of `held`. */
  private marks: Array<number | null> = [];

  constructor(
    private readonly ledger: SampledLedger,
    private readonly capital: number,
    /** Each token's latest mid (null: one-sided), as the replay notes them. */
    private readonly lastMid: ReadonlyMap<string, number | null>,
    readonly samples: EquitySample[],
  ) {}

  /** Whether every held token's mark is the one the last valuation used. */
  marksUnchanged(): boolean {
    // Never valued yet (every valuation reads the ledger first).
    if (this.version === -1) return false;
    const held = this.held;
    for (let i = 0; i < held.length; i++)
      if ((this.lastMid.get((held[i] as LedgerPosition).tokenId) ?? null) !== this.marks[i]) return false;
    return true;
  }

  /** Appends the sample at `t`. */
  sample(t: number, quotes: number, openOrders: number): void {
    const last = this.samples.at(-1);
    const current = this.ledger.operations === this.version;
    if (last !== undefined && current && this.marksUnchanged()) {
      // Named fields, not a spread: a spread into a literal is several times slower here.
      this.samples.push({
        t,
        equity: last.equity,
        pnl: last.pnl,
        realized: last.realized,
        unrealized: last.unrealized,
        fees: last.fees,
        inventory: last.inventory,
        quotes,
        openOrders,
      });
      return;
    }
    if (!current) this.readLedger();
    let unrealized = 0;
    const held = this.held;
    for (let i = 0; i < held.length; i++) {
      const p = held[i] as LedgerPosition;
      const m = this.lastMid.get(p.tokenId) ?? null;
      this.marks[i] = m;
      if (m !== null) unrealized += unrealizedPnl(p, m as Price);
    }
    const total = this.realized + unrealized;
    this.samples.push({
      t,
      equity: this.capital + total,
      pnl: total,
      realized: this.realized,
      unrealized,
      fees: this.fees,
      inventory: this.inventory,
      quotes,
      openOrders,
    });
  }

  private readLedger(): void {
    this.version = this.ledger.operations;
    const all = this.ledger.positions();
    // The same position objects, in the same order: nothing moved (a placement or a cancel). The
    // in-memory ledger makes a new object for a position that changed (LedgerPosition values are
    // never written to), so only a fill or a settlement reads them all again.
    if (sameItems(all, this.positions)) return;
    this.positions = all;
    let realized = 0;
    let fees = 0;
    const held: LedgerPosition[] = [];
    for (const p of all) {
      realized += p.realized;
      fees += p.fees;
      if (p.size !== 0) held.push(p);
    }
    this.realized = realized;
    this.fees = fees;
    this.held = held;
    this.marks = new Array<number | null>(held.length).fill(null);
    this.inventory = sameOrNew(
      this.inventory,
      held.map((p) => [p.tokenId, p.size] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
    );
  }
}

type Inventory = ReadonlyArray<readonly [string, number]>;

/**
 * `next`, with each entry equal to one of `last`'s replaced by that one, and `last` itself when
 * every entry is: a fill moves one position (the other entries stay shared), a settlement may move
 * none that is held, and a sample keeps its inventory for the whole run, so equal inventories and
 * entries are kept once.
 */
function sameOrNew(last: Inventory, next: Inventory): Inventory {
  // Both are sorted by token: one merge walk.
  let j = 0;
  let reused = 0;
  const out = next.map((e) => {
    while (j < last.length && (last[j] as Inventory[number])[0] < e[0]) j++;
    const prev = last[j];
    if (prev === undefined || prev[0] !== e[0] || prev[1] !== e[1]) return e;
    reused++;
    return prev;
  });
  return reused === last.length && out.length === last.length ? last : out;
}
