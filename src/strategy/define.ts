// The strategy contract and its runner. Invariants:
// - `quote(ctx)` is synchronous and pure and returns the full set of orders wanted resting;
// - state, if any, is a value: `onStart` makes it, `onFill` returns the next one, the runner
//   holds it (a strategy with state must define onStart; the types enforce it);
// - params are parsed once (absent params are {}), errors name the path and the value, and the
//   result is deep-frozen; a strategy may document them (ParamDoc rows, shown by
//   `oddsmaker strategies show`), the defaults being read from the parsed empty params;
// - the runner enforces the lifecycle (start once, then quote/fill, then stop) and throws
//   InvariantError on output no strategy may produce (NaN, a token outside its context, a
//   non-positive size): a broken strategy stops quoting rather than sending garbage. Off-tick or
//   out-of-range prices are risk's to drop (the tick can change under a quote).
import { InvariantError } from '../core/errors.js';
import type { DesiredQuote } from '../core/quote.js';
import type {
  QuoteContext,
  StartContext,
  StrategyClock,
  StrategyFill,
  StrategyInput,
  StrategyLogger,
} from './context.js';

/**
 * One row of a strategy's parameter table (`oddsmaker strategies show NAME`). The default is not
 * written here: it is read from the parsed empty params, so the table cannot drift from the schema.
 */
export interface ParamDoc {
  /** Path in the params: "maxPosition", "guards.maxBookAgeMs", "levels[].margin" (a list's items). */
  readonly path: string;
  /** Unit as printed: "price", "shares", "ms", "1/price", "—". */
  readonly unit: string;
  /** The parsed value is integer millionths (a price, a share count, collateral): shown as a decimal. */
  readonly money?: boolean;
  /** One line: what it does. */
  readonly description: string;
}

interface StrategyBase<P, S> {
  /** Registry name: lower-case, digits and dashes. */
  readonly name: string;
  /** One line for `--help` and logs. */
  readonly summary: string;
  /** The parameter table, one row per param (optional: a strategy without params has none). */
  readonly paramDocs?: readonly ParamDoc[];
  /** Parses raw params; throws ParseError naming the path (under `path`) and the value. */
  parseParams(raw: unknown, path: string): P;
  /** The orders wanted resting, most important first (risk drops from the end when a limit binds). */
  quote(ctx: QuoteContext<P, S>): readonly DesiredQuote[];
  /** Returns the next state. */
  onFill?(ctx: QuoteContext<P, S>, fill: StrategyFill): S;
  onStop?(ctx: QuoteContext<P, S>): void;
}

/** A strategy with state S must make its first state in onStart; a stateless one need not. */
export type StrategyDefinition<P, S = undefined> = StrategyBase<P, S> &
  (undefined extends S ? { onStart?(ctx: StartContext<P>): S } : { onStart(ctx: StartContext<P>): S });

/** What the runtime drives: one strategy instance with its params and state. */
export interface StrategyRunner {
  readonly name: string;
  /** The parsed, frozen params (for status pages). */
  readonly params: unknown;
  start(input: StrategyInput): void;
  quote(input: StrategyInput): readonly DesiredQuote[];
  fill(input: StrategyInput, fill: StrategyFill): void;
  stop(input: StrategyInput): void;
  /**
   * Whether fill() does anything but check that the strategy runs (it has an onFill); false lets
   * a cycle skip building the input a fill is told with. Absent: it may.
   */
  readonly hearsFills?: boolean;
}

export interface RunnerEnv {
  readonly clock: StrategyClock;
  readonly log: StrategyLogger;
  /** Config path of the params, for error messages ("strategies[0].params"). */
  readonly path?: string;
}

/** A registered strategy, its param and state types erased. */
export interface StrategyModule {
  readonly name: string;
  readonly summary: string;
  /** The parameter table (absent or empty: undocumented). */
  readonly paramDocs?: readonly ParamDoc[];
  /** Parses (undefined as {}) and deep-freezes params; throws ParseError naming the path and the value. */
  parseParams(raw: unknown, path?: string): unknown;
  create(rawParams: unknown, env: RunnerEnv): StrategyRunner;
}

const NAME_RE = /^[a-z][a-z0-9-]*$/;

