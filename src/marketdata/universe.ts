// The market universe: which markets and tokens the daemon polls and quotes, resolved from config
// (`markets`) and refreshed on a schedule (refresh-scheduler.ts). Three sources, by precedence:
// - explicit condition ids: GET /clob-markets/{id} gives the settings and both tokens;
// - explicit token ids: POST /books names each token's market (the book's `market`), whose
//   settings then come from /clob-markets; only the listed tokens are quoted, but each keeps its
//   complement's id so that risk nets the pair as one market;
// - otherwise a selector over /sampling-markets: active (and not closed or archived), accepting
//   orders (with an order book), any of the given tags (case-insensitive), paying rewards, at
//   most `max` markets, in the exchange's listing order (paging stops once `max` are found).
// Invariants kept: a token belongs to one market; explicit ids that the exchange does not know
// fail the resolution with an error naming them (never silently dropped); a failed refresh keeps
// the previous universe (the caller logs it); a market that leaves the universe is reported in the
// diff, and since its tokens leave the desired set, the next reconcile cancels its quotes.
// /clob-markets carries no question or end date, and the accepting flag (`ao`) only on the public
// exchange and not always: explicit markets get question "", no end date, and acceptingOrders true
// when `ao` is absent (the exchange refuses orders on a closed market, and such refusals are values
// the order manager handles). The sampling records' interface-only fields (status, event, ...) are
// never read here, so the public exchange's plain records select the same way.
// Fees: with a `feeSchedule` (the dialect's Dialect.fees), every market's settings carry the fee
// model its fills are charged by (`settings.fees`, src/core/fees.ts). 'fee-details' (the public
// exchange) charges by `fd` of GET /clob-markets, which the sampling records lack: each market the
// selector keeps is read there once per resolution (a failed read leaves `fees: null`, unknown,
// which the fill tracker books as 0 and reports); 'base-bps' and no schedule leave `fees` absent
// (the base fees of the settings).
import { feeModelOf, type FeeSchedule } from '../core/fees.js';
import { settingsFromMarket, type MarketSettings } from '../core/market-settings.js';
import type { ClobMarketSettings, SamplingMarket } from '../core/market.js';
import { OddsmakerError, StoppedError } from '../core/errors.js';
import type { MarketDataPort } from '../exchange/gateway.js';
import type { RefreshScheduler } from './refresh-scheduler.js';
import type { UniverseMarket, UniverseToken } from './types.js';

export interface SelectorSpec {
  readonly active: boolean;
  readonly acceptingOrders: boolean;
  readonly tags: readonly string[];
  readonly rewardsOnly: boolean;
  readonly max: number;
}

/** The `markets` section of the config, as far as resolution needs it. */
export interface UniverseSpec {
  readonly tokens: readonly string[];
  readonly conditions: readonly string[];
  readonly selector: SelectorSpec;
}

export type UniversePort = Pick<MarketDataPort, 'getBooks' | 'samplingMarkets' | 'getMarketSettings'>;

export class UniverseError extends OddsmakerError {
  constructor(code: 'UNIVERSE_UNKNOWN_TOKEN' | 'UNIVERSE_BAD_MARKET', message: string) {
    super(code, message, false);
  }
}

export interface UniverseDiff {
  readonly added: readonly UniverseMarket[];
  readonly removed: readonly UniverseMarket[];
  /** Markets that stayed but whose quoted tokens changed. */
  readonly changed: readonly UniverseMarket[];
  readonly markets: readonly UniverseMarket[];
}

/**
 * Settings of a market known only through GET /clob-markets (see the header for the defaults). The
 * public exchange requires none of that answer's keys: a market without a tick (`mts`) or minimum
 * size (`mos`) cannot be quoted and fails with UNIVERSE_BAD_MARKET naming the key; absent base fees
 * (`mbf`, `tbf`) are no base fee, as the official v2 client reads absent fee fields as 0
 * (Polymarket/clob-client-v2 src/client.ts@f3e1a05 getClobMarketInfo); an absent `ao` is taken as
 * accepting (see the header); rewards are known only in the interface's `r` shape (the public one
 * carries no daily rate).
 */
