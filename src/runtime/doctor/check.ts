// One preflight check's outcome and its line (`oddsmaker doctor`): `OK <check>` (with what it
// found after a colon, for information), or `FAIL <check>: <what is wrong>. Fix: <what to do>`.
// Invariants: a line never carries a secret (checks name variables and addresses, never values of
// keys, secrets or passphrases); one check, one line.

export type CheckOutcome =
  | { readonly name: string; readonly ok: true; readonly info?: string }
  | { readonly name: string; readonly ok: false; readonly problem: string; readonly fix: string };

export const ok = (name: string, info?: string): CheckOutcome =>
  info === undefined ? { name, ok: true } : { name, ok: true, info };
export const fail = (name: string, problem: string, fix: string): CheckOutcome => ({ name, ok: false, problem, fix });

/** A check that cannot run because `prerequisite` failed. */
export const blocked = (name: string, prerequisite: string): CheckOutcome =>
  fail(name, `not checked: ${prerequisite} failed`, `fix ${prerequisite} first`);

/** One line: inner line breaks (a config error lists its problems) become "; ", no final stop. */
const noStop = (s: string): string => s.replace(/\s*\n\s*/g, '; ').replace(/[.\s]+$/, '');

export function formatOutcome(c: CheckOutcome): string {
  if (c.ok) return c.info === undefined ? `OK ${c.name}` : `OK ${c.name}: ${c.info}`;
  return `FAIL ${c.name}: ${noStop(c.problem)}. Fix: ${noStop(c.fix)}`;
}

/** Error text for a line: the message of an Error, else the value. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
