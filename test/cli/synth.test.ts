// `oddsmaker synth` end to end: the compiled CLI (npm run build first) as a child process. It writes
// a recording the reader reads with the counts its summary line prints, a labels sidecar naming
// every token, byte-identical files for equal flags; an existing --out needs --force; a bad or
// unknown flag exits 2 with a message naming it.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readSidecar } from '../../src/marketdata/recording/importers/sidecar.js';
import { RecordingReader } from '../../src/marketdata/recording/reader.js';
import { synthMarket } from '../../src/marketdata/recording/synthesize.js';
import { assertBuilt, CLI, tempDir } from '../e2e/harness.js';

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

let dir: string;
beforeAll(() => {
  assertBuilt();
  dir = tempDir();
});

const FLAGS = ['--markets', '3', '--hours', '0.1', '--seed', '9', '--update-ms', '1000', '--levels', '10'];

describe('oddsmaker synth', () => {
  it('writes a readable recording, its sidecar, and one summary line with the counts', async () => {
    const out = join(dir, 'synth.omrc');
    const r = cli('synth', '--out', out, ...FLAGS);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const m =
      /^synth: (\d+) events \((\d+) books, (\d+) deltas, (\d+) trades\), 3 markets, 6 tokens, (\d+) bytes, [\d.]+ s → (.*)\n$/.exec(
        r.stdout,
      );
    expect(m).not.toBeNull();
    expect(Number(m![5])).toBe(statSync(out).size);
    expect(m![6]).toBe(out);
    const counts: Record<string, number> = {};
    let events = 0;
    for await (const e of RecordingReader.fromFile(out)) {
      counts[e.kind] = (counts[e.kind] ?? 0) + 1;
      events++;
    }
    expect(events).toBe(Number(m![1]));
    expect(counts['book']).toBe(Number(m![2]));
    expect(counts['delta']).toBe(Number(m![3]));
    expect(counts['trade']).toBe(Number(m![4]));
    expect(counts['settings']).toBe(6);
    const side = readSidecar(out);
    expect(side).toMatchObject({ source: 'synth', depth: 'full', backtestable: true, note: '' });
    const first = synthMarket(9, 0);
    expect(side?.labels[first.yesTokenId]).toEqual({ question: first.question, outcome: 'Yes' });
    expect(side?.labels[first.noTokenId]).toEqual({ question: first.question, outcome: 'No' });
    expect(Object.keys(side?.labels ?? {})).toHaveLength(6);
  });

  it('equal flags write byte-identical files; an existing --out needs --force', () => {
    const a = join(dir, 'a.omrc');
    const b = join(dir, 'b.omrc');
    expect(cli('synth', '--out', a, ...FLAGS).status).toBe(0);
    expect(cli('synth', '--out', b, ...FLAGS).status).toBe(0);
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
    const again = cli('synth', '--out', a, ...FLAGS);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/exists; pass --force/);
    const forced = cli('synth', '--out', a, ...FLAGS, '--force');
    expect(forced.status).toBe(0);
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
  });

  it('a bad value, a missing flag or an unknown flag exits 2 and names it', () => {
    const out = join(dir, 'bad.omrc');
    const bad = cli('synth', '--out', out, '--markets', 'many', '--hours', '1', '--seed', '1');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--markets must be an integer in \[1, 100000\], got "many"/);
    const zero = cli('synth', '--out', out, '--markets', '2', '--hours', '0', '--seed', '1');
    expect(zero.status).toBe(2);
    expect(zero.stderr).toMatch(/--hours must be/);
    const missing = cli('synth', '--out', out, '--markets', '2', '--hours', '1');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/--seed/);
    const unknown = cli('synth', '--out', out, ...FLAGS, '--wibble', '3');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown option '--wibble'/);
    expect(() => statSync(out)).toThrow();
  });
});
