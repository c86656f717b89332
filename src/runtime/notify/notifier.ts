// What the daemon tells its webhooks, and when: the kill switch tripped or cleared, a circuit
// breaker (order entry, market data) opened or closed, the daemon started or stopped, and every
// `notify.fillsSummaryMs` a summary of the fills since the last one (only when there were fills).
// It watches the daemon from outside, through the seams the ops layer already reads: the daemon's
// status (read every `checkMs` on the injected Clock, so an operator's trip between two cycles
// is seen as well as one in a cycle) and its fill hook. Invariants kept:
// - nothing here blocks or fails the daemon: events go to each webhook's bounded queue (sink.ts);
//   a status read that throws is skipped;
// - each transition is told once: the watch compares with the last state it saw (the first state
//   seen is compared with an armed switch and closed breakers, so a daemon that starts tripped says
//   so); "started" once the daemon runs, "stopped" once at close, after a last fills summary;
// - amounts are exact decimal strings (formatMicros of integer millionths).
import type { Registry } from 'prom-client';
import { Counter } from 'prom-client';
import type { Clock, TimerId } from '../../core/clock.js';
import { formatMicros, mulMicros } from '../../core/money.js';
import type { Config } from '../../config/schema.js';
import type { MarketNameOf } from '../../execution/fill-log.js';
import type { FillEvent } from '../../execution/fill-tracker.js';
import type { FillsByMarket, NotifyEvent } from './events.js';
import { postJson, type PostJson } from './post.js';
import { WebhookSink, type SinkLogger } from './sink.js';

/** What the watch reads of the daemon (a DaemonStatus satisfies it). */
export interface WatchedStatus {
  readonly mode: string;
  readonly strategy: string;
  readonly state: string;
  readonly killSwitch: { readonly tripped: boolean; readonly reason: string | null };
  readonly circuitBreaker: { readonly orderEntry: 'open' | 'closed'; readonly marketData: 'open' | 'closed' };
}

export interface NotifierOptions {
  readonly config: Config['notify'];
  readonly clock: Clock;
  readonly log: SinkLogger;
  readonly status: () => WatchedStatus;
  /** The fills summary's market names (the order manager's labels); absent or unknown: the token id. */
  readonly marketName?: MarketNameOf;
  /** The daemon's name in messages (default "oddsmaker"). */
  readonly name?: string;
  /** Status read period (default 1000 ms). */
  readonly checkMs?: number;
  readonly post?: PostJson;
  readonly random?: () => number;
  /** Where the notify counters go (the ops metrics' registry); absent: not exported. */
  readonly registry?: Registry;
}

interface MarketTally {
  fills: number;
  bought: number;
  sold: number;
}

const DEFAULT_CHECK_MS = 1_000;
/** How long close() waits for the last messages to go out. */
export const NOTIFY_CLOSE_BOUND_MS = 5_000;

export class Notifier {
  readonly sinks: readonly WebhookSink[];
  private readonly clock: Clock;
  private check: TimerId | null = null;
  private summary: TimerId | null = null;
  private seen: WatchedStatus | null = null;
  private mode = '';
  private startedSent = false;
  private closed = false;
  private fills = 0;
  private notional = 0;
  private fees = 0;
  private byMarket = new Map<string, MarketTally>();
  private since: number;

  constructor(private readonly o: NotifierOptions) {
    this.clock = o.clock;
    this.since = o.clock.now();
    const counter = (name: string, help: string): Counter<'webhook'> | null =>
      o.registry === undefined ? null : new Counter({ name, help, labelNames: ['webhook'], registers: [o.registry] });
    const sent = counter('oddsmaker_notify_sent_total', 'Webhook messages delivered.');
    const failed = counter(
      'oddsmaker_notify_failed_total',
      'Webhook messages given up on (retries spent or a final answer).',
    );
    const dropped = counter(
      'oddsmaker_notify_dropped_total',
      'Webhook messages dropped unsent: the queue was full (the oldest goes).',
    );
    const post = o.post ?? postJson;
    const random = o.random ?? Math.random;
    this.sinks = o.config.webhooks.map((w, i) => {
      const label = String(i);
      return new WebhookSink({
        url: w.url,
        format: w.format,
        ...(w.events !== undefined ? { events: w.events } : {}),
        ...(w.chatId !== undefined ? { chatId: w.chatId } : {}),
        daemon: o.name ?? 'oddsmaker',
        clock: o.clock,
        post,
        random,
        log: o.log,
        timeoutMs: o.config.timeoutMs,
        maxAttempts: o.config.maxAttempts,
        queueCap: o.config.queueCap,
        onSent: () => {
          sent?.inc({ webhook: label });
        },
        onFailed: () => {
          failed?.inc({ webhook: label });
        },
        onDropped: () => {
          dropped?.inc({ webhook: label });
        },
      });
    });
  }

