// The shared window store of the Redis-backed limiter: one sorted set per window (member = a
// unique send id, score = send time in ms), checked and updated by one Lua script, so that every
// window of a route is checked and recorded in a single atomic step across all processes that
// share the key prefix (several daemons behind one API key).
//
// Semantics are those of SlidingWindowLog: a send counts while now − t < span (= window + margin);
// a request of cost c fits iff every window holds ≤ limit − c − reserved sends, where `reserved`
// is room this process holds for its own earlier, higher-priority waiters. Nothing is refunded;
// sets expire (PEXPIRE span + 60 s) only to collect garbage. A 429 pause is a key holding the
// pause's end time, checked by the same script, so one process's 429 pauses every process.
//
// A per-signer token bucket (signer-budget.ts), when the route has one, is a hash {b: millitokens,
// at: ms} checked and charged by the same admission script, so windows and bucket admit together or
// not at all, across processes; refill is computed from the elapsed ms in the script (integers,
// exact in Lua's doubles), a clock behind the stored `at` refills nothing.
//
// Time: `now` is the caller's clock (epoch ms, integer) or, with timeSource 'server', Redis TIME
// read inside the script, one time base for every host. Every process sharing a prefix must use
// the same budget table and the same time source.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimitStoreError } from './errors.js';

export interface RedisWindowKey {
  readonly key: string;
  readonly limit: number;
  readonly windowMs: number;
  /** windowMs + margin. */
  readonly spanMs: number;
}

export interface RedisPlanKeys {
  readonly windows: readonly RedisWindowKey[];
  /** Pause keys of every bucket the route counts in. */
  readonly pauseKeys: readonly string[];
  /** The per-signer bucket's hash key, when the route draws from one. */
  readonly signerKey?: string | undefined;
}

/** One admission's per-signer part (tokens; rate in tokens/s). */
export interface SignerAdmitArgs {
  /** Tokens that must be there (beyond `held`). */
  readonly need: number;
  /** Tokens spent when admitted (≥ need: a post-charged cancel-all overdraws). */
  readonly charge: number;
  /** Tokens held for this process's earlier waiters. */
  readonly held: number;
  readonly rate: number;
  readonly capacity: number;
}

export type AdmitResult =
  | { readonly admitted: true; readonly at: number }
  | { readonly admitted: false; readonly waitMs: number; readonly at: number };

// Every script's first lines: `now` from ARGV[1], or Redis TIME in ms when it is '' (one time
// base for every host sharing the budget).
const NOW_LUA = `local now = tonumber(ARGV[1])
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;

// The refill of a signer bucket hash up to `now`: sets sbal (millitokens) and sat, locals the script declares.
const SIGNER_REFILL_LUA = `local sh = redis.call('HMGET', skey, 'b', 'at')
sbal = tonumber(sh[1])
sat = tonumber(sh[2])
if sbal == nil or sat == nil then sbal = scap * 1000; sat = now end
if now > sat then
  sbal = sbal + (now - sat) * srate
  sat = now
end
if sbal > scap * 1000 then sbal = scap * 1000 end
`;

// KEYS: window sets (nwin), then pause keys, then the signer bucket's hash when nsig = 1.
// ARGV: now ('' = server TIME), cost, member, dry (1 = only compute the wait), nwin,
//       then per window: limit, span, reserved; then nsig (0|1) and, when 1: need, charge, held,
//       rate, capacity (tokens, tokens/s).
// Returns {admitted 0|1, wait ms, now}.
const ADMIT_LUA = `
${NOW_LUA}local cost = tonumber(ARGV[2])
local member = ARGV[3]
local dry = ARGV[4] == '1'
local nwin = tonumber(ARGV[5])
local nsig = tonumber(ARGV[5 + nwin * 3 + 1] or '0') or 0
local wait = 0
for i = nwin + 1, #KEYS - nsig do
  local untilv = tonumber(redis.call('GET', KEYS[i]) or '0') or 0
  if untilv - now > wait then wait = untilv - now end
