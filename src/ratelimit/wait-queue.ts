// The waiting room of a limiter: one FIFO per (route plan, priority class), so the scheduler can
// walk classes in priority order and, within a class, plans in arrival order of their heads.
// Invariants: `total`, `depth[rank]`, each FIFO's `count`, `queuedCost` and `queuedTokens` equal the live
// (not done) waiters they hold; a waiter leaves exactly once (taken, aborted or drained).
import type { Permit } from './types.js';

export const CLASSES = 4;

export class Waiter<P> {
  done = false;
  /** Removes the abort listener, if any. */
  detach: (() => void) | null = null;
  constructor(
    readonly plan: P,
    readonly route: string,
    readonly cost: number,
    readonly rank: number,
    readonly seq: number,
    readonly enqueuedAt: number,
    readonly settle: (permit: Permit) => void,
    readonly fail: (err: unknown) => void,
    /** Per-signer bucket tokens (0 for a route without one). */
    readonly tokens = 0,
  ) {}
}

export class Fifo<P> {
  items: Waiter<P>[] = [];
  head = 0;
  /** Live waiters. */
  count = 0;
  /** Sum of the live waiters' costs. */
  queuedCost = 0;
  /** Sum of the live waiters' per-signer tokens. */
  queuedTokens = 0;
  /** Pass number in which this FIFO was found blocked (the scheduler's scratch). */
  mark = 0;
  listed = false;
  constructor(
    readonly plan: P,
    readonly rank: number,
  ) {}

  /** First live waiter, dropping finished ones from the front. */
  peek(): Waiter<P> | undefined {
    const items = this.items;
    while (this.head < items.length) {
      const w = items[this.head] as Waiter<P>;
      if (!w.done) return w;
      this.head++;
    }
    if (this.head > 0) {
      this.items = [];
      this.head = 0;
    }
    return undefined;
  }

  compact(): void {
    if (this.head > 64 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}

export class WaitQueues<P extends object> {
  total = 0;
  readonly depth: number[] = [0, 0, 0, 0];
  /** FIFOs with live waiters, per class (may also hold just-emptied ones until compacted). */
  readonly active: Fifo<P>[][] = [[], [], [], []];
  private readonly fifos = new Map<P, Fifo<P>[]>();
  private seq = 0;

  push(
    plan: P,
    route: string,
    cost: number,
    rank: number,
    enqueuedAt: number,
    settle: (permit: Permit) => void,
    fail: (err: unknown) => void,
    tokens = 0,
  ): Waiter<P> {
    const w = new Waiter(plan, route, cost, rank, this.seq++, enqueuedAt, settle, fail, tokens);
    const f = this.fifo(plan, rank);
    f.items.push(w);
    f.count++;
    f.queuedCost += cost;
    f.queuedTokens += tokens;
    if (!f.listed) {
      f.listed = true;
      (this.active[rank] as Fifo<P>[]).push(f);
    }
    this.total++;
    (this.depth[rank] as number)++;
    return w;
  }

  /** The FIFO of class `rank`, not marked with `mark`, whose head arrived first. */
  pickHead(rank: number, mark: number): Fifo<P> | undefined {
    let best: Fifo<P> | undefined;
    let bestSeq = Number.POSITIVE_INFINITY;
    for (const f of this.active[rank] as Fifo<P>[]) {
      if (f.mark === mark) continue;
      const h = f.peek();
      if (h !== undefined && h.seq < bestSeq) {
        best = f;
        bestSeq = h.seq;
      }
    }
    return best;
  }

  /** Removes and returns the head of `f` (which must have one). */
  take(f: Fifo<P>): Waiter<P> {
    const w = f.peek() as Waiter<P>;
    f.head++;
    this.leave(f, w);
    f.compact();
    return w;
  }

  /** Removes a waiter wherever it is (abort, withdrawn probe). False if it already left. */
  remove(w: Waiter<P>): boolean {
    if (w.done) return false;
    this.leave(this.fifo(w.plan, w.rank), w);
    return true;
  }

  /** Drops emptied FIFOs from the active lists. */
  prune(rank: number): void {
    const list = this.active[rank] as Fifo<P>[];
    let j = 0;
    for (const f of list) {
      if (f.count > 0) list[j++] = f;
      else f.listed = false;
    }
    list.length = j;
  }

  /** Live waiters on a plan, all classes. */
  queuedOn(plan: P): number {
    const fs = this.fifos.get(plan);
    if (fs === undefined) return 0;
    let n = 0;
    for (const f of fs) n += f.count;
    return n;
  }

  /** Every live waiter, removed from the queues (shutdown). */
  drain(): Waiter<P>[] {
    const out: Waiter<P>[] = [];
    for (let r = 0; r < CLASSES; r++) {
      for (const f of this.active[r] as Fifo<P>[]) {
        for (let i = f.head; i < f.items.length; i++) {
          const w = f.items[i] as Waiter<P>;
          if (!w.done) {
            this.leave(f, w);
            out.push(w);
          }
        }
      }
      this.prune(r);
    }
    return out;
  }

  private leave(f: Fifo<P>, w: Waiter<P>): void {
    w.done = true;
    w.detach?.();
    w.detach = null;
    f.count--;
    f.queuedCost -= w.cost;
    f.queuedTokens -= w.tokens;
    this.total--;
    (this.depth[w.rank] as number)--;
  }

  private fifo(plan: P, rank: number): Fifo<P> {
    let fs = this.fifos.get(plan);
    if (fs === undefined) {
      fs = [new Fifo(plan, 0), new Fifo(plan, 1), new Fifo(plan, 2), new Fifo(plan, 3)];
      this.fifos.set(plan, fs);
    }
    return fs[rank] as Fifo<P>;
  }
}
