// The one HTTP call of the webhooks: a JSON POST with undici, bounded by a timeout (connect to the
// end of the answer's body), answering the status and a Retry-After in ms. It throws on a network
// failure or the timeout; the caller (sink.ts) decides about retries. The URL is a secret (it
// holds the webhook's token): nothing here puts it in an error message.
import { request } from 'undici';
import { OddsmakerError } from '../../core/errors.js';

export interface PostAnswer {
  readonly status: number;
  /** Retry-After of a 429 or 503, in ms; null when absent. */
  readonly retryAfterMs: number | null;
}

export type PostJson = (url: string, body: string, timeoutMs: number) => Promise<PostAnswer>;

/** A webhook request failed before an answer (network, timeout); the message never holds the URL. */
export class WebhookSendError extends OddsmakerError {
  constructor(message: string) {
    super('NOTIFY_SEND', message, true);
  }
}

function retryAfter(v: string | string[] | undefined): number | null {
  const s = Array.isArray(v) ? v[0] : v;
  if (s === undefined) return null;
  const n = Number(s);
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 1_000) : null;
}

export const postJson: PostJson = async (url, body, timeoutMs) => {
  const ac = new AbortController();
  const timer = setTimeout(() => {
    ac.abort();
  }, timeoutMs); // an I/O bound, not domain time
  try {
    const res = await request(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: ac.signal,
    });
    await res.body.dump();
    return { status: res.statusCode, retryAfterMs: retryAfter(res.headers['retry-after']) };
  } catch (err) {
    const code =
      typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';
    throw new WebhookSendError(
      ac.signal.aborted ? `no answer within ${timeoutMs} ms` : `request failed${code === '' ? '' : ` (${code})`}`,
    );
  } finally {
    clearTimeout(timer);
  }
};
