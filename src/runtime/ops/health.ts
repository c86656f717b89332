// The daemon's health, as /healthz and the container's HEALTHCHECK see it: a pure function of
// the daemon's status. Healthy means the daemon can make markets right now:
// - it is running: startup reconciliation is done (the daemon is `running` only after it), and it
//   is not stopping;
// - market data is fresh: the universe has markets and none of them is stale (a market is stale
//   when a token's book is older than poll.maxBookAgeMs, or was never received);
// - no circuit breaker is open (order entry, market data) and the kill switch is not tripped;
// - the rate limiter's backend is up (a shared Redis reachable: without it nothing is sent);
// - the strategy is not halted by an error;
// - fill discovery keeps up: no more final reads owed than the order manager allows, and none
//   owed for longer than FILL_READ_LAG_MS (the ledger would be behind the exchange);
// - the exchange's heartbeat (dead-man switch) has not lapsed: no accepted heartbeat for longer
//   than its expiry means the exchange has cancelled our orders (quoting stops until one is
//   accepted again);
// - no zero collateral allowance for the exchange's contracts (every order would be refused);
// - quoting not stopped on the exchange's order version (every order would be refused).
// Paused quoting is healthy: it is the operator's own decision (reported in the body).
// Every failed condition gives one reason, in a fixed order, so a 503 always says why.
import type { DaemonStatus } from '../daemon.js';

export interface Health {
  readonly healthy: boolean;
  /** Why not, one line per failed condition (empty when healthy). */
  readonly reasons: readonly string[];
}

/** Markets named in a reason before it is cut short. */
const MAX_NAMED = 5;
/** A final read owed for longer than this makes the daemon unhealthy (the ledger lags). */
export const FILL_READ_LAG_MS = 30_000;

export function healthOf(s: DaemonStatus): Health {
  const reasons: string[] = [];
  if (s.state !== 'running') {
    reasons.push(
      s.state === 'new' || s.state === 'starting'
        ? `daemon ${s.state}: startup reconciliation not done`
        : `daemon ${s.state}`,
    );
  }
  if (s.killSwitch.tripped) reasons.push(`kill switch tripped: ${s.killSwitch.reason ?? 'no reason given'}`);
  if (s.circuitBreaker.orderEntry === 'open') reasons.push('circuit breaker open: order entry');
  if (s.circuitBreaker.marketData === 'open') {
    reasons.push(
      `circuit breaker open: market data (${s.circuitBreaker.consecutivePollFailures} consecutive failed polls)`,
    );
  }
  if (s.rateLimiter !== undefined && !s.rateLimiter.ok)
    reasons.push(`rate limiter backend down: ${s.rateLimiter.reason}`);
  if (s.state === 'running') {
    const stale = s.markets.filter((m) => m.stale).map((m) => m.conditionId);
    if (s.markets.length === 0) reasons.push('stale market data: no market in the universe');
    else if (stale.length > 0) {
      const named = stale.slice(0, MAX_NAMED).join(', ') + (stale.length > MAX_NAMED ? ', …' : '');
      reasons.push(`stale market data: ${stale.length} of ${s.markets.length} markets (${named})`);
    }
  }
  if (s.halted !== null) reasons.push(`strategy halted: ${s.halted}`);
  if (s.orderVersionStop !== undefined && s.orderVersionStop !== null)
    reasons.push(`order version mismatch: ${s.orderVersionStop}`);
  const f = s.fillReads;
  if (f !== null && (f.pendingSettlements > f.maxFinalReadBacklog || f.oldestFinalReadOwedMs > FILL_READ_LAG_MS)) {
    reasons.push(
      `fill reads behind: ${f.pendingSettlements} final reads owed, oldest ${Math.round(f.oldestFinalReadOwedMs / 1000)} s (placements held)`,
    );
  }
  const hb = s.heartbeat;
  if (hb !== undefined && hb !== null && hb.lapsed) {
    reasons.push(
      `heartbeat lapsed: none accepted for over ${hb.expiryMs} ms, the exchange has cancelled our orders (${hb.lastError ?? 'no answer'})`,
    );
  }
  const zero = s.collateral?.zeroAllowances ?? [];
  if (zero.length > 0) {
    reasons.push(
      `zero collateral allowance for the exchange contract(s) ${zero.map((z) => (z === '' ? '(exchange)' : z)).join(', ')}: orders would be refused`,
    );
  }
  return { healthy: reasons.length === 0, reasons };
}
