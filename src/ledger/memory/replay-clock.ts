// The clock a replay of the in-memory ledger's operations runs on: it reads the time each
// operation was first applied at, so the replayed records carry the very same times (fills'
// record times, order state times, settlements'). Invariant: it only tells the time it is set to;
// a replay sets no timers (asking for one is a bug: InvariantError).
import type { Clock, TimerId } from '../../core/clock.js';
import { InvariantError } from '../../core/errors.js';

export class ReplayClock implements Clock {
  constructor(public t: number) {}

  now(): number {
    return this.t;
  }

  monotonic(): number {
    return this.t;
  }

  setTimeout(): TimerId {
    throw new InvariantError('a ledger replay sets no timers');
  }

  clearTimeout(): void {}

  setInterval(): TimerId {
    throw new InvariantError('a ledger replay sets no timers');
  }

  clearInterval(): void {}

  sleep(): Promise<void> {
    return Promise.reject(new InvariantError('a ledger replay does not sleep'));
  }
}
