// The real recorded payloads every test reads, stored once in test/fixtures/real/ (provenance and
// licences in SOURCES.md there; the wire catalogue of the public routes in its wire/ folder). Found
// from the sources (vitest) and from dist/test (the benchmarks), which sit at different depths.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CANDIDATES = ['../fixtures/real/', '../../../test/fixtures/real/'].map((rel) =>
  fileURLToPath(new URL(rel, import.meta.url)),
);

/** test/fixtures/real/, with a trailing slash. */
export const REAL_FIXTURES: string = CANDIDATES.find((d) => existsSync(d)) ?? (CANDIDATES[0] as string);

/** The absolute path of the real fixture `name` (a file name, or a path under real/). */
export function realFixturePath(name: string): string {
  const path = REAL_FIXTURES + name;
  if (!existsSync(path)) throw new Error(`fixture ${name} not found in ${REAL_FIXTURES}`);
  return path;
}

export function realText(name: string): string {
  return readFileSync(realFixturePath(name), 'utf8');
}

export function realJson(name: string): unknown {
  return JSON.parse(realText(name)) as unknown;
}

/** A JSON-lines fixture, one value per non-empty line. */
export function realJsonLines(name: string): unknown[] {
  return realText(name)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as unknown);
}
