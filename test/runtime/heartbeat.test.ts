// The daemon's heartbeat (src/runtime/heartbeat.ts) on a virtual clock against a fake exchange:
// beats every interval with chained ids, resynchronisation on a refused id, one warn per outage
// and one info on recovery, a lapse after the expiry (once per outage, onLapse called), no beat
// after stop, and the lapse's re-read of the order manager's orders through its public methods.
import { describe, expect, it } from 'vitest';
import type { HeartbeatAck } from '../../src/core/account.js';
import { VirtualClock } from '../../src/core/clock.js';
import { Heartbeat, rereadOrders, type HeartbeatPort } from '../../src/runtime/heartbeat.js';
import { createLogger } from '../../src/runtime/logger.js';

type LogLine = Record<string, unknown> & { msg: string; level: number };

/** A fake exchange side: answers with the next id, or fails / hangs / refuses as told. */
class FakeBeats implements HeartbeatPort {
  readonly sent: Array<{ id: string | null; atMs: number }> = [];
  mode: 'ok' | 'fail' | 'hang' = 'ok';
  /** The next answer refuses the id sent and names this one. */
  refuseWith: string | null = null;
  private seq = 0;
  constructor(private readonly clock: VirtualClock) {}

  heartbeat(id: string | null, signal?: AbortSignal): Promise<HeartbeatAck> {
    this.sent.push({ id, atMs: this.clock.now() });
    if (this.mode === 'fail') return Promise.reject(new Error('503 service unavailable'));
    if (this.mode === 'hang') {
      return new Promise((_res, rej) => {
        signal?.addEventListener('abort', () => rej(signal.reason), { once: true });
      });
    }
    if (this.refuseWith !== null) {
      const current = this.refuseWith;
      this.refuseWith = null;
      return Promise.resolve({ heartbeatId: current, resynchronized: true });
    }
    return Promise.resolve({ heartbeatId: `hb-${++this.seq}`, resynchronized: false });
  }
}

function setup(intervalMs = 3_000, expiryMs = 10_000) {
  const clock = new VirtualClock();
  const port = new FakeBeats(clock);
  const lines: LogLine[] = [];
  const log = createLogger({
    clock,
    pretty: false,
    base: null,
    level: 'debug',
    destination: {
      write: (l) => {
        lines.push(JSON.parse(l) as LogLine);
      },
    },
  });
  let lapses = 0;
  const hb = new Heartbeat({
    port,
    clock,
    log,
    intervalMs,
    expiryMs,
    onLapse: () => {
      lapses++;
    },
  });
  return { clock, port, lines, hb, lapses: () => lapses };
}

const warns = (lines: LogLine[]): LogLine[] => lines.filter((l) => l.level === 40);
const infos = (lines: LogLine[]): LogLine[] => lines.filter((l) => l.level === 30);
const errors = (lines: LogLine[]): LogLine[] => lines.filter((l) => l.level === 50);