  /** Starts the watch and the summary schedule. */
  start(): void {
    if (this.check !== null || this.closed) return;
    this.check = this.clock.setInterval(() => {
      this.poll();
    }, this.o.checkMs ?? DEFAULT_CHECK_MS);
    this.summary = this.clock.setInterval(() => {
      this.sendSummary();
    }, this.o.config.fillsSummaryMs);
    this.poll();
  }

  /** The daemon's fill hook. */
  onFill(f: FillEvent): void {
    if (this.closed) return;
    const market = this.o.marketName?.(f.tokenId) ?? f.tokenId;
    const t = this.byMarket.get(market) ?? { fills: 0, bought: 0, sold: 0 };
    t.fills += 1;
    if (f.side === 'BUY') t.bought += f.size;
    else t.sold += f.size;
    this.byMarket.set(market, t);
    this.fills += 1;
    this.notional += mulMicros(f.price, f.size, 'half-even');
    this.fees += f.feeMicros;
  }

  /** Reads the daemon's status and tells what changed. */
  poll(): void {
    if (this.closed) return;
    let s: WatchedStatus;
    try {
      s = this.o.status();
    } catch {
      return;
    }
    this.mode = s.mode;
    const at = this.iso();
    const prev = this.seen ?? {
      ...s,
      killSwitch: { tripped: false, reason: null },
      circuitBreaker: { orderEntry: 'closed', marketData: 'closed' },
    };
    if (!this.startedSent && s.state === 'running') {
      this.startedSent = true;
      this.emit({ kind: 'daemon-started', at, mode: s.mode, strategy: s.strategy });
    }
    if (s.killSwitch.tripped !== prev.killSwitch.tripped) {
      this.emit(
        s.killSwitch.tripped
          ? { kind: 'kill-switch-tripped', at, reason: s.killSwitch.reason }
          : { kind: 'kill-switch-cleared', at },
      );
    }
    for (const [key, breaker] of [
      ['orderEntry', 'order entry'],
      ['marketData', 'market data'],
    ] as const) {
      const now = s.circuitBreaker[key];
      if (now !== prev.circuitBreaker[key])
        this.emit({ kind: now === 'open' ? 'circuit-opened' : 'circuit-closed', at, breaker });
    }
    this.seen = s;
  }

  /** Stops the watch, sends the last summary and "stopped", and waits (bounded) for them to go. */
  async close(boundMs = NOTIFY_CLOSE_BOUND_MS): Promise<void> {
    if (this.closed) return;
    if (this.check !== null) this.clock.clearInterval(this.check);
    if (this.summary !== null) this.clock.clearInterval(this.summary);
    this.check = null;
    this.summary = null;
    this.sendSummary();
    if (this.startedSent) this.emit({ kind: 'daemon-stopped', at: this.iso(), mode: this.mode });
    this.closed = true;
    await Promise.all(this.sinks.map((k) => k.close(boundMs)));
  }

  private sendSummary(): void {
    const now = this.clock.now();
    if (this.fills > 0) {
      const markets: FillsByMarket[] = [...this.byMarket]
        .sort((a, b) => b[1].fills - a[1].fills || a[0].localeCompare(b[0]))
        .map(([market, t]) => ({ market, fills: t.fills, bought: formatMicros(t.bought), sold: formatMicros(t.sold) }));
      this.emit({
        kind: 'fills-summary',
        at: new Date(now).toISOString(),
        fromAt: new Date(this.since).toISOString(),
        fills: this.fills,
        notional: formatMicros(this.notional),
        fees: formatMicros(this.fees),
        markets,
      });
    }
    this.fills = 0;
    this.notional = 0;
    this.fees = 0;
    this.byMarket = new Map();
    this.since = now;
  }

  private emit(e: NotifyEvent): void {
    if (this.closed) return;
    for (const k of this.sinks) k.offer(e);
  }

  private iso(): string {
    return new Date(this.clock.now()).toISOString();
  }
}
