// Loads the real recorded payloads copied into test/fixtures/real/ (provenance in SOURCES.md there).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../../fixtures/real/', import.meta.url));

export function realJson(name: string): unknown {
  return JSON.parse(readFileSync(DIR + name, 'utf8')) as unknown;
}

export function realJsonLines(name: string): unknown[] {
  return readFileSync(DIR + name, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as unknown);
}

/** A deep copy to mutate into a malformed variant. */
export function clone<T>(v: T): T {
  return structuredClone(v);
}
