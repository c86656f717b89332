// The shutdown path of `oddsmaker run` (src/cli/shutdown.ts, used by run.ts's signal handlers and
// its failed-start path): a step that fails is logged and sets the exit code, the later steps
// still run, the promise never rejects, and no 'unhandledRejection' is ever emitted. A failed
// start rethrows its own error, not a clean-up error.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failedStart, shutdown, type ShutdownParts } from '../../src/cli/shutdown.js';

interface Probe {
  parts: ShutdownParts;
  calls: string[];
  errors: string[];
  infos: string[];
  exitCodes: number[];
}

function probe(
  o: {
    stop?: () => Promise<{ timedOut: boolean; remainingLive: unknown[] }>;
    ops?: Promise<{ close(): Promise<void> } | null>;
    close?: () => Promise<void>;
  } = {},
): Probe {
  const calls: string[] = [];
  const errors: string[] = [];
  const infos: string[] = [];
  const exitCodes: number[] = [];
  const parts: ShutdownParts = {
    stop: async () => {
      calls.push('stop');
      return (o.stop ?? (async () => ({ timedOut: false, remainingLive: [] })))();
    },
    ops:
      o.ops ??
      Promise.resolve({
        close: async () => {
          calls.push('ops.close');
        },
      }),
    close: async () => {
      calls.push('close');
      await o.close?.();
    },
    log: {
      info: (_o, m) => {
        infos.push(m ?? '');
      },
      error: (_o, m) => {
        errors.push(m ?? '');
      },
    },
    setExitCode: (c) => {
      exitCodes.push(c);
    },
  };
  return { parts, calls, errors, infos, exitCodes };
}

/** Lets every pending rejection reach the process's 'unhandledRejection' check. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}

const boom = (what: string) => async (): Promise<never> => {
  throw new Error(what);
};

describe('run shutdown', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
  });

  it('a runtime close that fails: logged, exit code 1, resolves, no unhandled rejection', async () => {
    const p = probe({ close: boom('ledger flush failed') });
    await expect(shutdown(p.parts)).resolves.toBeUndefined();
    await settle();
    expect(p.calls).toEqual(['stop', 'ops.close', 'close']);
    expect(p.errors).toEqual(['closing the runtime failed']);
    expect(p.exitCodes).toEqual([1]);
    expect(p.infos).toContain('shutdown complete');
    expect(unhandled).toEqual([]);
  });

  it('a failed stop and a failed ops close do not skip the runtime close', async () => {
    const p = probe({ stop: boom('stop'), ops: Promise.resolve({ close: boom('ops close') }) });
    await shutdown(p.parts);
    await settle();
    expect(p.calls).toEqual(['stop', 'close']);
    expect(p.errors).toEqual(['stop failed', 'closing the ops server failed']);
    expect(p.exitCodes).toEqual([1, 1]);
    expect(unhandled).toEqual([]);
  });

  it('a clean stop leaves the exit code alone; orders left live make it 1', async () => {
    const clean = probe();
    await shutdown(clean.parts);
    expect(clean.exitCodes).toEqual([]);
    expect(clean.errors).toEqual([]);
    const left = probe({ stop: async () => ({ timedOut: false, remainingLive: ['0xabc'] }) });
    await shutdown(left.parts);
    expect(left.exitCodes).toEqual([1]);
  });

  it('an ops server that failed to start is not reported again as a close failure', async () => {
    const failedOps = Promise.reject(new Error('EADDRINUSE'));
    failedOps.catch(() => undefined); // the start path awaits (and reports) it
    const p = probe({ ops: failedOps });
    await shutdown(p.parts);
    expect(p.errors).toEqual([]);
    expect(p.calls).toEqual(['stop', 'close']);
  });

  it('a failed start rethrows its own error after closing everything, even when a close fails', async () => {
    const p = probe({ close: boom('close') });
    const startErr = new Error('port taken');
    await expect(failedStart(p.parts, true, startErr)).rejects.toBe(startErr);
    await settle();
    expect(p.calls).toEqual(['stop', 'ops.close', 'close']);
    expect(p.errors).toEqual(['closing the runtime failed']);
    expect(unhandled).toEqual([]);
    const notStarted = probe();
    await expect(failedStart(notStarted.parts, false, startErr)).rejects.toBe(startErr);
    expect(notStarted.calls).toEqual(['ops.close', 'close']);
  });
});
