// The health of a limiter's backend (the shared Redis store): whether it can admit requests right
// now, and why not. `BackendHealth` is the small interface the daemon reads (RateLimiter.health())
// to stop quoting and the ops layer reads for /healthz and /metrics; `HealthTracker` is the state
// behind it.
//
// Invariants kept:
// - two causes: the connection (down from a client 'close' until 'ready') and the store's answers
//   (down from a failed command until the next successful one, or a new connection); the backend
//   is healthy only when neither is down, and the reason shown is the connection's first;
// - the listener hears transitions only, healthy → down and down → healthy, so a Redis that stays
//   away yields one loss and one recovery, however many reconnect attempts or refused requests
//   there are meanwhile; while down a newer reason replaces the shown one silently;
// - `since` is the clock time of the transition to down (kept while the reason changes).
import type { Clock } from '../core/clock.js';

export type BackendHealth =
  { readonly ok: true } | { readonly ok: false; readonly reason: string; readonly sinceMs: number };

export const BACKEND_OK: BackendHealth = Object.freeze({ ok: true });

export type HealthListener = (health: BackendHealth) => void;

export class HealthTracker {
  private conn: string | null = null;
  private store: string | null = null;
  private current: BackendHealth = BACKEND_OK;
  private readonly listeners: HealthListener[] = [];

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  get health(): BackendHealth {
    return this.current;
  }

  get connectionDown(): boolean {
    return this.conn !== null;
  }

  onChange(fn: HealthListener): void {
    this.listeners.push(fn);
  }

  connectionLost(reason: string): void {
    this.conn = reason;
    this.update();
  }
  /** A fresh connection also clears a store failure (most are the old connection's: closed, timed out). */
  connectionUp(): void {
    this.conn = null;
    this.store = null;
    this.update();
  }
  storeFailed(reason: string): void {
    this.store = reason;
    this.update();
  }
  storeOk(): void {
    if (this.store !== null) {
      this.store = null;
      this.update();
    }
  }

  private update(): void {
    const reason = this.conn ?? this.store;
    const was = this.current;
    if (reason === null) {
      if (was.ok) return;
      this.current = BACKEND_OK;
    } else {
      this.current = { ok: false, reason, sinceMs: was.ok ? this.clock.now() : was.sinceMs };
      if (!was.ok) return; // still down: the reason changes, nobody is told again
    }
    for (const fn of this.listeners) {
      try {
        fn(this.current);
      } catch {
        /* a listener (a log line, a metric) must not break admission */
      }
    }
  }
}