export function settingsFromClob(s: ClobMarketSettings): MarketSettings {
  if (s.tickSize === null)
    throw new UniverseError(
      'UNIVERSE_BAD_MARKET',
      `market ${s.conditionId}: GET /clob-markets sent no tick size (mts)`,
    );
  if (s.minOrderSize === null)
    throw new UniverseError(
      'UNIVERSE_BAD_MARKET',
      `market ${s.conditionId}: GET /clob-markets sent no minimum order size (mos)`,
    );
  return {
    conditionId: s.conditionId,
    question: '',
    tickSize: s.tickSize,
    minOrderSize: s.minOrderSize,
    negRisk: s.negRisk,
    acceptingOrders: s.acceptingOrders ?? true,
    endDateMs: null,
    rewards: s.rewards !== null && s.rewards.rates.length > 0 && s.rewards.dailyRate > 0 ? s.rewards : null,
    makerBaseFeeBps: s.makerBaseFeeBps ?? 0,
    takerBaseFeeBps: s.takerBaseFeeBps ?? 0,
  };
}

/** Does a sampling market pass the selector (every field but `max`)? */
export function matchesSelector(m: SamplingMarket, sel: SelectorSpec): boolean {
  if (sel.active && !(m.active && !m.closed && !m.archived)) return false;
  if (sel.acceptingOrders && !(m.acceptingOrders && m.enableOrderBook)) return false;
  if (sel.tags.length > 0) {
    const wanted = new Set(sel.tags.map((t) => t.toLowerCase()));
    if (!m.tags.some((t) => wanted.has(t.toLowerCase()))) return false;
  }
  if (sel.rewardsOnly && !(m.rewards.rates.length > 0 && m.rewards.dailyRate > 0)) return false;
  // A market without real token ids cannot be polled or quoted.
  return m.tokens.some((t) => t.tokenId !== null);
}

/** Tokens of a market, each with its complement when the market is a binary pair. */
function pairTokens(
  all: ReadonlyArray<{ tokenId: string; outcome: string }>,
  only?: ReadonlySet<string>,
): UniverseToken[] {
  const binary = all.length === 2;
  const out: UniverseToken[] = [];
  all.forEach((t, i) => {
    if (only !== undefined && !only.has(t.tokenId)) return;
    const other = binary ? all[1 - i] : undefined;
    out.push({ tokenId: t.tokenId, outcome: t.outcome, complementTokenId: other?.tokenId ?? null });
  });
  return out;
}

async function fromSelector(port: UniversePort, sel: SelectorSpec, signal?: AbortSignal): Promise<UniverseMarket[]> {
  const out: UniverseMarket[] = [];
  const seenTokens = new Set<string>();
  for await (const m of port.samplingMarkets(signal)) {
    if (!matchesSelector(m, sel)) continue;
    const tokens = m.tokens.filter((t): t is typeof t & { tokenId: string } => t.tokenId !== null);
    // A listing that repeats a token (or a market) is not ours to guess about: skip the repeat.
    if (out.some((o) => o.conditionId === m.conditionId) || tokens.some((t) => seenTokens.has(t.tokenId))) continue;
    for (const t of tokens) seenTokens.add(t.tokenId);
    out.push({ conditionId: m.conditionId, settings: settingsFromMarket(m), tokens: pairTokens(tokens) });
    if (out.length >= sel.max) break;
  }
  return out;
}

async function fromExplicit(
  port: UniversePort,
  spec: UniverseSpec,
  signal?: AbortSignal,
  feeSchedule?: FeeSchedule,
): Promise<UniverseMarket[]> {
  // condition id → tokens wanted (undefined: all of them)
  const wanted = new Map<string, Set<string> | undefined>();
  for (const c of spec.conditions) wanted.set(c, undefined);
  const loose = [...new Set(spec.tokens)];
  if (loose.length > 0) {
    const books = await port.getBooks(loose, signal);
    const marketOf = new Map<string, string>();
    for (const b of books) marketOf.set(b.assetId, b.market);
    const unknown = loose.filter((t) => !marketOf.has(t));
    if (unknown.length > 0)
      throw new UniverseError(
        'UNIVERSE_UNKNOWN_TOKEN',
        `markets.tokens: the exchange has no book for ${unknown.join(', ')}`,
      );
    for (const t of loose) {
      const c = marketOf.get(t) as string;
      if (wanted.has(c) && wanted.get(c) === undefined) continue; // the whole market is wanted already
      const set = wanted.get(c) ?? new Set<string>();
      set.add(t);
      wanted.set(c, set);
    }
  }
  const out: UniverseMarket[] = [];
  for (const [conditionId, only] of wanted) {
    const s = await port.getMarketSettings(conditionId, signal);
    if (s.tokens.length === 0) throw new UniverseError('UNIVERSE_BAD_MARKET', `market ${conditionId} has no tokens`);
    if (only !== undefined) {
      const missing = [...only].filter((t) => !s.tokens.some((x) => x.tokenId === t));
      if (missing.length > 0)
        throw new UniverseError(
          'UNIVERSE_UNKNOWN_TOKEN',
          `markets.tokens: ${missing.join(', ')} not among the tokens of market ${conditionId}`,
        );
    }
    const settings = settingsFromClob(s);
    out.push({
      conditionId,
      settings: feeSchedule === 'fee-details' ? { ...settings, fees: feeModelOf(feeSchedule, s) } : settings,
      tokens: pairTokens(s.tokens, only),
    });
  }
  return out;
}

