// Parameter tables: defaults read from the parsed empty params and printed as a person writes
// them, text and Markdown layouts, and, for every registered strategy, a row for every param the
// defaults hold and no row for a param that does not exist.
import { describe, expect, it } from 'vitest';
import {
  defineStrategy,
  formatParam,
  fromSchema,
  paramLeaves,
  paramTable,
  priceParam,
  renderParamTable,
  valueAt,
  z,
} from '../../src/strategy/sdk.js';
import { registry } from '../../strategies/index.js';

const toy = defineStrategy({
  name: 'toy',
  summary: 'a toy',
  paramDocs: [
    { path: 'edge', unit: 'price', money: true, description: 'distance | from the mid' },
    { path: 'mode', unit: 'a | b', description: 'which' },
    { path: 'nested.ms', unit: 'ms', description: 'a time' },
    { path: 'list', unit: 'list', money: true, description: 'the list' },
    { path: 'list[].p', unit: 'price', description: 'an item' },
  ],
  parseParams: fromSchema(
    z.object({
      edge: priceParam().prefault(0.015),
      mode: z.enum(['a', 'b']).prefault('a'),
      nested: z.object({ ms: z.number().prefault(250) }).prefault({}),
      list: z.array(z.object({ p: priceParam() })).prefault([{ p: 0.5 }]),
    }),
  ),
  quote: () => [],
});

describe('param docs', () => {
  it('values at a path; money printed as decimals', () => {
    const d = toy.parseParams(undefined);
    expect(valueAt(d, 'nested.ms')).toBe(250);
    expect(valueAt(d, 'list[].p')).toBeUndefined();
    expect(valueAt(d, 'missing.x')).toBeUndefined();
    expect(formatParam(15_000, true)).toBe('0.015');
    expect(formatParam(15_000, false)).toBe('15000');
    expect(formatParam('a', false)).toBe('"a"');
    expect(formatParam([{ p: 500_000 }], true)).toBe('[{p: 0.5}]');
    expect(formatParam(true, false)).toBe('true');
  });

  it('the table, its defaults from the schema', () => {
    expect(paramTable(toy)).toEqual([
      { path: 'edge', unit: 'price', default: '0.015', description: 'distance | from the mid' },
      { path: 'mode', unit: 'a | b', default: '"a"', description: 'which' },
      { path: 'nested.ms', unit: 'ms', default: '250', description: 'a time' },
      { path: 'list', unit: 'list', default: '[{p: 0.5}]', description: 'the list' },
      { path: 'list[].p', unit: 'price', default: '—', description: 'an item' },
    ]);
  });

  it('text and Markdown layouts', () => {
    const rows = paramTable(toy).slice(0, 2);
    expect(renderParamTable(rows, 'text')).toBe(
      [
        'name  unit   default  meaning',
        '----  -----  -------  -----------------------',
        'edge  price  0.015    distance | from the mid',
        'mode  a | b  "a"      which',
      ].join('\n'),
    );
    expect(renderParamTable(rows, 'markdown')).toBe(
      [
        '| name | unit | default | meaning |',
        '|---|---|---|---|',
        '| `edge` | price | `0.015` | distance \\| from the mid |',
        '| `mode` | a \\| b | `"a"` | which |',
      ].join('\n'),
    );
  });

  it('leaves of the defaults', () => {
    expect(paramLeaves(toy.parseParams(undefined))).toEqual(['edge', 'mode', 'nested.ms', 'list', 'list[].p']);
  });

  it.each(registry.names())('%s: every param documented, every row a param', (name) => {
    const m = registry.get(name);
    const leaves = paramLeaves(m.parseParams(undefined)).sort();
    const documented = (m.paramDocs ?? []).map((d) => d.path).sort();
    expect(documented).toEqual(leaves);
    for (const r of paramTable(m)) if (!r.path.includes('[]')) expect(r.default, r.path).not.toBe('—');
  });
});
