// The fake market-data venue with an account port (GET /positions) for the daemon's positions
// check: the positions it answers are set by the test, calls are recorded with the address asked
// for, an answer can be delayed on the injected clock (aborted by the signal, as the HTTP gateway
// is) and failures scripted. `position()` builds a domain Position as the parsers produce it.
import type { Clock } from '../../src/core/clock.js';
import type { Position } from '../../src/core/market.js';
import type { Micros, Price, Shares } from '../../src/core/money.js';
import type { AccountPort } from '../../src/exchange/gateway.js';
import { FakeGateway, FakeGatewayError } from '../support/fake-gateway.js';

/** A position of `size` share millionths named by `asset` (`<condition>:<index>` or a token id). */
export function position(asset: string, size: number, over: Partial<Position> = {}): Position {
  const m = /^(.+):(\d+)$/.exec(asset);
  return {
    proxyWallet: '0x0000000000000000000000000000000000000001',
    asset,
    conditionId: m?.[1] ?? '',
    size: size as Shares,
    avgPrice: 500_000 as Price,
    initialValue: 0 as Micros,
    currentValue: 0 as Micros,
    cashPnl: 0 as Micros,
    percentPnl: 0,
    totalBought: 0 as Micros,
    realizedPnl: 0 as Micros,
    percentRealizedPnl: 0,
    curPrice: 500_000 as Price,
    redeemable: false,
    mergeable: false,
    negativeRisk: false,
    title: '',
    slug: '',
    icon: '',
    eventId: null,
    eventSlug: '',
    outcome: '',
    oppositeOutcome: '',
    oppositeAsset: '',
    outcomeIndex: m === null ? 0 : Number(m[2]),
    timestamp: 0,
    endDate: null,
    ...over,
  };
}

export class FakeAccountGateway extends FakeGateway implements AccountPort {
  /** What GET /positions answers. */
  positions: Position[] = [];
  /** Addresses asked for, one per call. */
  readonly positionCalls: string[] = [];
  /** Delay of each GET /positions on the clock. */
  positionsLatencyMs = 0;
  private positionFailures = 0;

  constructor(private readonly accountClock: Clock) {
    super(accountClock);
  }

  /** The next n GET /positions fail. */
  failPositions(n = 1): void {
    this.positionFailures += n;
  }

  async getPositions(user: string, signal?: AbortSignal): Promise<Position[]> {
    this.positionCalls.push(user);
    if (this.positionsLatencyMs > 0) await this.accountClock.sleep(this.positionsLatencyMs, signal);
    if (this.positionFailures > 0) {
      this.positionFailures--;
      throw new FakeGatewayError('EXCHANGE_UNAVAILABLE', 'GET /positions: 503 service unavailable');
    }
    return this.positions.map((p) => ({ ...p }));
  }
}
