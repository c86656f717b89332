// The dead-man switch of the public exchange (POST /v1/heartbeats), simulated per engine account:
// once an account has sent a heartbeat, every heartbeat must arrive within `expiryMs` of the
// previous one, or the venue cancels all of the account's live orders and the session ends.
// Each accepted heartbeat answers the id the next one must carry (the official clients chain it:
// Polymarket/rs-clob-client src/clob/client.rs @ 59830d43ff7dad77e3b0f6df71e7676b0fc21188 keeps the id
// each answer returns).
//
// Rules (the public exchange documents only "if heartbeats are not sent regularly, all open orders
// are cancelled"; the rest is decided here and stated):
// - an empty (or null) id starts a session, or joins the running one (a restarted client sends "");
// - the current id refreshes the session and gets the next id;
// - any other id, while a session runs, is refused: the answer carries the current id (as
//   nautechsystems/nautilus_trader crates/adapters/polymarket/src/http/clob.rs @ 03ce53d5 expects
//   on a 400) and the deadline is NOT moved;
// - any other id with no session running starts one (the client learns of the lapse from its
//   orders being gone, not from the heartbeat);
// - default expiry 10 s (the window Polymarket-compatible services and client libraries state; the
//   official docs give no number).
// Invariants: time and timers only from the injected clock; ids are deterministic (seed, account,
// sequence) UUID-shaped strings; close() clears every timer.
import { createHash } from 'node:crypto';
import type { Clock, TimerId } from '../../core/clock.js';
import type { MatchingEngine } from '../engine/index.js';
import type { Seed } from '../world/index.js';
import { OptionError } from '../../core/errors.js';

export const DEFAULT_HEARTBEAT_EXPIRY_MS = 10_000;

export type HeartbeatResult =
  | { readonly ok: true; readonly heartbeatId: string }
  | { readonly ok: false; readonly heartbeatId: string; readonly error: string };

export const MSG_INVALID_HEARTBEAT = 'Invalid Heartbeat ID';

interface Session {
  id: string;
  timer: TimerId;
}

export interface HeartbeatStats {
  beats: number;
  refused: number;
  /** Sessions that lapsed, and the orders their lapse cancelled. */
  expired: number;
  canceledOrders: number;
}

export class HeartbeatMonitor {
  private readonly sessions = new Map<string, Session>();
  private seq = 0;
  private expiry: number;
  readonly stats: HeartbeatStats = { beats: 0, refused: 0, expired: 0, canceledOrders: 0 };

  constructor(
    private readonly clock: Clock,
    private readonly engine: MatchingEngine,
    private readonly seed: Seed,
    expiryMs: number = DEFAULT_HEARTBEAT_EXPIRY_MS,
  ) {
    this.expiry = checkExpiry(expiryMs);
  }

  get expiryMs(): number {
    return this.expiry;
  }

  /** Changes the window (running sessions keep their current deadline until their next beat). */
  set expiryMs(ms: number) {
    this.expiry = checkExpiry(ms);
  }

  /** Whether the account has a running session. */
  active(owner: string): boolean {
    return this.sessions.has(owner);
  }

  /** One heartbeat of an engine account carrying `given` ("" or null to start). */
  beat(owner: string, given: string | null): HeartbeatResult {
    const s = this.sessions.get(owner);
    if (s !== undefined && given !== null && given !== '' && given !== s.id) {
      this.stats.refused++;
      return { ok: false, heartbeatId: s.id, error: MSG_INVALID_HEARTBEAT };
    }
    if (s !== undefined) this.clock.clearTimeout(s.timer);
    const id = this.nextId(owner);
    const timer = this.clock.setTimeout(() => this.lapse(owner, id), this.expiry);
    this.sessions.set(owner, { id, timer });
    this.stats.beats++;
    return { ok: true, heartbeatId: id };
  }

  close(): void {
    for (const s of this.sessions.values()) this.clock.clearTimeout(s.timer);
    this.sessions.clear();
  }

  private lapse(owner: string, id: string): void {
    const s = this.sessions.get(owner);
    if (s === undefined || s.id !== id) return;
    this.sessions.delete(owner);
    this.stats.expired++;
    this.stats.canceledOrders += this.engine.cancelAll(owner).length;
  }

  private nextId(owner: string): string {
    const h = createHash('sha256')
      .update(`oddsmaker-sim/heartbeat/${String(this.seed)}/${owner}/${this.seq++}`)
      .digest('hex');
    // UUID layout, version 4 and variant bits set (the official Rust client reads the id as a Uuid).
    const v = `4${h.slice(13, 16)}`;
    const variant = ((parseInt(h[16] as string, 16) & 0x3) | 0x8).toString(16) + h.slice(17, 20);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${v}-${variant}-${h.slice(20, 32)}`;
  }
}

function checkExpiry(ms: number): number {
  if (!Number.isSafeInteger(ms) || ms < 1)
    throw new OptionError('SIM_OPTION', `heartbeat expiry must be a positive integer of ms, got ${String(ms)}`);
  return ms;
}
