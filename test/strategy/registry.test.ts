// The strategy registry: lookup by name, an unknown name listing every known one, duplicates
// refused, and the static registry of strategies/index.ts.
import { describe, expect, it } from 'vitest';
import { createRegistry, DuplicateStrategyError, UnknownStrategyError } from '../../src/strategy/registry.js';
import { defineStrategy } from '../../src/strategy/sdk.js';
import { registry, strategies } from '../../strategies/index.js';

const stub = (name: string) =>
  defineStrategy({ name, summary: `${name} test`, parseParams: () => ({}), quote: () => [] });

describe('strategy registry', () => {
  it('looks strategies up by name and lists the names sorted', () => {
    const a = stub('zeta');
    const b = stub('alpha');
    const r = createRegistry([a, b]);
    expect(r.get('zeta')).toBe(a);
    expect(r.has('alpha')).toBe(true);
    expect(r.has('beta')).toBe(false);
    expect(r.names()).toEqual(['alpha', 'zeta']);
  });

  it('an unknown name fails with every known name in the message', () => {
    const r = createRegistry([stub('zeta'), stub('alpha')]);
    let err: unknown;
    try {
      r.get('bandz');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UnknownStrategyError);
    const u = err as UnknownStrategyError;
    expect(u.message).toBe('unknown strategy "bandz"; known strategies: alpha, zeta');
    expect(u.code).toBe('STRATEGY_UNKNOWN');
    expect(u.retryable).toBe(false);
    expect(u.known).toEqual(['alpha', 'zeta']);
    expect(() => createRegistry([]).get('x')).toThrow('known strategies: (none)');
  });

  it('refuses two strategies with one name', () => {
    expect(() => createRegistry([stub('a'), stub('a')])).toThrow(DuplicateStrategyError);
  });

  it('the static registry holds every strategy of strategies/index.ts', () => {
    expect(registry.names()).toEqual(strategies.map((s) => s.name).sort());
    expect(registry.names()).toContain('bands');
  });
});
