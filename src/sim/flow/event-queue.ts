// The flow's agenda: a binary min-heap of tasks on (time, insertion sequence). Ties fire in the
// order they were scheduled, so a run is a pure function of its inputs. Each timer tick pops only
// what is due: the cost of a tick follows the flow's events, not the number of markets.

export interface FlowTask {
  /** Runs the task at flow time `at` (the time it was scheduled for). */
  run(at: number): void;
}

interface Entry {
  readonly at: number;
  readonly seq: number;
  readonly task: FlowTask;
}

export class EventQueue {
  private readonly heap: Entry[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  push(at: number, task: FlowTask): void {
    const e: Entry = { at, seq: this.seq++, task };
    const h = this.heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = h[p] as Entry;
      if (!before(e, parent)) break;
      h[i] = parent;
      i = p;
    }
    h[i] = e;
  }

  /** Time of the earliest task, or +∞. */
  peekTime(): number {
    const top = this.heap[0];
    return top === undefined ? Number.POSITIVE_INFINITY : top.at;
  }

  /** Removes and returns the earliest entry (caller checked peekTime). */
  pop(): { at: number; task: FlowTask } | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (top === undefined || last === undefined) return undefined;
    if (h.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= h.length) break;
        const r = l + 1;
        const lc = h[l] as Entry;
        const rc = h[r];
        const c = rc !== undefined && before(rc, lc) ? r : l;
        const child = h[c] as Entry;
        if (!before(child, last)) break;
        h[i] = child;
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}

function before(a: Entry, b: Entry): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
