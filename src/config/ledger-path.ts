// Where the ledger is when config `ledger.path` (or `run --ledger`) does not say: one default per
// mode, so that a mode switch (`run --mode live` on the sandbox config) never opens another mode's
// ledger, and a fresh file per sandbox run, because the in-process simulator's world is new every
// run and last run's orders and positions are not in it. Old sandbox files are kept for
// inspection. An explicit path is honoured as given (the ledger identity check guards it).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './schema.js';

export const LIVE_LEDGER_PATH = 'data/ledger.sqlite';
export const PAPER_LEDGER_PATH = 'data/paper-ledger.sqlite';
export const SANDBOX_LEDGER_DIR = 'data/sandbox';

export interface LedgerPathChoice {
  readonly path: string;
  /** From config or --ledger, rather than the mode's default. */
  readonly explicit: boolean;
}

/** `ledger-20260302T120000Z.sqlite`: the UTC start time, to the second. */
export function sandboxLedgerName(nowMs: number, n = 1): string {
  const stamp = new Date(nowMs)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
  return `ledger-${stamp}${n > 1 ? `-${n}` : ''}.sqlite`;
}

/** The ledger path of this run (`exists` only matters for sandbox: two runs in one second). */
export function chooseLedgerPath(
  config: Readonly<Pick<Config, 'mode' | 'ledger'>>,
  nowMs: number,
  exists: (p: string) => boolean = existsSync,
): LedgerPathChoice {
  if (config.ledger.path !== undefined) return { path: config.ledger.path, explicit: true };
  if (config.mode === 'live') return { path: LIVE_LEDGER_PATH, explicit: false };
  if (config.mode === 'paper') return { path: PAPER_LEDGER_PATH, explicit: false };
  for (let n = 1; ; n++) {
    const path = join(SANDBOX_LEDGER_DIR, sandboxLedgerName(nowMs, n));
    if (!exists(path)) return { path, explicit: false };
  }
}

/** The config with its ledger path made definite (deep-frozen like every loaded config). */
export function withLedgerPath<C extends Pick<Config, 'ledger'>>(config: Readonly<C>, path: string): Readonly<C> {
  return Object.freeze({ ...config, ledger: Object.freeze({ ...config.ledger, path }) });
}
