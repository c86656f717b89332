// Where the ledger is (src/config/ledger-path.ts): an explicit path as given; otherwise one per
// mode, so the shipped sandbox config run with `--mode live` never opens a sandbox ledger, and a
// new data/sandbox/ledger-<UTC time>.sqlite per sandbox run (a suffix when two runs share a second).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  chooseLedgerPath,
  LIVE_LEDGER_PATH,
  PAPER_LEDGER_PATH,
  sandboxLedgerName,
  withLedgerPath,
} from '../../src/config/ledger-path.js';
import { loadConfigFile } from '../../src/config/load.js';

const T = Date.UTC(2026, 2, 2, 12, 3, 4, 567);

describe('ledger path', () => {
  it('honours an explicit path in every mode', () => {
    for (const mode of ['sandbox', 'live', 'paper'] as const) {
      expect(chooseLedgerPath({ mode, ledger: { path: 'x/y.sqlite' } } as never, T)).toEqual({
        path: 'x/y.sqlite',
        explicit: true,
      });
    }
  });

  it('defaults by mode: a new file per sandbox run, one file for live, another for paper', () => {
    const sandbox = loadConfigFile(join('config', 'default.json'));
    expect(sandbox.ledger.path).toBeUndefined();
    expect(chooseLedgerPath(sandbox, T, () => false)).toEqual({
      path: join('data/sandbox', 'ledger-20260302T120304Z.sqlite'),
      explicit: false,
    });
    const live = loadConfigFile(join('config', 'default.json'), { mode: 'live' });
    expect(chooseLedgerPath(live, T).path).toBe(LIVE_LEDGER_PATH);
    expect(chooseLedgerPath({ ...live, mode: 'paper' }, T).path).toBe(PAPER_LEDGER_PATH);
  });

  it('never reuses an existing sandbox file', () => {
    const taken = new Set([join('data/sandbox', sandboxLedgerName(T)), join('data/sandbox', sandboxLedgerName(T, 2))]);
    expect(chooseLedgerPath({ mode: 'sandbox', ledger: {} } as never, T, (p) => taken.has(p)).path).toBe(
      join('data/sandbox', 'ledger-20260302T120304Z-3.sqlite'),
    );
  });

  it('withLedgerPath makes the path definite and keeps the config frozen', () => {
    const c = withLedgerPath(loadConfigFile(join('config', 'default.json')), 'a.sqlite');
    expect(c.ledger.path).toBe('a.sqlite');
    expect(c.ledger.positionsCheckCron).toBe('*/5 * * * *');
    expect(Object.isFrozen(c) && Object.isFrozen(c.ledger)).toBe(true);
  });
});
