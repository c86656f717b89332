// The daemon's logger: pino, JSON lines by default, a short readable line per record on a TTY
// (pino-pretty is not a dependency; `readableLine` below is the whole formatter). Secrets never
// reach a line, by three independent layers:
// 1. pino's `redact` over the known secret-bearing paths (credentials fields, the L2/L1 auth
//    headers of both dialects, Authorization-like headers), one and two levels deep;
// 2. a deep scrub of every logged object, child binding and serialised error: any key whose name
//    ends in secret, passphrase, private key, api key, signature, password, authorization or
//    cookie (case, `_` and `-` ignored: `SVC_PASSPHRASE`, `poly_signature`, `privateKey`) is
//    replaced at any depth, so a credentials object or a header map nested anywhere is covered;
// 3. the destination replaces every occurrence of the secret values it was given (the API secret,
//    passphrase, private key) in the finished line, which covers a secret quoted in a message or
//    an error text.
// Time comes from the injected Clock (house rule), not from pino's Date.now().
import pino, { type DestinationStream, type Level, type Logger } from 'pino';
import type { Clock } from '../core/clock.js';

export type { Logger };

export const REDACTED = '[redacted]';

/** Normalised key endings that mark a secret (lower case, only letters and digits). */
const SECRET_KEY_ENDINGS = [
  'secret',
  'passphrase',
  'privatekey',
  'apikey',
  'signature',
  'password',
  'authorization',
  'cookie',
];

/** Is a property of this name secret-bearing? */
export function isSecretKey(key: string): boolean {
  const k = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  for (const e of SECRET_KEY_ENDINGS) if (k.endsWith(e)) return true;
  return false;
}

const HEADER_SUFFIXES = ['SIGNATURE', 'PASSPHRASE', 'API_KEY'];
const PREFIXES = ['SVC_', 'POLY_'];
const headerNames = PREFIXES.flatMap((p) => HEADER_SUFFIXES.flatMap((s) => [`${p}${s}`, `${p}${s}`.toLowerCase()]));
const FIELDS = ['secret', 'passphrase', 'privateKey', 'apiKey', 'password', 'authorization', 'Authorization', 'cookie'];

/** The paths handed to pino's redact (layer 1). */
export const REDACT_PATHS: readonly string[] = [
  ...FIELDS,
  ...FIELDS.map((f) => `*.${f}`),
  ...['headers', 'req.headers', 'request.headers', '*.headers'].flatMap((h) => [
    ...headerNames.map((n) => `${h}.${n}`),
    `${h}.authorization`,
    `${h}.Authorization`,
    `${h}["proxy-authorization"]`,
    `${h}.cookie`,
  ]),
];

const MAX_DEPTH = 10;

/**
 * A copy of `value` with every secret-keyed property replaced (layer 2). Objects with toJSON
 * (dates, self-redacting credentials) are serialised through it first; cycles and depth beyond
 * MAX_DEPTH print as markers rather than recursing.
 */
export function scrub(value: unknown, depth = 0, seen: WeakSet<object> = new WeakSet()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[depth]';
  if (value instanceof Error) return scrubError(value, depth, seen);
  const withJson = value as { toJSON?: unknown };
  if (typeof withJson.toJSON === 'function') {
    const j: unknown = (withJson.toJSON as () => unknown).call(value);
    return j === value ? j : scrub(j, depth, seen);
  }
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1, seen));
    if (value instanceof Map) {
      const o: Record<string, unknown> = {};
      for (const [k, v] of value) o[String(k)] = isSecretKey(String(k)) ? REDACTED : scrub(v, depth + 1, seen);
      return o;
    }
    if (value instanceof Set) return [...value].map((v) => scrub(v, depth + 1, seen));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = isSecretKey(k) ? REDACTED : scrub(v, depth + 1, seen);
    return out;
  } finally {
    seen.delete(value);
  }
}

function scrubError(e: Error, depth: number, seen: WeakSet<object>): Record<string, unknown> {
  seen.add(e);
  try {
    const out: Record<string, unknown> = { type: e.name, message: e.message };
    if (e.stack !== undefined) out.stack = e.stack;
    for (const [k, v] of Object.entries(e)) out[k] = isSecretKey(k) ? REDACTED : scrub(v, depth + 1, seen);
    if (e.cause !== undefined) out.cause = scrub(e.cause, depth + 1, seen);
    return out;
  } finally {
    seen.delete(e);
  }
}

