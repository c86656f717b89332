// The strategy part of config validation: `strategy.name` must be a registered strategy and
// `strategy.params` must pass that strategy's own parser. Problems come back as lines of the one
// ConfigError (load.ts), so an unknown strategy or a bad parameter is a config error (exit 2)
// reported with every other bad path, before anything starts.
import { MoneyError } from '../core/money.js';
import { ParseError } from '../core/errors.js';

/** What the check needs of a strategy registry (strategies/index.ts's satisfies it). */
export interface StrategyLookup {
  names(): readonly string[];
  has(name: string): boolean;
  get(name: string): { parseParams(raw: unknown, path?: string): unknown };
}

/** One line per problem (empty when the strategy and its params are fine). */
export function strategyProblems(
  strategy: { readonly name: string; readonly params: unknown },
  lookup: StrategyLookup,
): string[] {
  if (!lookup.has(strategy.name)) {
    const known = lookup.names();
    return [
      `strategy.name: unknown strategy (got ${JSON.stringify(strategy.name)}); known strategies: ${known.length === 0 ? '(none)' : known.join(', ')}`,
    ];
  }
  try {
    lookup.get(strategy.name).parseParams(strategy.params, 'strategy.params');
    return [];
  } catch (err) {
    // ParseError names its path (strategy.params.…) itself; a bare money error gets the section's.
    if (err instanceof ParseError) return [err.message];
    if (err instanceof MoneyError) return [`strategy.params: ${err.message}`];
    throw err;
  }
}
