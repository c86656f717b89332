// One webhook: a bounded queue of events, sent one at a time in order, each with retries. The
// daemon only ever calls offer(), which returns at once: sending never blocks trading.
// Invariants kept:
// - the queue holds at most `queueCap` messages; a new one past it drops the oldest waiting, counted
//   (onDropped: oddsmaker_notify_dropped_total) and logged at most once per burst;
// - a message is retried on a network failure, a timeout, 408, 429 and 5xx, with full-jitter
//   backoff (src/core/backoff.ts; a Retry-After is a floor), up to `maxAttempts` attempts; any
//   other answer is final (a 4xx will not get better). A message that fails is counted and
//   logged, and the next one is sent;
// - the URL is logged only redacted (core/redact-url.ts redactUrlPath): scheme and host, never its path or query (they hold the
//   webhook's token: Slack's /services/..., Discord's /api/webhooks/<id>/<token>, Telegram's
//   /bot<token>/);
// - waits come from the injected Clock.
import { backoffDelay, type BackoffPolicy } from '../../core/backoff.js';
import type { Clock } from '../../core/clock.js';
import { redactUrlPath } from '../../core/redact-url.js';
import type { NotifyEvent, NotifyEventKind } from './events.js';
import { webhookBody, type WebhookFormat } from './format.js';
import type { PostJson } from './post.js';

export interface SinkLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface WebhookSinkOptions {
  readonly url: string;
  readonly format: WebhookFormat;
  /** The events sent; absent: all. */
  readonly events?: readonly NotifyEventKind[];
  readonly chatId?: string | number;
  /** The daemon's name in the messages. */
  readonly daemon: string;
  readonly clock: Clock;
  readonly post: PostJson;
  readonly random: () => number;
  readonly log: SinkLogger;
  readonly timeoutMs: number;
  readonly maxAttempts: number;
  readonly queueCap: number;
  readonly onDropped?: () => void;
  readonly onFailed?: () => void;
  readonly onSent?: () => void;
}

const BASE_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;
/** A Retry-After beyond this is not waited out (the message fails). */
const MAX_RETRY_AFTER_MS = 60_000;

const retryable = (status: number): boolean => status === 408 || status === 429 || status >= 500;

export class WebhookSink {
  readonly target: string;
  private readonly queue: NotifyEvent[] = [];
  private readonly wanted: ReadonlySet<NotifyEventKind> | null;
  private readonly policy: BackoffPolicy;
  private sending: Promise<void> | null = null;
  private droppedInBurst = 0;
  private closed = false;
  private readonly abort = new AbortController();
  dropped = 0;
  failed = 0;
  sent = 0;

  constructor(private readonly o: WebhookSinkOptions) {
    this.target = redactUrlPath(o.url);
    this.wanted = o.events === undefined ? null : new Set(o.events);
    this.policy = {
      maxAttempts: o.maxAttempts,
      baseDelayMs: BASE_DELAY_MS,
      maxDelayMs: MAX_DELAY_MS,
      maxRetryAfterMs: MAX_RETRY_AFTER_MS,
    };
  }

  /** Queues an event this webhook wants; never waits. */
  offer(e: NotifyEvent): void {
    if (this.closed || (this.wanted !== null && !this.wanted.has(e.kind))) return;
    this.queue.push(e);
    if (this.queue.length > this.o.queueCap) {
      // The first message is on the wire while a send runs: the oldest one still waiting goes.
      this.queue.splice(this.sending !== null && this.queue.length > 1 ? 1 : 0, 1);
      this.dropped += 1;
      this.droppedInBurst += 1;
      this.o.onDropped?.();
      if (this.droppedInBurst === 1)
        this.o.log.warn(
          { webhook: this.target, cap: this.o.queueCap },
          'webhook queue full: dropping the oldest messages',
        );
    }
    this.sending ??= this.pump().finally(() => {
      this.sending = null;
    });
  }

  /** Messages waiting (the one being sent included). */
  get pending(): number {
    return this.queue.length;
  }

  /** Resolves once the queue is empty or `boundMs` passed; then nothing more is sent or retried. */
  async close(boundMs: number): Promise<void> {
    this.closed = true;
    const running = this.sending;
    if (running !== null) {
      let timer: ReturnType<Clock['setTimeout']> | undefined;
      const bound = new Promise<void>((res) => {
        timer = this.o.clock.setTimeout(res, boundMs);
      });
      await Promise.race([running, bound]);
      if (timer !== undefined) this.o.clock.clearTimeout(timer);
    }
    this.abort.abort();
    if (this.queue.length > 0) {
      this.o.log.warn({ webhook: this.target, unsent: this.queue.length }, 'webhook messages not sent before shutdown');
      this.queue.length = 0;
    }
  }

  private async pump(): Promise<void> {
    while (this.queue.length > 0 && !this.abort.signal.aborted) {
      const e = this.queue[0] as NotifyEvent;
      await this.deliver(e);
      // The message may have been dropped meanwhile (queue full): remove it only if still first.
      if (this.queue[0] === e) this.queue.shift();
      if (this.queue.length === 0) this.droppedInBurst = 0;
    }
  }

  private async deliver(e: NotifyEvent): Promise<void> {
    const body = JSON.stringify(webhookBody(this.o.format, e, this.o.daemon, this.o.chatId));
    let last = '';
    for (let attempt = 1; attempt <= this.policy.maxAttempts; attempt++) {
      let retryAfterMs: number | null = null;
      try {
        const a = await this.o.post(this.o.url, body, this.o.timeoutMs);
        if (a.status >= 200 && a.status < 300) {
          this.sent += 1;
          this.o.onSent?.();
          return;
        }
        last = `answered ${a.status}`;
        if (!retryable(a.status)) break;
        retryAfterMs = a.retryAfterMs;
        if (retryAfterMs !== null && retryAfterMs > this.policy.maxRetryAfterMs) break;
      } catch (err) {
        last = err instanceof Error ? err.message : String(err);
      }
      if (attempt === this.policy.maxAttempts) break;
      try {
        await this.o.clock.sleep(backoffDelay(this.policy, attempt, this.o.random, retryAfterMs), this.abort.signal);
      } catch {
        break; // closed while waiting
      }
    }
    this.failed += 1;
    this.o.onFailed?.();
    this.o.log.warn({ webhook: this.target, event: e.kind, error: last }, 'webhook message not delivered');
  }
}