describe('heartbeat', () => {
  it("beats at start and every interval, chaining each answer's id, on the clock only", async () => {
    const s = setup();
    const t0 = s.clock.now();
    s.hb.start();
    await s.clock.advanceAsync(0);
    await s.clock.advanceAsync(9_000);
    expect(s.port.sent).toEqual([
      { id: null, atMs: t0 },
      { id: 'hb-1', atMs: t0 + 3_000 },
      { id: 'hb-2', atMs: t0 + 6_000 },
      { id: 'hb-3', atMs: t0 + 9_000 },
    ]);
    expect(s.hb.status()).toMatchObject({
      running: true,
      beats: 4,
      failures: 0,
      lapsed: false,
      lastAcceptedAtMs: t0 + 9_000,
      failingSinceMs: null,
    });
    expect(s.lines).toEqual([]);
    await s.hb.stop();
    await s.clock.advanceAsync(60_000);
    expect(s.port.sent).toHaveLength(4); // nothing after stop
    expect(s.clock.pending()).toBe(0);
  });

  it('resends at once with the current id after a refused one, and counts only accepted beats', async () => {
    const s = setup();
    s.hb.start();
    await s.clock.advanceAsync(0);
    s.port.refuseWith = 'current-7';
    await s.clock.advanceAsync(3_000);
    // The refused beat (hb-1) and its immediate resend with the exchange's current id.
    expect(s.port.sent.map((b) => b.id)).toEqual([null, 'hb-1', 'current-7']);
    expect(s.port.sent[2]!.atMs).toBe(s.port.sent[1]!.atMs);
    expect(s.hb.status()).toMatchObject({ beats: 2, failures: 1, lapsed: false, failingSinceMs: null });
    // One warn for the (one-beat) outage, one info for its end.
    expect(warns(s.lines)).toHaveLength(1);
    expect(infos(s.lines).map((l) => l.msg)).toEqual(['heartbeat accepted again']);
    await s.hb.stop();
  });

  it('logs an outage once, lapses once after the expiry (onLapse), and recovers with one info line', async () => {
    const s = setup(3_000, 10_000);
    const t0 = s.clock.now();
    s.hb.start();
    await s.clock.advanceAsync(0); // beat 1 accepted at t0: the lapse deadline is t0 + 10 s
    s.port.mode = 'fail';
    await s.clock.advanceAsync(9_999);
    expect(s.port.sent.length).toBe(4); // t0, +3, +6, +9 s: three failed
    expect(warns(s.lines)).toHaveLength(1);
    expect(warns(s.lines)[0]).toMatchObject({ reason: 'Error: 503 service unavailable', expiryMs: 10_000 });
    expect(s.hb.status()).toMatchObject({ lapsed: false, failures: 3, failingSinceMs: t0 + 3_000 });
    expect(s.lapses()).toBe(0);
    await s.clock.advanceAsync(1);
    expect(s.hb.status()).toMatchObject({ lapsed: true, lapses: 1 });
    expect(s.lapses()).toBe(1);
    expect(errors(s.lines)).toHaveLength(1);
    await s.clock.advanceAsync(30_000); // still failing: no more lines, no second lapse
    expect(warns(s.lines)).toHaveLength(1);
    expect(errors(s.lines)).toHaveLength(1);
    expect(s.lapses()).toBe(1);

    s.port.mode = 'ok';
    await s.clock.advanceAsync(3_000);
    expect(s.hb.status()).toMatchObject({ lapsed: false, failingSinceMs: null, lastError: null });
    expect(infos(s.lines)).toHaveLength(1);
    expect(infos(s.lines)[0]).toMatchObject({ lapsed: true });
    // A second outage is logged again, and lapses again.
    s.port.mode = 'fail';
    await s.clock.advanceAsync(10_000);
    expect(warns(s.lines)).toHaveLength(2);
    expect(s.lapses()).toBe(2);
    await s.hb.stop();
  });

  it('gives up on an unanswered beat at the next one and counts the lapse from the first start', async () => {
    const s = setup(2_000, 5_000);
    s.port.mode = 'hang';
    s.hb.start();
    await s.clock.advanceAsync(4_999);
    expect(s.port.sent.map((b) => b.atMs - s.port.sent[0]!.atMs)).toEqual([0, 2_000, 4_000]);
    expect(s.lapses()).toBe(0);
    await s.clock.advanceAsync(1);
    expect(s.lapses()).toBe(1); // no beat ever accepted: 5 s after start
    expect(warns(s.lines)[0]!.reason).toMatch(/unanswered after 2000 ms/);
    await s.hb.stop(); // aborts the hanging beat and returns
    expect(s.hb.status().running).toBe(false);
  });

  it('refuses an interval that is not below the expiry', () => {
    const s = setup();
    expect(
      () =>
        new Heartbeat({
          port: s.port,
          clock: s.clock,
          log: createLogger({ clock: s.clock, level: 'silent' }),
          intervalMs: 10_000,
          expiryMs: 10_000,
        }),
    ).toThrow(/below the expiry/);
  });
});

describe("rereadOrders (a lapse's re-read)", () => {
  it('resolves every unknown order, then looks up every live order and final read owed', async () => {
    const calls: string[] = [];
    let live = 3;
    const executor = {
      resolveUnknown: (o?: { all?: boolean }) => {
        calls.push(`resolve all=${String(o?.all)}`);
        return Promise.resolve({ lookedUp: 0, live: 0, closed: 0, notFound: 0, failed: 0, fills: [] });
      },
      pollFills: (o?: { limit?: number }) => {
        calls.push(`poll limit=${String(o?.limit)}`);
        live = 0;
        return Promise.resolve({ lookedUp: 5, closed: 3, failed: 0, fills: [] });
      },
      liveOrders: () => Array.from({ length: live }, () => ({}) as never),
      fillReads: () => ({ pendingSettlements: 2 }) as never,
    };
    await rereadOrders(executor);
    expect(calls).toEqual(['resolve all=true', 'poll limit=5', 'poll limit=2']);
  });
});
