// Fault injection for testing clients: a configurable fraction of requests is answered 500, 503 or
// 425, with an HTML page instead of JSON, or after a delay. Invariants kept here:
// - the draws come from a seeded generator (one uniform draw per request), so a run with the same
//   seed and the same sequence of requests injects the same faults;
// - fractions are in [0, 1] and sum to at most 1; a fault answer is decided before the route runs,
//   so an injected 500/503/425 never reaches the engine (a client still has to treat 500 as
//   ambiguous: a real exchange may fail after acting);
// - delays wait on the injected Clock; the `/_sim/` routes are never faulted (tests steer through
//   them).
import type { Clock } from '../../core/clock.js';
import { Rng, type Seed } from '../world/index.js';
import { OptionError } from '../../core/errors.js';

export interface FaultConfig {
  /** Fractions of requests answered with each fault. */
  readonly error500: number;
  readonly error503: number;
  readonly error425: number;
  readonly html: number;
  readonly delay: number;
  /** How long a delayed request waits before it is served. */
  readonly delayMs: number;
}

export const NO_FAULTS: FaultConfig = Object.freeze({
  error500: 0,
  error503: 0,
  error425: 0,
  html: 0,
  delay: 0,
  delayMs: 1000,
});

export type FaultKind = 'none' | '500' | '503' | '425' | 'html' | 'delay';

/** A fault setting is unknown or out of range (`--faults`: exit 2; POST /_sim/faults: 400). */
export class FaultConfigError extends OptionError {
  constructor(message: string) {
    super('SIM_FAULT_CONFIG', message);
  }
}

const KEYS: readonly (keyof FaultConfig)[] = ['error500', 'error503', 'error425', 'html', 'delay', 'delayMs'];

/** Validates a partial config over NO_FAULTS (an unknown key is an error: a typo would silently do nothing). */
export function faultConfig(input: Partial<FaultConfig>): FaultConfig {
  for (const k of Object.keys(input)) {
    if (!(KEYS as readonly string[]).includes(k))
      throw new FaultConfigError(`unknown fault setting ${JSON.stringify(k)}: expected ${KEYS.join(', ')}`);
  }
  const c: FaultConfig = { ...NO_FAULTS, ...input };
  let sum = 0;
  for (const k of ['error500', 'error503', 'error425', 'html', 'delay'] as const) {
    const v = c[k];
    if (typeof v !== 'number' || !(v >= 0 && v <= 1))
      throw new FaultConfigError(`fault fraction ${k} must be in [0, 1], got ${String(v)}`);
    sum += v;
  }
  if (sum > 1 + 1e-12) throw new FaultConfigError(`fault fractions sum to ${sum}, more than 1`);
  if (!Number.isSafeInteger(c.delayMs) || c.delayMs < 0)
    throw new FaultConfigError(`delayMs must be a non-negative integer, got ${String(c.delayMs)}`);
  return Object.freeze(c);
}

const SPEC_KEYS: Readonly<Record<string, keyof FaultConfig>> = {
  '500': 'error500',
  '503': 'error503',
  '425': 'error425',
  html: 'html',
  delay: 'delay',
  delay_ms: 'delayMs',
};

/** Parses the CLI form `500=0.01,503=0.01,425=0.005,html=0.01,delay=0.02,delay_ms=1500`. */
export function parseFaultSpec(spec: string): FaultConfig {
  const out: Record<string, number> = {};
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')) {
    const m = /^([a-z0-9_]+)=([0-9]+(?:\.[0-9]+)?)$/.exec(part);
    const key = m === null ? undefined : SPEC_KEYS[m[1] as string];
    if (m === null || key === undefined) {
      throw new FaultConfigError(
        `bad fault item ${JSON.stringify(part)}: expected one of ${Object.keys(SPEC_KEYS).join(', ')} = a number`,
      );
    }
    out[key] = Number(m[2]);
  }
  return faultConfig(out);
}

export const HTML_FAULT_PAGE =
  '<!DOCTYPE html><html><head><title>503 Service Temporarily Unavailable</title></head>' +
  '<body><center><h1>503 Service Temporarily Unavailable</h1></center><hr><center>oddsmaker-sim (injected fault)</center></body></html>';

export class FaultInjector {
  private config: FaultConfig;
  private readonly rng: Rng;
  readonly counts: Record<FaultKind, number> = { none: 0, '500': 0, '503': 0, '425': 0, html: 0, delay: 0 };

  constructor(
    config: FaultConfig,
    seed: Seed,
    private readonly clock: Clock,
  ) {
    this.config = faultConfig(config);
    this.rng = new Rng(seed).fork('faults');
  }

  get current(): FaultConfig {
    return this.config;
  }

  set(config: Partial<FaultConfig>): void {
    this.config = faultConfig(config);
  }

  get active(): boolean {
    const c = this.config;
    return c.error500 + c.error503 + c.error425 + c.html + c.delay > 0;
  }

  /** One draw: which fault (if any) this request gets. */
  decide(): FaultKind {
    if (!this.active) return 'none';
    const c = this.config;
    const u = this.rng.float();
    let acc = 0;
    let kind: FaultKind = 'none';
    for (const [k, f] of [
      ['500', c.error500],
      ['503', c.error503],
      ['425', c.error425],
      ['html', c.html],
      ['delay', c.delay],
    ] as const) {
      acc += f;
      if (u < acc) {
        kind = k;
        break;
      }
    }
    this.counts[kind]++;
    return kind;
  }

  sleep(): Promise<void> {
    return this.clock.sleep(this.config.delayMs);
  }
}
