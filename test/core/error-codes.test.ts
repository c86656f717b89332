// The error rules of docs/errors.md, checked on the source text so the table and the code cannot
// drift: no module under src/ or strategies/ throws (or builds, or subclasses) a bare built-in
// error; every error code the sources define has a row in docs/errors.md, and every row names a
// code the sources define. The scanner is checked on known codes and on synthetic text, so an
// empty scan cannot pass.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InvariantError, OddsmakerError, OptionError } from '../../src/core/errors.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SOURCE_DIRS = ['src', 'strategies'];
const DOC = join(ROOT, 'docs', 'errors.md');

interface Source {
  readonly path: string;
  readonly text: string;
}

function sources(): Source[] {
  const out: Source[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|js|mjs|cjs)$/.test(e.name)) out.push({ path: relative(ROOT, p), text: readFileSync(p, 'utf8') });
    }
  };
  for (const d of SOURCE_DIRS) walk(join(ROOT, d));
  return out;
}

const CODE = String.raw`'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{3,})'`;
const literals = (s: string): string[] => [...s.matchAll(new RegExp(CODE, 'g'))].map((m) => m[1] as string);

/**
 * The codes a source file defines: `super('CODE', ...)` in an error class; `new SomeError('CODE', ...)`
 * for the classes that take their code as an argument; the literals of a `type ...ErrorCode = ...`
 * union; the literals of an error constructor's `code:` parameter type.
 */
export function codesIn(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(new RegExp(String.raw`super\(\s*` + CODE, 'g'))) out.add(m[1] as string);
  for (const m of text.matchAll(new RegExp(String.raw`new [A-Z]\w*Error\(\s*` + CODE, 'g'))) out.add(m[1] as string);
  for (const m of text.matchAll(/type \w*ErrorCode\s*=([^;]+);/g)) for (const c of literals(m[1] as string)) out.add(c);
  for (const m of text.matchAll(/constructor\(\s*code:\s*([^,)]+)/g))
    for (const c of literals(m[1] as string)) out.add(c);
  return out;
}

const BUILTIN = '(?:Error|RangeError|TypeError|SyntaxError|ReferenceError|EvalError|URIError|AggregateError)';

/** Lines that throw, build or subclass a bare built-in error (the base class itself excepted). */
export function bareErrors(path: string, text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    const code = line.replace(/\/\/.*$/, '');
    const bare =
      new RegExp(String.raw`\bnew ${BUILTIN}\(`).test(code) ||
      (new RegExp(String.raw`\bextends ${BUILTIN}\b`).test(code) &&
        !/class OddsmakerError extends Error\b/.test(code)) ||
      /\bthrow\s+['"`]/.test(code);
    if (bare) out.push(`${path}:${i + 1}: ${line.trim()}`);
  });
  return out;
}

/** The codes of the table rows of docs/errors.md (first cell, in backticks). */
function documented(): Set<string> {
  const out = new Set<string>();
  for (const line of readFileSync(DOC, 'utf8').split('\n')) {
    const m = /^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/.exec(line);
    if (m !== null) out.add(m[1] as string);
  }
  return out;
}

function definedCodes(): Map<string, string[]> {
  const where = new Map<string, string[]>();
  for (const s of sources()) for (const c of codesIn(s.text)) where.set(c, [...(where.get(c) ?? []), s.path]);
  return where;
}

describe('error codes', () => {
  it('the scanner finds codes in every form they are defined in', () => {
    const text = [
      "export class AError extends OddsmakerError { constructor(m: string) { super('LAYER_A', m, false); } }",
      "throw new WorldError('WORLD_B', 'x');",
      "export type LedgerErrorCode =\n  | 'LEDGER_C'\n  | 'LEDGER_D';",
      "constructor(code: 'SIGNING_E' | 'SIGNING_F', message: string) {",
      "const notACode = 'LIVE'; const status = 'CANCELED_MARKET_RESOLVED';",
    ].join('\n');
    expect([...codesIn(text)].sort()).toEqual(['LAYER_A', 'LEDGER_C', 'LEDGER_D', 'SIGNING_E', 'SIGNING_F', 'WORLD_B']);
    const all = definedCodes();
    for (const known of [
      'INVARIANT',
      'PARSE_INVALID',
      'EXCHANGE_THROTTLED',
      'RATE_LIMIT_STORE',
      'LEDGER_NO_WAL',
      'SIM_OPTION',
      'WORLD_CORRUPT',
      'SIGNING_POOL_CLOSED',
    ]) {
      expect(all.has(known), known).toBe(true);
    }
  });

  it('the bare-error check catches a thrown, built or subclassed built-in error', () => {
    const bad = [
      "throw new RangeError('x');",
      'ac.abort(new Error("stopped"));',
      'class E extends TypeError {}',
      "throw 'text';",
    ];
    for (const line of bad) expect(bareErrors('f.ts', line), line).toHaveLength(1);
    const ok = [
      "throw new OptionError('SIM_OPTION', 'x');",
      'export class OddsmakerError extends Error {',
      '// throw new Error() in a comment',
      'if (e instanceof RangeError) return;',
    ];
    for (const line of ok) expect(bareErrors('f.ts', line), line).toEqual([]);
  });

  it('no module under src/ or strategies/ throws a bare Error, RangeError or TypeError', () => {
    const found = sources().flatMap((s) => bareErrors(s.path, s.text));
    expect(found, `throw a coded error (docs/errors.md) instead of:\n${found.join('\n')}`).toEqual([]);
  });

  it('every code defined in the sources has a row in docs/errors.md', () => {
    const doc = documented();
    const missing = [...definedCodes()].filter(([c]) => !doc.has(c)).sort(([a], [b]) => a.localeCompare(b));
    const rows = missing.map(
      ([c, files]) => `| \`${c}\` | ? | ? | ${[...new Set(files)].map((f) => `\`${f}\``).join(', ')} | ? |`,
    );
    expect(rows, `add these rows to docs/errors.md:\n${rows.join('\n')}`).toEqual([]);
  });

  it('every row of docs/errors.md names a code the sources define', () => {
    const defined = definedCodes();
    const stale = [...documented()].filter((c) => !defined.has(c));
    expect(stale, `docs/errors.md lists codes no source defines: ${stale.join(', ')}`).toEqual([]);
  });

  it('the coded base classes carry code and retryable as data', () => {
    const e = new OptionError('SIM_OPTION', 'markets must be an integer');
    expect(e).toBeInstanceOf(OddsmakerError);
    expect(e).toMatchObject({
      code: 'SIM_OPTION',
      retryable: false,
      name: 'OptionError',
      message: 'markets must be an integer',
    });
    expect(new InvariantError('x')).toMatchObject({ code: 'INVARIANT', retryable: false });
  });
});
