// One daemon per ledger: a lock file next to the ledger (`<ledger>.lock`) holding the holder's pid,
// taken by `oddsmaker run` before anything else (before the simulator, the exchange, startup
// reconciliation), so a second daemon on the same ledger fails at once, naming the first's pid.
// Why a file and not SQLite's own locking: SQLite's exclusive locking mode cannot say who holds
// the database, blocks the read-only readers (operators, the chaos checks) a WAL ledger allows, and
// is only taken at the first write, after the start-up work it should prevent.
// Invariants kept:
// - taking it is atomic: the file is created with O_CREAT|O_EXCL (flag 'wx') with its content in
//   the same call, so of two daemons exactly one creates it;
// - a lock whose pid is gone (a SIGKILLed daemon) is stale and taken over: it is first renamed
//   aside (atomic) and that renamed file checked to be the stale one read, so two daemons taking
//   over one stale lock cannot both win; a pid equal to our own that this process does not hold is
//   a previous incarnation's (a container restarted with the same pid) and stale too;
// - a lock file that cannot be read as one (empty, corrupt) is never removed automatically: the
//   error names the file to remove;
// - release() removes the file only while it is still ours (our token), is idempotent, and also
//   runs on process exit (a second Ctrl-C exits at once).
import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import { OddsmakerError } from '../core/errors.js';
import { isMemoryPath } from './sqlite.js';

export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly startedAt: string;
  readonly token: string;
}

export class LedgerLockedError extends OddsmakerError {
  readonly lockPath: string;
  readonly holderPid: number | null;
  constructor(lockPath: string, holderPid: number | null, message: string) {
    super('LEDGER_LOCKED', message, false);
    this.lockPath = lockPath;
    this.holderPid = holderPid;
  }
}

export interface LedgerLock {
  /** The lock file ('' for an in-memory ledger, which needs none). */
  readonly path: string;
  /** The pid of a stale lock that was taken over, or null. */
  readonly staleFrom: number | null;
  release(): void;
}

export interface LockOptions {
  /** Whether a process is alive (default: signal 0). */
  readonly isAlive?: (pid: number) => boolean;
  readonly pid?: number;
}

/** Lock files this process holds (pid and resolved path): a second lock in one process is refused too. */
const held = new Set<string>();

export function lockPathOf(ledgerPath: string): string {
  return `${ledgerPath}.lock`;
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseHolder(text: string): LockHolder | null {
  try {
    const v = JSON.parse(text) as Partial<LockHolder>;
    if (typeof v.pid !== 'number' || !Number.isSafeInteger(v.pid) || v.pid <= 0 || typeof v.token !== 'string')
      return null;
    return { pid: v.pid, host: String(v.host ?? '?'), startedAt: String(v.startedAt ?? '?'), token: v.token };
  } catch {
    return null;
  }
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function heldBy(lockPath: string, ledgerPath: string, h: LockHolder): LedgerLockedError {
  return new LedgerLockedError(
    lockPath,
    h.pid,
    `ledger ${ledgerPath} is in use by another daemon: pid ${h.pid} on ${h.host} (since ${h.startedAt}) holds ${lockPath}; ` +
      'stop that daemon first, or point ledger.path (or --ledger) at another file. Nothing was started. ' +
      `If pid ${h.pid} is not an oddsmaker daemon, remove ${lockPath}`,
  );
}

/** Takes the lock of the ledger at `ledgerPath`; throws LedgerLockedError when another holds it. */
export function lockLedger(ledgerPath: string, opts: LockOptions = {}): LedgerLock {
  if (isMemoryPath(ledgerPath)) return { path: '', staleFrom: null, release: () => undefined };
  const isAlive = opts.isAlive ?? processAlive;
  const pid = opts.pid ?? process.pid;
  const lockPath = lockPathOf(ledgerPath);
  const key = `${pid} ${resolve(lockPath)}`;
  if (held.has(key))
    throw new LedgerLockedError(lockPath, pid, `ledger ${ledgerPath} is already locked by this process (pid ${pid})`);
  mkdirSync(dirname(lockPath), { recursive: true });
  const me: LockHolder = { pid, host: hostname(), startedAt: new Date().toISOString(), token: randomUUID() };
  const content = `${JSON.stringify(me)}\n`;
  let staleFrom: number | null = null;
  // Each round either creates the file or finds a holder; a stale holder is moved aside and the
  // next round tries again. Bounded: only a race with other daemons takes more than two.
  for (let round = 0; round < 5; round++) {
    try {
      writeFileSync(lockPath, content, { flag: 'wx', mode: 0o644 });
      return acquired(lockPath, key, me.token, staleFrom);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const text = readText(lockPath);
    if (text === null) continue; // released meanwhile
    const h = parseHolder(text);
    if (h === null) {
      throw new LedgerLockedError(
        lockPath,
        null,
        `ledger ${ledgerPath} is locked by ${lockPath}, which does not name its holder (${JSON.stringify(text.slice(0, 60))}); ` +
          `if no daemon runs on this ledger, remove ${lockPath}. Nothing was started`,
      );
    }
    if (isAlive(h.pid) && h.pid !== pid) throw heldBy(lockPath, ledgerPath, h);
    // Stale: move that very file aside, then make sure it is the one judged stale.
    const aside = `${lockPath}.stale-${pid}-${randomUUID().slice(0, 8)}`;
    try {
      renameSync(lockPath, aside);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    const moved = readText(aside);
    if (moved !== text) {
      // Another daemon took the lock between our read and our rename: give it back, and yield.
      try {
        linkSync(aside, lockPath);
      } catch {
        /* a third one holds it now */
      }
      try {
        unlinkSync(aside);
      } catch {
        /* gone */
      }
      const other = moved === null ? null : parseHolder(moved);
      if (other !== null) throw heldBy(lockPath, ledgerPath, other);
      continue;
    }
    unlinkSync(aside);
    staleFrom = h.pid;
  }
  throw new LedgerLockedError(
    lockPath,
    null,
    `ledger ${ledgerPath}: could not take ${lockPath} (other daemons are taking it); nothing was started`,
  );
}

function acquired(lockPath: string, key: string, token: string, staleFrom: number | null): LedgerLock {
  held.add(key);
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    held.delete(key);
    process.off('exit', release);
    try {
      const text = readText(lockPath);
      if (text !== null && parseHolder(text)?.token === token) unlinkSync(lockPath);
    } catch {
      /* best effort: a lock left behind is stale once we are gone */
    }
  };
  process.on('exit', release);
  return { path: lockPath, staleFrom, release };
}
