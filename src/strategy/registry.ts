// The strategy registry: a list of modules looked up by name: the built-ins (strategies/index.ts)
// and, for a run whose config names some, the user's own modules (load-module.ts adds them; the
// config loader, src/config/load.ts, builds the registry every command resolves through).
// Invariants: names are unique (a duplicate is caught when the registry is built); an unknown name
// fails with an error that lists every known name, so a config typo is fixed in one try.
import { OddsmakerError } from '../core/errors.js';
import type { StrategyModule } from './define.js';

export class UnknownStrategyError extends OddsmakerError {
  readonly strategy: string;
  readonly known: readonly string[];
  constructor(name: string, known: readonly string[]) {
    super(
      'STRATEGY_UNKNOWN',
      `unknown strategy ${JSON.stringify(name)}; known strategies: ${known.length === 0 ? '(none)' : known.join(', ')}`,
      false,
    );
    this.strategy = name;
    this.known = known;
  }
}

export class DuplicateStrategyError extends OddsmakerError {
  constructor(name: string) {
    super('STRATEGY_DUPLICATE', `two strategies are registered as ${JSON.stringify(name)}`, false);
  }
}

export interface StrategyRegistry {
  /** Registered names, sorted. */
  names(): readonly string[];
  has(name: string): boolean;
  /** The module of that name; throws UnknownStrategyError listing the known names. */
  get(name: string): StrategyModule;
}

export function createRegistry(modules: readonly StrategyModule[]): StrategyRegistry {
  const byName = new Map<string, StrategyModule>();
  for (const m of modules) {
    if (byName.has(m.name)) throw new DuplicateStrategyError(m.name);
    byName.set(m.name, m);
  }
  const names = Object.freeze([...byName.keys()].sort());
  return Object.freeze({
    names: () => names,
    has: (name: string) => byName.has(name),
    get(name: string): StrategyModule {
      const m = byName.get(name);
      if (m === undefined) throw new UnknownStrategyError(name, names);
      return m;
    },
  });
}
