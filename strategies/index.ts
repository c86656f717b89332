// The static strategy registry (docs/ARCHITECTURE.md §2): every strategy the daemon can run, compiled in.
// Adding a strategy is one folder under strategies/ and one entry here; names must be unique
// (createRegistry throws at startup otherwise).
import { createRegistry } from '../src/strategy/registry.js';
import { avellanedaStoikov } from './avellaneda-stoikov/index.js';
import { bands } from './bands/index.js';
import { rewards } from './rewards/index.js';

export const strategies = [bands, avellanedaStoikov, rewards] as const;

export const registry = createRegistry(strategies);
