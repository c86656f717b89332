// The rule of commands that write a recording to --out (import, synth): an existing file is a
// usage error (exit 2) unless --force is given. Returns whether the file exists.
import { statSync } from 'node:fs';
import { UsageError } from './exit-codes.js';

export function checkOutFile(out: string, force: boolean | undefined): boolean {
  let exists = false;
  try {
    exists = statSync(out).isFile();
  } catch {
    exists = false;
  }
  if (exists && force !== true) throw new UsageError(`--out ${JSON.stringify(out)} exists; pass --force to replace it`);
  return exists;
}
