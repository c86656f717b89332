// Connecting the limiter's own Redis client: the ioredis options, chosen for a limiter that must
// fail closed, and the bounded start-up connect. A Redis the config names but that cannot be
// reached fails the start within `connectTimeoutMs` with one message naming the settings and the
// address (password redacted), never hangs, never leaves a reconnecting client behind and never
// lets ioredis print an unhandled 'error' event.
//
// The start-up connect keeps trying (ioredis' reconnects, below) until the deadline, so a Redis
// that is still starting next to the daemon is waited for, a few seconds at most; an
// authentication refusal fails at once (waiting will not fix it). An abort signal (SIGTERM during
// start-up) ends the attempt at once.
import { Redis, type RedisOptions } from 'ioredis';
import { redactUrl, urlPassword } from '../core/redact-url.js';
import { RateLimitBackendError } from './errors.js';

export interface RedisConnectOptions {
  readonly url: string;
  /** Bound of the whole start-up connect (and of each TCP connect attempt), ms. */
  readonly connectTimeoutMs: number;
  /** Bound of each command once running (a hung Redis fails admissions instead of stalling them), ms. */
  readonly commandTimeoutMs: number;
  /** Aborts the start-up connect (the CLI's SIGTERM). */
  readonly signal?: AbortSignal;
  /** The config path of the backend section, for messages (default `rateLimit.backend`). */
  readonly settingPath?: string;
}

/** The longest pause between two reconnect attempts while running, ms. */
export const RECONNECT_MAX_DELAY_MS = 1000;

/**
 * ioredis options, each chosen deliberately:
 * - lazyConnect: the connect is ours, under our deadline and abort signal (see connectRedis);
 * - connectTimeout: a TCP connect to a black-holed address gives up instead of waiting for the
 *   kernel's minutes-long SYN retries;
 * - commandTimeout: a Redis that accepts but does not answer (overloaded, stopped) fails the
 *   admission with RATE_LIMIT_STORE after a bound rather than stalling every request behind it;
 * - enableOfflineQueue false: a command while disconnected fails at once instead of being queued
 *   until a reconnect that may never come; the limiter refuses (fails closed) and never admits
 *   later with the `now` it computed earlier (a late admission recorded at an earlier time would
 *   leave its window early and let the budget be overrun);
 * - maxRetriesPerRequest 0 and autoResendUnfulfilledCommands false: for the same reason a command
 *   in flight when the connection breaks fails, and is never replayed on the next connection (an
 *   admission that may have been recorded is not refunded: spent budget, not an overrun);
 * - retryStrategy: reconnect forever with a short capped back-off (100 ms more per attempt, at
 *   most RECONNECT_MAX_DELAY_MS), so quoting resumes within about a second of Redis coming back;
 *   the start-up deadline and close() (disconnect) are what stop the attempts;
 * - disconnectTimeout: disconnect() is used only on a connection that is dead or hung (a live one
 *   is quit()), whose socket may never close by itself; ioredis' 2 s default timer would keep a
 *   failed start-up alive that long after its message.
 */
export function redisClientOptions(
  o: Pick<RedisConnectOptions, 'connectTimeoutMs' | 'commandTimeoutMs'>,
): RedisOptions {
  return {
    lazyConnect: true,
    connectTimeout: o.connectTimeoutMs,
    commandTimeout: o.commandTimeoutMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (times: number) => Math.min(100 * times, RECONNECT_MAX_DELAY_MS),
    disconnectTimeout: 100,
  };
}

const AUTH_REFUSED = /NOAUTH|WRONGPASS|invalid (username-)?password|AUTH failed/i;

/**
 * A ready client, or RateLimitBackendError after `connectTimeoutMs` (or at once on an
 * authentication refusal or an abort). The client always has an 'error' listener.
 */
export async function connectRedis(o: RedisConnectOptions): Promise<Redis> {
  const at = o.settingPath ?? 'rateLimit.backend';
  const shown = redactUrl(o.url);
  const password = urlPassword(o.url);
  const scrub = (m: string): string => (password === '' ? m : m.split(password).join('***'));
  const redis = new Redis(o.url, redisClientOptions(o));
  // Always listened to: connection errors are reported through the limiter's health, never as an
  // "[ioredis] Unhandled error event" on stderr.
  let lastErr = '';
  let failNow: ((e: RateLimitBackendError) => void) | null = null;
  redis.on('error', (err: unknown) => {
    lastErr = scrub(err instanceof Error ? err.message : String(err));
    if (AUTH_REFUSED.test(lastErr))
      failNow?.(
        new RateLimitBackendError(`rate limiter: Redis at ${shown} (${at}.url) refused the credentials: ${lastErr}`),
      );
  });
  let connected = false;
  redis.on('connect', () => {
    connected = true;
  });
  if (o.signal?.aborted === true) {
    redis.disconnect();
    throw aborted(shown);
  }
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      failNow = reject;
      redis.once('ready', () => resolve());
      timer = setTimeout(() => {
        reject(
          new RateLimitBackendError(
            `rate limiter: Redis at ${shown} (${at}.url) not reachable within ${o.connectTimeoutMs} ms (${at}.connectTimeoutMs)` +
              (lastErr !== '' ? `: ${lastErr}` : connected ? ': connected, but no Redis reply' : ''),
          ),
        );
      }, o.connectTimeoutMs);
      onAbort = () => {
        reject(aborted(shown));
      };
      o.signal?.addEventListener('abort', onAbort, { once: true });
      // Its rejection is the first failed attempt; ioredis goes on reconnecting until the deadline.
      redis.connect().catch(() => undefined);
    });
  } catch (err) {
    redis.disconnect(); // stops the reconnect attempts: nothing keeps the process alive
    throw err;
  } finally {
    failNow = null;
    clearTimeout(timer);
    if (onAbort !== undefined) o.signal?.removeEventListener('abort', onAbort);
  }
  return redis;
}

/** True for the error connectRedis throws when its signal aborted the connect. */
export function isAbortedConnect(err: unknown): boolean {
  return err instanceof RateLimitBackendError && err.aborted;
}

function aborted(shown: string): RateLimitBackendError {
  const e = new RateLimitBackendError(`rate limiter: start-up aborted while connecting to Redis at ${shown}`);
  e.aborted = true;
  return e;
}
