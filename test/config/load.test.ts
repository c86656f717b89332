// Config validation: defaults fill an empty file; every bad path and value is named in one error.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfigFile, validateConfig } from '../../src/config/load.js';

describe('config', () => {
  it('an empty object is a complete sandbox config, frozen', () => {
    const c = validateConfig({});
    expect(c.mode).toBe('sandbox');
    expect(c.exchange.dialect).toBe('spec');
    expect(c.poll.maxBookAgeMs).toBe(10_000);
    expect(c.strategy.name).toBe('bands');
    expect(Object.isFrozen(c.risk)).toBe(true);
  });
  it('names every bad path and value in one error', () => {
    try {
      validateConfig({
        mode: 'yolo',
        poll: { intervalMs: -5 },
        risk: { dailyLossLimit: '1e3' },
        exchange: { dialekt: 'spec' },
      });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const msg = (e as ConfigError).message;
      expect(msg).toContain('mode');
      expect(msg).toContain('"yolo"');
      expect(msg).toContain('poll.intervalMs');
      expect(msg).toContain('-5');
      expect(msg).toContain('risk.dailyLossLimit');
      expect(msg).toContain('"1e3"');
      expect(msg).toContain('exchange.dialekt: unknown key');
      expect((e as ConfigError).problems).toHaveLength(4);
    }
  });
  it('reports unreadable and non-JSON files, applies CLI overrides', () => {
    const dir = mkdtempSync(join(tmpdir(), 'om-cfg-'));
    expect(() => loadConfigFile(join(dir, 'nope.json'))).toThrow(/cannot read the file: ENOENT/);
    writeFileSync(join(dir, 'bad.json'), '{ nope');
    expect(() => loadConfigFile(join(dir, 'bad.json'))).toThrow(/not valid JSON/);
    writeFileSync(join(dir, 'ok.json'), JSON.stringify({ mode: 'live' }));
    const c = loadConfigFile(join(dir, 'ok.json'), { mode: 'paper', ledger: 'x.sqlite' });
    expect(c.mode).toBe('paper');
    expect(c.ledger.path).toBe('x.sqlite');
  });
});
