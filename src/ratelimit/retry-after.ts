// Parses a 429's Retry-After header into milliseconds for limiter.onThrottled: delta-seconds
// (RFC 9110; a decimal fraction is accepted, some servers send one) or an HTTP-date relative to
// the caller's clock. Anything else is null, and the limiter then uses its default pause.

/** Milliseconds to wait, or null when the header is absent or unusable. Never negative. */
export function parseRetryAfterMs(
  header: string | readonly string[] | null | undefined,
  nowEpochMs: number,
): number | null {
  const v = Array.isArray(header) ? header[0] : header;
  if (typeof v !== 'string') return null;
  const s = v.trim();
  const m = /^(\d{1,9})(?:\.(\d{1,3})\d*)?$/.exec(s);
  if (m !== null) {
    const whole = Number.parseInt(m[1] as string, 10);
    const frac = m[2] === undefined ? 0 : Number.parseInt(m[2].padEnd(3, '0'), 10);
    return whole * 1000 + frac;
  }
  // An HTTP-date names a weekday and GMT; require both so that bare numbers-with-junk are refused.
  if (/^[A-Za-z]{3},\s/.test(s) && /GMT$/.test(s)) {
    const at = Date.parse(s);
    if (Number.isFinite(at)) return Math.max(0, at - nowEpochMs);
  }
  return null;
}
