// The strategy registry: a static list of modules (strategies/index.ts builds it), looked up by
// name. Invariants: names are unique (a duplicate is a bug, caught when the registry is built);
// an unknown name fails with an error that lists every known name, so a config typo is fixed in
// one try. No dynamic import: what can run is what was compiled in.
import { OddsmakerError } from '../core/errors.js';
import type { StrategyModule } from './define.js';

export class UnknownStrategyError extends OddsmakerError {
  readonly strategy: string;
  readonly known: readonly string[];
  constructor(name: string, known: readonly string[]) {
    super('STRATEGY_UNKNOWN', `unknown strategy ${JSON.stringify(name)}; known strategies: ${known.length === 0 ? '(none)' : known.join(', ')}`, false);
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
