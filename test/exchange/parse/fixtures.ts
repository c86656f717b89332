// Loads the real recorded payloads copied into test/fixtures/real/ (provenance in SOURCES.md there),
// and the assertion helpers every parser test shares.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { ParseError } from '../../../src/core/errors.js';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../../fixtures/real/', import.meta.url));

export function realJson(name: string): unknown {
  return JSON.parse(readFileSync(DIR + name, 'utf8')) as unknown;
}

export function realJsonLines(name: string): unknown[] {
  return readFileSync(DIR + name, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);
}

/** A deep copy to mutate into a malformed variant. */
export function clone<T>(v: T): T {
  return structuredClone(v);
}

/** Runs fn, expects a ParseError, and returns the field path it names. */
export function pathOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ParseError);
    return (err as ParseError).path;
  }
  throw new Error('expected a ParseError');
}
