// The ledger lock (src/ledger/lock.ts): the file holds our pid; a second lock while its holder
// lives is refused naming that pid; a holder that is gone (a SIGKILLed daemon), or that has our
// own pid without this process holding it (a restarted container), is stale and taken over; a
// lock file that names no holder is never removed for us; release removes only our own file,
// once. Liveness is injected where a test needs a pid alive or dead for sure; one test uses a real
// process that has exited.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LedgerLockedError, lockLedger, lockPathOf, type LedgerLock } from '../../src/ledger/index.js';
import { tempDir } from './helpers.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function ledgerPath(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return join(t.dir, 'sub', 'ledger.sqlite');
}

function take(path: string, opts: Parameters<typeof lockLedger>[1] = {}): LedgerLock {
  const l = lockLedger(path, opts);
  cleanups.push(() => {
    l.release();
  });
  return l;
}

const holderOf = (path: string): { pid: number } =>
  JSON.parse(readFileSync(lockPathOf(path), 'utf8')) as { pid: number };

function refusal(fn: () => unknown): LedgerLockedError {
  try {
    fn();
  } catch (e) {
    if (e instanceof LedgerLockedError) return e;
    throw e;
  }
  throw new Error('expected LedgerLockedError');
}

describe('ledger lock', () => {
  it('writes our pid next to the ledger and refuses a second holder while the first lives', () => {
    const path = ledgerPath();
    const first = take(path, { pid: 4242, isAlive: () => true });
    expect(first.path).toBe(`${path}.lock`);
    expect(first.staleFrom).toBeNull();
    expect(holderOf(path).pid).toBe(4242);

    const e = refusal(() => lockLedger(path, { pid: 5151, isAlive: (pid) => pid === 4242 }));
    expect(e.code).toBe('LEDGER_LOCKED');
    expect(e.holderPid).toBe(4242);
    expect(e.message).toContain(`ledger ${path} is in use by another daemon: pid 4242`);
    expect(e.message).toContain(`remove ${path}.lock`);
    expect(holderOf(path).pid).toBe(4242); // untouched
  });

  it('refuses a second lock in the same process', () => {
    const path = ledgerPath();
    take(path);
    expect(refusal(() => lockLedger(path)).message).toMatch(/already locked by this process/);
  });

  it('takes over the lock of a process that has exited', () => {
    const path = ledgerPath();
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    expect(gone).toBeGreaterThan(0);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(lockPathOf(path), JSON.stringify({ pid: gone, host: 'h', startedAt: 't', token: 'old' }));
    const l = take(path);
    expect(l.staleFrom).toBe(gone);
    expect(holderOf(path).pid).toBe(process.pid);
  });

  it('treats a lock with our own pid that this process does not hold as stale (a restarted container)', () => {
    const path = ledgerPath();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(lockPathOf(path), JSON.stringify({ pid: 1, host: 'old-container', startedAt: 't', token: 'old' }));
    const l = take(path, { pid: 1, isAlive: () => true });
    expect(l.staleFrom).toBe(1);
  });

  it('never removes a lock file that names no holder', () => {
    const path = ledgerPath();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(lockPathOf(path), '');
    const e = refusal(() => lockLedger(path));
    expect(e.holderPid).toBeNull();
    expect(e.message).toContain(`remove ${path}.lock`);
    expect(existsSync(lockPathOf(path))).toBe(true);
  });

  it('release removes our lock once, and never a lock that is no longer ours', () => {
    const path = ledgerPath();
    const l = lockLedger(path);
    l.release();
    expect(existsSync(lockPathOf(path))).toBe(false);
    l.release(); // idempotent
    const again = lockLedger(path);
    writeFileSync(lockPathOf(path), JSON.stringify({ pid: 99, host: 'h', startedAt: 't', token: 'someone-else' }));
    again.release();
    expect(holderOf(path).pid).toBe(99);
  });

  it('needs no file for an in-memory ledger', () => {
    const l = lockLedger(':memory:');
    expect(l.path).toBe('');
    l.release();
  });
});
