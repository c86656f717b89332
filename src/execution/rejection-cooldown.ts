// Memory of rejected placements, per quote key, so a rejected order is not retried blindly: the
// next identical plan (same key) is dropped until the cool-down has passed. Invariants: an entry
// expires at `untilMs` (the injected clock's time) and is forgotten then; the latest rejection of
// a key wins; bounded by the number of keys quoted (expired entries are swept on each check).
import type { Clock } from '../core/clock.js';
import { OptionError } from '../core/errors.js';

export interface Rejection {
  readonly key: string;
  readonly errorMsg: string;
  readonly atMs: number;
  readonly untilMs: number;
}

export class RejectionCooldown {
  private readonly byKey = new Map<string, Rejection>();

  constructor(
    private readonly clock: Clock,
    private readonly cooldownMs: number,
  ) {
    if (!Number.isFinite(cooldownMs) || cooldownMs < 0)
      throw new OptionError('EXECUTION_OPTION', `rejection cool-down must be >= 0 ms, got ${String(cooldownMs)}`);
  }

  record(key: string, errorMsg: string): void {
    if (this.cooldownMs === 0) return;
    const now = this.clock.now();
    this.byKey.set(key, { key, errorMsg, atMs: now, untilMs: now + this.cooldownMs });
  }

  /** The rejection still cooling down at `key`, or undefined. */
  active(key: string): Rejection | undefined {
    const r = this.byKey.get(key);
    if (r === undefined) return undefined;
    if (this.clock.now() >= r.untilMs) {
      this.byKey.delete(key);
      return undefined;
    }
    return r;
  }

  /** Every rejection still cooling down. */
  list(): Rejection[] {
    const now = this.clock.now();
    for (const [k, r] of this.byKey) if (now >= r.untilMs) this.byKey.delete(k);
    return [...this.byKey.values()];
  }
}
