// Accounts of the engine: free and reserved collateral, and free and reserved balances per outcome
// token, all integer millionths. Invariants kept (checked by audit.ts):
// - nothing is ever negative;
// - an account's reserved collateral is exactly Σ buyNeed(limit, remaining) over its resting BUY
//   orders, and its reserved balance of a token exactly Σ remaining over its resting SELL orders of
//   that token (reservations move only with an order's placement, fill, cancel or expiry);
// - collateral enters only through deposit and leaves only through withdraw, so with the venue's
//   fees and the collateral locked in markets, value is conserved (see engine.ts).
// The account's resting orders form an intrusive doubly linked list through the nodes (oldest
// first), for cancelAll, openOrders and the audit: O(1) to add and remove, no hashing.
import { OddsmakerError } from '../../core/errors.js';
import type { OrderNode } from './order.js';

export class BalanceError extends OddsmakerError {
  constructor(message: string) {
    super('SIM_BALANCE', message, false);
  }
}

export class Position {
  available = 0;
  reserved = 0;
}

export class Account {
  available = 0;
  reserved = 0;
  readonly positions = new Map<string, Position>();
  private liveHead: OrderNode | null = null;
  private liveTail: OrderNode | null = null;
  liveCount = 0;
  constructor(readonly id: string) {}

  addLive(o: OrderNode): void {
    o.livePrev = this.liveTail;
    o.liveNext = null;
    if (this.liveTail === null) this.liveHead = o;
    else this.liveTail.liveNext = o;
    this.liveTail = o;
    this.liveCount++;
  }

  removeLive(o: OrderNode): void {
    if (o.livePrev === null) this.liveHead = o.liveNext;
    else o.livePrev.liveNext = o.liveNext;
    if (o.liveNext === null) this.liveTail = o.livePrev;
    else o.liveNext.livePrev = o.livePrev;
    o.livePrev = null;
    o.liveNext = null;
    this.liveCount--;
  }

  /** The resting orders, oldest first (a copy: safe to cancel while iterating it). */
  liveOrders(): OrderNode[] {
    const out: OrderNode[] = [];
    for (let o = this.liveHead; o !== null; o = o.liveNext) out.push(o);
    return out;
  }

  position(tokenId: string): Position {
    let p = this.positions.get(tokenId);
    if (p === undefined) {
      p = new Position();
      this.positions.set(tokenId, p);
    }
    return p;
  }
}

/** The account table plus the external flows of collateral (deposits and withdrawals). */
export class Accounts {
  private readonly byId = new Map<string, Account>();
  deposited = 0;
  withdrawn = 0;

  /** The account, created empty on first use. */
  get(id: string): Account {
    let a = this.byId.get(id);
    if (a === undefined) {
      a = new Account(id);
      this.byId.set(id, a);
    }
    return a;
  }

  find(id: string): Account | undefined {
    return this.byId.get(id);
  }

  all(): IterableIterator<Account> {
    return this.byId.values();
  }

  deposit(id: string, amount: number): void {
    assertAmount(amount, 'deposit');
    this.get(id).available += amount;
    this.deposited += amount;
  }

  withdraw(id: string, amount: number): void {
    assertAmount(amount, 'withdrawal');
    const a = this.find(id);
    if (a === undefined || a.available < amount)
      throw new BalanceError(`withdrawal exceeds the free collateral of ${id}`);
    a.available -= amount;
    this.withdrawn += amount;
  }
}

export function assertAmount(amount: number, what: string): void {
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw new BalanceError(`${what} is not a non-negative integer amount: ${String(amount)}`);
}
