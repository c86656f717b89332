// `oddsmaker strategies list` and `show NAME`: through their functions and through commander; an
// unknown name is a usage error listing the known ones; `show --markdown` is the README's table.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/exit-codes.js';
import { listStrategies, register, showStrategy } from '../../src/cli/strategies.js';
import { paramTable, renderParamTable } from '../../src/strategy/param-docs.js';
import { registry } from '../../strategies/index.js';

function sink() {
  const chunks: string[] = [];
  return { out: { write: (s: string) => chunks.push(s) }, text: () => chunks.join('') };
}

async function cli(args: string[]): Promise<string> {
  const s = sink();
  const program = new Command().exitOverride();
  register(program, { out: s.out });
  await program.parseAsync(['node', 'oddsmaker', ...args]);
  return s.text();
}

describe('strategies list', () => {
  it('prints every registered strategy with its description, sorted by name', async () => {
    const text = await cli(['strategies', 'list']);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(registry.names().length);
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual([...registry.names()].sort());
    for (const name of registry.names()) expect(text).toContain(registry.get(name).summary);
    // names padded to one column
    expect(new Set(lines.map((l) => l.indexOf(registry.get(l.split(/\s+/)[0] ?? '').summary))).size).toBe(1);
    expect(listStrategies(sink())).toBe(text.trimEnd());
  });
});

describe('strategies show', () => {
  it('prints the description and the parameter table with defaults and units', async () => {
    const text = await cli(['strategies', 'show', 'bands']);
    const lines = text.split('\n');
    expect(lines[0]).toBe(`bands: ${registry.get('bands').summary}`);
    expect(lines[2]).toMatch(/^name\s+unit\s+default\s+meaning$/);
    expect(text).toMatch(/\nmaxPosition\s+shares\s+100\s+largest net position/);
    expect(text).toMatch(
      /\nlevels\s+list, 1–20\s+\[\{margin: 0\.01, size: 10\}, \{margin: 0\.02, size: 15\}, \{margin: 0\.04, size: 25\}\]/,
    );
    expect(text).toMatch(/\nguards\.maxBookAgeMs\s+ms\s+10000\s+/);
    expect(text).toMatch(/\ncomplement\s+net \| separate\s+"net"\s+/);
  });

  it('--markdown prints the table the README carries', async () => {
    for (const name of registry.names()) {
      const text = await cli(['strategies', 'show', name, '--markdown']);
      expect(text).toBe(`${renderParamTable(paramTable(registry.get(name)), 'markdown')}\n`);
    }
  });

  it('an unknown name is a usage error naming every known strategy', () => {
    let err: unknown;
    try {
      showStrategy('bandz', {}, sink());
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe(`unknown strategy "bandz"; known strategies: ${registry.names().join(', ')}`);
  });
});
