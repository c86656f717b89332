// Parses the Retry-After header (RFC 9110 §10.2.3): delay-seconds or an HTTP date. Invariants:
// the result is whole non-negative milliseconds or null (absent or unreadable header); a date in
// the past is 0; the date is compared with the injected clock's wall time, never Date.now().

const SECONDS_RE = /^\s*(\d{1,9})(?:\.(\d{1,3})\d*)?\s*$/;

export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return null;
  const m = SECONDS_RE.exec(v);
  if (m !== null) {
    // Integer arithmetic on the digits: "1.5" → 1500 without a float detour.
    const whole = Number(m[1]);
    const frac = Number((m[2] ?? '').padEnd(3, '0'));
    return whole * 1000 + frac;
  }
  // An HTTP date names its day and month in letters; bare numbers ("-5") are not dates.
  if (!/[a-z]{3}/i.test(v)) return null;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}
