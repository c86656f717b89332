// Every config file shipped in config/ validates: a user copying one never starts from a broken file.
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfigFile } from '../../src/config/load.js';

const files = readdirSync('config').filter((f) => f.endsWith('.json'));

describe('shipped configs', () => {
  it('include the sandbox default', () => {
    expect(files).toContain('default.json');
    expect(loadConfigFile(join('config', 'default.json')).mode).toBe('sandbox');
  });
  it.each(files)('%s validates', (f) => {
    expect(() => loadConfigFile(join('config', f))).not.toThrow();
  });
});