/** Resolves the configured universe once; with a fee schedule, each market's fee model (header). */
export async function resolveUniverse(
  port: UniversePort,
  spec: UniverseSpec,
  signal?: AbortSignal,
  feeSchedule?: FeeSchedule,
): Promise<UniverseMarket[]> {
  if (spec.tokens.length > 0 || spec.conditions.length > 0) return fromExplicit(port, spec, signal, feeSchedule);
  const out = await fromSelector(port, spec.selector, signal);
  if (feeSchedule !== 'fee-details') return out;
  // The sampling records carry no `fd`: read each kept market's settings for it.
  const withFees: UniverseMarket[] = [];
  for (const m of out) {
    let fees = null;
    try {
      fees = feeModelOf(feeSchedule, await port.getMarketSettings(m.conditionId, signal));
    } catch (err) {
      if (signal?.aborted === true) throw err;
    }
    withFees.push({ ...m, settings: { ...m.settings, fees } });
  }
  return withFees;
}

/** What changed between two universes, by condition id. */
export function diffUniverse(before: readonly UniverseMarket[], after: readonly UniverseMarket[]): UniverseDiff {
  const old = new Map(before.map((m) => [m.conditionId, m]));
  const now = new Map(after.map((m) => [m.conditionId, m]));
  const tokenKey = (m: UniverseMarket): string => m.tokens.map((t) => t.tokenId).join(',');
  return {
    added: after.filter((m) => !old.has(m.conditionId)),
    removed: before.filter((m) => !now.has(m.conditionId)),
    changed: after.filter((m) => {
      const o = old.get(m.conditionId);
      return o !== undefined && tokenKey(o) !== tokenKey(m);
    }),
    markets: after,
  };
}

export interface UniverseOptions {
  readonly port: UniversePort;
  readonly spec: UniverseSpec;
  readonly scheduler: RefreshScheduler;
  /** Called after every refresh that changed the universe (not after the first load). */
  readonly onChange: (diff: UniverseDiff) => void;
  /** A failed scheduled refresh (the previous universe stays). */
  readonly onError: (err: unknown) => void;
  /** Which fields fills are charged by (the dialect's `fees`): sets each market's `settings.fees`. */
  readonly feeSchedule?: FeeSchedule;
}

export class Universe {
  private current: readonly UniverseMarket[] = [];
  private readonly opts: UniverseOptions;
  private abort: AbortController | null = null;

  constructor(opts: UniverseOptions) {
    this.opts = opts;
  }

  markets(): readonly UniverseMarket[] {
    return this.current;
  }

  /** Resolves the universe; on failure throws and keeps the previous one. */
  async refresh(): Promise<UniverseDiff> {
    const ac = new AbortController();
    this.abort = ac;
    try {
      const next = await resolveUniverse(this.opts.port, this.opts.spec, ac.signal, this.opts.feeSchedule);
      const diff = diffUniverse(this.current, next);
      this.current = next;
      return diff;
    } finally {
      if (this.abort === ac) this.abort = null;
    }
  }

  /** Starts the scheduled refreshes (the caller does the first one). */
  start(): void {
    this.opts.scheduler.start(async () => {
      const diff = await this.refresh();
      if (diff.added.length > 0 || diff.removed.length > 0 || diff.changed.length > 0) this.opts.onChange(diff);
    }, this.opts.onError);
  }

  stop(): void {
    this.opts.scheduler.stop();
    this.abort?.abort(new StoppedError('universe stopped'));
  }
}
