// Every registered strategy has a README in its folder with what it does, a parameter table equal
// to the one `oddsmaker strategies show NAME --markdown` prints (so defaults and units cannot drift
// from the schema), and a section on when not to use it.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { paramTable, renderParamTable } from '../../src/strategy/param-docs.js';
import { registry } from '../../strategies/index.js';

const readme = (name: string): string => fileURLToPath(new URL(`../../strategies/${name}/README.md`, import.meta.url));

describe('strategy READMEs', () => {
  it.each(registry.names())('%s: title, parameter table as generated, when not to use it', (name) => {
    const path = readme(name);
    expect(existsSync(path), path).toBe(true);
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith(`# ${name}\n`)).toBe(true);
    const section = text.slice(text.indexOf('## Parameters'));
    const table = section
      .split('\n')
      .filter((l) => l.startsWith('|'))
      .join('\n');
    expect(table).toBe(renderParamTable(paramTable(registry.get(name)), 'markdown'));
    expect(text).toMatch(/\n## When not to use it\n\n- \*\*/);
  });
});
