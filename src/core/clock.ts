// The one clock (docs/ARCHITECTURE.md §6). Nothing else in the project reads the time or sets timers: the
// system clock serves live, sandbox and paper modes; the virtual clock serves backtests and every
// test, where time moves only when advanced and timers fire in time order (ties in creation order).

export type TimerId = number;

export interface Clock {
  /** Wall time, epoch milliseconds. */
  now(): number;
  /** Monotonic milliseconds (for elapsed times and rate-limit windows). */
  monotonic(): number;
  setTimeout(fn: () => void, ms: number): TimerId;
  clearTimeout(id: TimerId): void;
  setInterval(fn: () => void, ms: number): TimerId;
  clearInterval(id: TimerId): void;
  /** Resolves after ms; rejects with the signal's reason if aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

function sleepWith(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clock.clearTimeout(id);
      reject(signal?.reason);
    };
    const id = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class SystemClock implements Clock {
  private nextId = 1;
  private readonly handles = new Map<TimerId, NodeJS.Timeout>();

  now(): number {
    return Date.now();
  }
  monotonic(): number {
    return performance.now();
  }

  setTimeout(fn: () => void, ms: number): TimerId {
    const id = this.nextId++;
    const h = globalThis.setTimeout(
      () => {
        this.handles.delete(id);
        fn();
      },
      Math.max(0, ms),
    );
    this.handles.set(id, h);
    return id;
  }
  clearTimeout(id: TimerId): void {
    const h = this.handles.get(id);
    if (h !== undefined) {
      globalThis.clearTimeout(h);
      this.handles.delete(id);
    }
  }
  setInterval(fn: () => void, ms: number): TimerId {
    const id = this.nextId++;
    this.handles.set(id, globalThis.setInterval(fn, Math.max(1, ms)));
    return id;
  }
  clearInterval(id: TimerId): void {
    const h = this.handles.get(id);
    if (h !== undefined) {
      globalThis.clearInterval(h);
      this.handles.delete(id);
    }
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepWith(this, ms, signal);
  }
}

interface VirtualTimer {
  id: TimerId;
  at: number;
  seq: number;
  fn: () => void;
  every: number | null;
}

/** A clock that moves only when told. Time starts at `startMs` (epoch ms). */
export class VirtualClock implements Clock {
  private t: number;
  private readonly startMs: number;
  private seq = 0;
  private nextId = 1;
  private readonly timers = new Map<TimerId, VirtualTimer>();
  /** Min-heap on (at, seq); cancelled timers stay in it and are skipped when popped. */
  private readonly heap: VirtualTimer[] = [];

  constructor(startMs = Date.UTC(2026, 0, 1)) {
    this.t = startMs;
    this.startMs = startMs;
  }

  now(): number {
    return this.t;
  }
  monotonic(): number {
    return this.t - this.startMs;
  }

  setTimeout(fn: () => void, ms: number): TimerId {
    return this.add(fn, Math.max(0, ms), null);
  }
  clearTimeout(id: TimerId): void {
    this.timers.delete(id);
  }
  setInterval(fn: () => void, ms: number): TimerId {
    return this.add(fn, Math.max(1, ms), Math.max(1, ms));
  }
  clearInterval(id: TimerId): void {
    this.timers.delete(id);
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepWith(this, ms, signal);
  }

  /** Number of timers waiting. */
  pending(): number {
    return this.timers.size;
  }

  /** Time of the next timer, or null. */
  nextTimerAt(): number | null {
    const n = this.next();
    return n === undefined ? null : n.at;
  }

  /** Moves time forward by ms, firing due timers synchronously in time order. */
  advance(ms: number): void {
    this.runTo(this.t + ms);
  }

  /** Sets the time to `at` (never backwards), firing due timers. */
  advanceTo(at: number): void {
    this.runTo(Math.max(this.t, at));
  }

  /**
   * Like advance, but lets promise continuations run after each timer, so async code driven by
   * timers (sleep, retries) makes progress as it would in real time.
   */
  async advanceAsync(ms: number): Promise<void> {
    const target = this.t + ms;
    await flushMicrotasks();
    for (;;) {
      const n = this.next();
      if (n === undefined || n.at > target) break;
      this.fire(n);
      await flushMicrotasks();
    }
    this.t = target;
    await flushMicrotasks();
  }

  /** Fires timers one by one (letting promises settle) until `done()` or no timer is left. */
  async runUntil(done: () => boolean, maxMs = Number.POSITIVE_INFINITY): Promise<void> {
    const limit = this.t + maxMs;
    await flushMicrotasks();
    while (!done()) {
      const n = this.next();
      if (n === undefined || n.at > limit) break;
      this.fire(n);
      await flushMicrotasks();
    }
  }

  private runTo(target: number): void {
    for (;;) {
      const n = this.next();
      if (n === undefined || n.at > target) break;
      this.fire(n);
    }
    this.t = target;
  }

  private fire(n: VirtualTimer): void {
    this.pop();
    this.t = Math.max(this.t, n.at);
    if (n.every === null) {
      this.timers.delete(n.id);
    } else {
      // A fresh entry, so the popped one can never be confused with the rescheduled one.
      const again: VirtualTimer = { id: n.id, at: n.at + n.every, seq: this.seq++, fn: n.fn, every: n.every };
      this.timers.set(n.id, again);
      this.push(again);
    }
    n.fn();
  }

  private add(fn: () => void, ms: number, every: number | null): TimerId {
    const id = this.nextId++;
    const tm: VirtualTimer = { id, at: this.t + ms, seq: this.seq++, fn, every };
    this.timers.set(id, tm);
    this.push(tm);
    return id;
  }

  /** The earliest live timer (drops cancelled entries from the top of the heap). */
  private next(): VirtualTimer | undefined {
    for (;;) {
      const top = this.heap[0];
      if (top === undefined) return undefined;
      if (this.timers.get(top.id) === top) return top;
      this.pop();
    }
  }

  private static before(a: VirtualTimer, b: VirtualTimer): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private push(tm: VirtualTimer): void {
    const h = this.heap;
    h.push(tm);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = h[p] as VirtualTimer;
      if (!VirtualClock.before(tm, parent)) break;
      h[i] = parent;
      i = p;
    }
    h[i] = tm;
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop();
    if (last === undefined || h.length === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= h.length) break;
      const r = l + 1;
      const lc = h[l] as VirtualTimer;
      const rc = h[r];
      const c = rc !== undefined && VirtualClock.before(rc, lc) ? r : l;
      const child = h[c] as VirtualTimer;
      if (!VirtualClock.before(child, last)) break;
      h[i] = child;
      i = c;
    }
    h[i] = last;
  }
}

/** Lets queued promise continuations run (several turns, since chains nest). */
async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
