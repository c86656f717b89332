// Operator actions on a running daemon, and who may call them. The token comes only from the
// environment (ODDSMAKER_OPERATOR_TOKEN); without one, every action is off. Invariants kept:
// - the token is compared in constant time (both sides hashed first, so neither length nor
//   content leaks through timing) and never echoed, logged or put in an error message;
// - actions change the daemon only through its operator controls and the order manager's
//   cancelAll/resume, never its internals; they are refused (conflict) unless the daemon is running;
// - "cancel all" pauses quoting as well as cancelling every open order: otherwise the next cycle
//   would put the quotes straight back. Quoting stays off until "resume";
// - "resume" lets the order manager place again only while the kill switch is armed: a tripped
//   switch is cleared by its own action, never as a side effect.
import { createHash, timingSafeEqual } from 'node:crypto';
import { OddsmakerError } from '../../core/errors.js';
import type { Env } from '../../exchange/auth/credentials.js';
import type { Daemon, DaemonStatus } from '../daemon.js';
import type { CancelAllReport, OrderExecutor } from '../executor.js';

export const OPERATOR_TOKEN_ENV = 'ODDSMAKER_OPERATOR_TOKEN';

/** The configured token, or null when operator actions are off (unset or empty). */
export function operatorTokenFromEnv(env: Env): string | null {
  const t = env[OPERATOR_TOKEN_ENV];
  return t === undefined || t.trim() === '' ? null : t;
}

export type AuthOutcome = 'ok' | 'disabled' | 'missing' | 'wrong';

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** Checks an `Authorization: Bearer <token>` header against the configured token. */
export function checkOperator(configured: string | null, authorization: string | undefined): AuthOutcome {
  if (configured === null) return 'disabled';
  if (authorization === undefined) return 'missing';
  const m = /^Bearer\s+(.+)$/i.exec(authorization.trim());
  if (m === null) return 'missing';
  return timingSafeEqual(digest(m[1] as string), digest(configured)) ? 'ok' : 'wrong';
}

export type OperatorAction = 'pause' | 'resume' | 'cancel-all' | 'clear-kill-switch' | 'trip-kill-switch';
export const OPERATOR_ACTIONS: readonly OperatorAction[] = [
  'pause',
  'resume',
  'cancel-all',
  'clear-kill-switch',
  'trip-kill-switch',
];

export interface OperatorTarget {
  readonly daemon: Pick<Daemon, 'status' | 'pause' | 'resume' | 'clearKillSwitch' | 'tripKillSwitch'>;
  /** The order manager (metered or not). */
  readonly executor: Pick<OrderExecutor, 'cancelAll' | 'resume'>;
  /** Bound of the operator's cancel-all (orders.shutdownTimeoutMs). */
  readonly cancelTimeoutMs: number;
}

export interface ActionResult {
  readonly action: OperatorAction;
  readonly paused: boolean;
  readonly quoting: boolean;
  readonly killSwitch: { readonly tripped: boolean; readonly reason: string | null };
  /** cancel-all only. */
  readonly cancelAll?: { readonly cancelled: number; readonly remaining: number; readonly timedOut: boolean };
}

/** The daemon is not running: the action cannot apply. */
export class ActionConflictError extends OddsmakerError {
  constructor(state: string) {
    // Retryable while starting: the same action will apply once the daemon runs.
    super(
      'OPS_NOT_RUNNING',
      `daemon is ${state}: operator actions need a running daemon`,
      state === 'new' || state === 'starting',
    );
  }
}

export async function runAction(t: OperatorTarget, action: OperatorAction, reason?: string): Promise<ActionResult> {
  const before = t.daemon.status();
  if (before.state !== 'running') throw new ActionConflictError(before.state);
  let cancel: CancelAllReport | null = null;
  switch (action) {
    case 'pause':
      t.daemon.pause();
      break;
    case 'resume':
      t.daemon.resume();
      if (!before.killSwitch.tripped) t.executor.resume();
      break;
    case 'cancel-all':
      t.daemon.pause();
      cancel = await t.executor.cancelAll({ timeoutMs: t.cancelTimeoutMs });
      break;
    case 'clear-kill-switch':
      t.daemon.clearKillSwitch();
      break;
    case 'trip-kill-switch':
      await t.daemon.tripKillSwitch(reason !== undefined && reason !== '' ? `operator: ${reason}` : 'operator');
      break;
  }
  return result(action, t.daemon.status(), cancel);
}

function result(action: OperatorAction, s: DaemonStatus, c: CancelAllReport | null): ActionResult {
  return {
    action,
    paused: s.paused,
    quoting: s.quoting,
    killSwitch: { tripped: s.killSwitch.tripped, reason: s.killSwitch.reason },
    ...(c === null
      ? {}
      : { cancelAll: { cancelled: c.cancelled, remaining: c.remaining.length, timedOut: c.timedOut } }),
  };
}