/** Replaces every occurrence of the given secret values in a finished line (layer 3). */
export function secretValueFilter(secrets: readonly string[]): (line: string) => string {
  // Short strings would censor ordinary text; real secrets here are 32+ characters.
  const forms = new Set<string>();
  for (const s of secrets) {
    if (typeof s !== 'string' || s.length < 8) continue;
    forms.add(s);
    forms.add(JSON.stringify(s).slice(1, -1));
  }
  const list = [...forms].sort((a, b) => b.length - a.length);
  if (list.length === 0) return (line) => line;
  return (line) => {
    let out = line;
    for (const s of list) if (out.includes(s)) out = out.split(s).join(REDACTED);
    return out;
  };
}

const LEVEL_NAMES: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const HIDDEN = new Set(['time', 'level', 'msg', 'pid', 'hostname']);

function showValue(v: unknown): string {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  return JSON.stringify(v) ?? String(v);
}

/**
 * One JSON log line → `HH:MM:SS.mmm LEVEL message key=value …` (UTC), with an error's stack on
 * the following lines. A line that is not JSON passes through unchanged.
 */
export function readableLine(json: string): string {
  let rec: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(json);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      return json.endsWith('\n') ? json : `${json}\n`;
    rec = parsed as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const time = typeof rec.time === 'number' ? new Date(rec.time).toISOString().slice(11, 23) : '--:--:--.---';
  const level = (typeof rec.level === 'number' ? LEVEL_NAMES[rec.level] : undefined) ?? String(rec.level);
  const parts = [time, level.padEnd(5), typeof rec.msg === 'string' ? rec.msg : ''];
  let stack = '';
  for (const [k, v] of Object.entries(rec)) {
    if (HIDDEN.has(k)) continue;
    if (k === 'err' && v !== null && typeof v === 'object') {
      const e = v as Record<string, unknown>;
      parts.push(`err=${showValue(`${String(e.type ?? 'Error')}: ${String(e.message ?? '')}`)}`);
      if (typeof e.stack === 'string')
        stack = `\n    ${e.stack
          .split('\n')
          .slice(1)
          .map((l) => l.trim())
          .join('\n    ')}`;
      continue;
    }
    parts.push(`${k}=${showValue(v)}`);
  }
  return `${parts.filter((p) => p !== '').join(' ')}${stack}\n`;
}

export interface LineSink {
  write(line: string): unknown;
}

export interface LoggerOptions {
  readonly clock: Clock;
  readonly level?: Level | 'silent';
  /** Readable lines instead of JSON. Default: whether stdout is a TTY. */
  readonly pretty?: boolean;
  /** Where lines go. Default: stdout. */
  readonly destination?: LineSink;
  /** Secret values to censor wherever they appear (API secret, passphrase, private key). */
  readonly secrets?: readonly string[];
  /** Fields on every line (default: pino's pid and hostname). */
  readonly base?: Record<string, unknown> | null;
  readonly name?: string;
}

/** Builds the daemon's logger (see the header for the redaction layers). */
export function createLogger(opts: LoggerOptions): Logger {
  const filter = secretValueFilter(opts.secrets ?? []);
  const pretty = opts.pretty ?? process.stdout.isTTY === true;
  const sink: LineSink = opts.destination ?? pino.destination({ dest: 1, sync: true });
  const stream: DestinationStream = {
    write(line: string): void {
      const clean = filter(line);
      sink.write(pretty ? readableLine(clean) : clean);
    },
  };
  const clock = opts.clock;
  return pino(
    {
      level: opts.level ?? 'info',
      ...(opts.name !== undefined ? { name: opts.name } : {}),
      ...(opts.base !== undefined ? { base: opts.base } : {}),
      timestamp: () => `,"time":${clock.now()}`,
      redact: { paths: [...REDACT_PATHS], censor: REDACTED },
      formatters: {
        log: (o: Record<string, unknown>) => scrub(o) as Record<string, unknown>,
        bindings: (b: pino.Bindings) => scrub(b) as pino.Bindings,
      },
      serializers: { err: (e: unknown) => scrub(e) },
    },
    stream,
  );
}

/** A logger that writes nothing (tests, benchmarks). */
export function silentLogger(clock: Clock): Logger {
  return createLogger({ clock, level: 'silent', destination: { write: () => undefined }, pretty: false });
}