export function defineStrategy<P, S = undefined>(def: StrategyDefinition<P, S>): StrategyModule {
  if (!NAME_RE.test(def.name))
    throw new InvariantError(`strategy name must match ${String(NAME_RE)}: ${JSON.stringify(def.name)}`);
  // Absent params are an empty object, so a strategy whose params all have defaults needs none.
  const parse = (raw: unknown, path = 'params'): P => deepFreeze(def.parseParams(raw === undefined ? {} : raw, path));
  return Object.freeze({
    name: def.name,
    summary: def.summary,
    paramDocs: Object.freeze([...(def.paramDocs ?? [])]),
    parseParams: parse,
    create(rawParams: unknown, env: RunnerEnv): StrategyRunner {
      return new Runner<P, S>(def, parse(rawParams, env.path ?? 'params'), env);
    },
  });
}

class Runner<P, S> implements StrategyRunner {
  readonly name: string;
  readonly hearsFills: boolean;
  private state: S | undefined;
  private phase: 'new' | 'running' | 'stopped' = 'new';

  constructor(
    private readonly def: StrategyDefinition<P, S>,
    readonly params: P,
    private readonly env: RunnerEnv,
  ) {
    this.name = def.name;
    this.hearsFills = def.onFill !== undefined;
  }

  start(input: StrategyInput): void {
    if (this.phase !== 'new') throw new InvariantError(`strategy ${this.name}: start called twice`);
    const ctx: StartContext<P> = { ...input, params: this.params, clock: this.env.clock, log: this.env.log };
    // Without onStart the state is undefined, which the definition type allows only when S does.
    this.state = this.def.onStart === undefined ? undefined : this.def.onStart(ctx);
    this.phase = 'running';
  }

  quote(input: StrategyInput): readonly DesiredQuote[] {
    const out = this.def.quote(this.ctx(input, 'quote'));
    checkQuotes(this.name, out, input);
    return out;
  }

  fill(input: StrategyInput, fill: StrategyFill): void {
    const ctx = this.ctx(input, 'fill');
    if (this.def.onFill !== undefined) this.state = this.def.onFill(ctx, fill);
  }

  stop(input: StrategyInput): void {
    const ctx = this.ctx(input, 'stop');
    this.phase = 'stopped';
    this.def.onStop?.(ctx);
  }

  private ctx(input: StrategyInput, what: string): QuoteContext<P, S> {
    if (this.phase !== 'running') throw new InvariantError(`strategy ${this.name}: ${what} while ${this.phase}`);
    // Named fields, not a spread: this runs on every cycle (every update in a backtest), and a
    // spread of the input costs several times more than the strategy's own arithmetic.
    return {
      nowMs: input.nowMs,
      markets: input.markets,
      openOrders: input.openOrders,
      freeCollateral: input.freeCollateral,
      params: this.params,
      clock: this.env.clock,
      log: this.env.log,
      state: this.state as S,
    };
  }
}

/** Shape checks on a strategy's output: a failure is a bug in the strategy. */
function checkQuotes(name: string, quotes: readonly DesiredQuote[], input: StrategyInput): void {
  if (!Array.isArray(quotes)) throw new InvariantError(`strategy ${name}: quote() must return an array`);
  const tokens = new Set<string>();
  for (const m of input.markets) for (const t of m.tokens) tokens.add(t.tokenId);
  for (let i = 0; i < quotes.length; i++) {
    const q = quotes[i] as DesiredQuote;
    // The message is built only for a failure: this runs on every quote of every cycle.
    if (!tokens.has(q.tokenId)) throw new InvariantError(`${where(name, i)}: token ${q.tokenId} is not in its context`);
    if (q.side !== 'BUY' && q.side !== 'SELL') throw new InvariantError(`${where(name, i)}: side ${String(q.side)}`);
    if (!Number.isSafeInteger(q.price))
      throw new InvariantError(`${where(name, i)}: price ${String(q.price)} is not integer millionths`);
    if (!Number.isSafeInteger(q.size) || q.size <= 0)
      throw new InvariantError(`${where(name, i)}: size ${String(q.size)} is not positive integer millionths`);
  }
}

/** Where a bad quote is, for checkQuotes' messages. */
function where(name: string, i: number): string {
  return `strategy ${name}: quote[${i}]`;
}

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}