end
for i = 1, nwin do
  local base = 5 + (i - 1) * 3
  local limit = tonumber(ARGV[base + 1])
  local span = tonumber(ARGV[base + 2])
  local reserved = tonumber(ARGV[base + 3])
  local key = KEYS[i]
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - span)
  local count = redis.call('ZCARD', key)
  local slot = reserved + cost
  if count + slot > limit then
    -- Slots past one window's worth chain whole spans (a lower bound, as in SlidingWindowLog).
    local spans = 0
    while slot > limit do slot = slot - limit; spans = spans + 1 end
    local w = spans * span
    local over = count + slot - limit
    if over > 0 then
      local e = redis.call('ZRANGE', key, over - 1, over - 1, 'WITHSCORES')
      w = w + tonumber(e[2]) + span - now
    end
    if w > wait then wait = w end
  end
end
local skey, scharge, srate, scap, sbal, sat
if nsig == 1 then
  local sb = 5 + nwin * 3 + 1
  local sneed = tonumber(ARGV[sb + 1])
  scharge = tonumber(ARGV[sb + 2])
  local sheld = tonumber(ARGV[sb + 3])
  srate = tonumber(ARGV[sb + 4])
  scap = tonumber(ARGV[sb + 5])
  skey = KEYS[#KEYS]
  ${SIGNER_REFILL_LUA}  local want = (sneed + sheld) * 1000
  if sbal < want then
    local w = math.ceil((want - sbal) / srate)
    if w > wait then wait = w end
  end
end
if wait > 0 or dry then return {0, math.ceil(wait), now} end
for i = 1, nwin do
  local span = tonumber(ARGV[5 + (i - 1) * 3 + 2])
  for j = 1, cost do redis.call('ZADD', KEYS[i], now, member .. ':' .. j) end
  redis.call('PEXPIRE', KEYS[i], math.ceil(span) + 60000)
end
if nsig == 1 then
  redis.call('HSET', skey, 'b', sbal - scharge * 1000, 'at', sat)
  redis.call('PEXPIRE', skey, math.ceil(scap * 1000 / srate) + 3600000)
end
return {1, 0, now}
`;

// KEYS: the signer bucket's hash. ARGV: now ('' = server TIME), tokens (the most it may hold now),
// rate, capacity. Lowers the balance to at most tokens (never raises it). Returns now.
const CAP_LUA = `
${NOW_LUA}local skey = KEYS[1]
local sbal, sat
local srate = tonumber(ARGV[3])
local scap = tonumber(ARGV[4])
${SIGNER_REFILL_LUA}local m = tonumber(ARGV[2]) * 1000
if m < sbal then sbal = m end
redis.call('HSET', skey, 'b', sbal, 'at', sat)
redis.call('PEXPIRE', skey, math.ceil(scap * 1000 / srate) + 3600000)
return now
`;

// KEYS: pause keys. ARGV: now ('' = server TIME), pause ms. Keeps the later end.
const PAUSE_LUA = `
${NOW_LUA}local untilv = now + tonumber(ARGV[2])
for i = 1, #KEYS do
  local cur = tonumber(redis.call('GET', KEYS[i]) or '0') or 0
  if untilv > cur then
    redis.call('SET', KEYS[i], tostring(untilv), 'PX', math.ceil(tonumber(ARGV[2])) + 60000)
  end
end
return now
`;

// KEYS: window sets (nwin), then pause keys. ARGV: now, nwin, spans... Returns {now, pause ms, counts...}.
const COUNT_LUA = `
${NOW_LUA}local nwin = tonumber(ARGV[2])
local pause = 0
for i = nwin + 1, #KEYS do
  local untilv = tonumber(redis.call('GET', KEYS[i]) or '0') or 0
  if untilv - now > pause then pause = untilv - now end
end
local out = {now, math.ceil(pause)}
for i = 1, nwin do
  out[#out + 1] = redis.call('ZCOUNT', KEYS[i], '(' .. (now - tonumber(ARGV[2 + i])), '+inf')
end
return out
`;

class Script {
  readonly sha: string;
  constructor(readonly lua: string) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }
}

const ADMIT = new Script(ADMIT_LUA);
const PAUSE = new Script(PAUSE_LUA);
const COUNT = new Script(COUNT_LUA);
const CAP = new Script(CAP_LUA);

export class RedisWindowStore {
  private readonly redis: Redis;

  constructor(redis: Redis) {
    this.redis = redis;
  }

  /**
   * Atomically: if every window has room for `cost` beyond `reserved[i]` and no bucket is
   * paused, record the send in every window and return admitted; otherwise return the wait.
   * `now` null uses Redis TIME. With `dry`, never records (a prediction).
   */
  async admit(
    plan: RedisPlanKeys,
    cost: number,
    reserved: readonly number[],
    now: number | null,
    member: string,
    dry = false,
    signer: SignerAdmitArgs | null = null,
  ): Promise<AdmitResult> {
    const argv: (string | number)[] = [now === null ? '' : now, cost, member, dry ? '1' : '0', plan.windows.length];
    plan.windows.forEach((w, i) => {
      argv.push(w.limit, w.spanMs, reserved[i] ?? 0);
    });
    const keys = [...plan.windows.map((w) => w.key), ...plan.pauseKeys];
    if (signer !== null && plan.signerKey !== undefined) {
      argv.push(1, signer.need, signer.charge, signer.held, signer.rate, signer.capacity);
      keys.push(plan.signerKey);
    } else {
      argv.push(0);
    }
    const r = (await this.run(ADMIT, keys, argv)) as [number, number, number];
    return r[0] === 1
      ? { admitted: true, at: Number(r[2]) }
      : { admitted: false, waitMs: Number(r[1]), at: Number(r[2]) };
  }

  /** Lowers a signer bucket's balance to at most `tokens` (the exchange reported less). */
  async capSigner(key: string, tokens: number, rate: number, capacity: number, now: number | null): Promise<void> {
    await this.run(CAP, [key], [now === null ? '' : now, Math.floor(tokens), rate, capacity]);
  }

  /** Pauses the buckets behind `pauseKeys` for `ms` from now (keeps a later existing end). */
  async pause(pauseKeys: readonly string[], ms: number, now: number | null): Promise<void> {
    if (pauseKeys.length === 0) return;
    await this.run(PAUSE, pauseKeys, [now === null ? '' : now, Math.max(0, Math.ceil(ms))]);
  }

  /** Sends that count now in each window, and the remaining pause. */
  async counts(
    plan: RedisPlanKeys,
    now: number | null,
  ): Promise<{ now: number; pausedForMs: number; counts: number[] }> {
    const keys = [...plan.windows.map((w) => w.key), ...plan.pauseKeys];
    const argv: (string | number)[] = [
      now === null ? '' : now,
      plan.windows.length,
      ...plan.windows.map((w) => w.spanMs),
    ];
    const r = (await this.run(COUNT, keys, argv)) as number[];
    return { now: Number(r[0]), pausedForMs: Number(r[1]), counts: r.slice(2).map(Number) };
  }

  /** EVALSHA, loading the script once on NOSCRIPT (after a server restart or on a new server). */
  private async run(script: Script, keys: readonly string[], argv: readonly (string | number)[]): Promise<unknown> {
    try {
      try {
        return await this.redis.evalsha(script.sha, keys.length, ...keys, ...argv);
      } catch (err) {
        if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
        await this.redis.script('LOAD', script.lua);
        return await this.redis.evalsha(script.sha, keys.length, ...keys, ...argv);
      }
    } catch (err) {
      throw new RateLimitStoreError(
        `rate-limit store failed: ${err instanceof Error ? err.message : String(err)}`,
        err,
      );
    }
  }
}
