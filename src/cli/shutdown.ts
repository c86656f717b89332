// The orderly shutdown of `oddsmaker run` after a signal, and the clean-up after a failed start.
// Invariants kept here:
// - neither function can leave an unhandled rejection: every step is awaited and its failure
//   caught; a failure is logged (once, naming the step) and marks the exit as a failure;
// - a failed step never skips a later one: the ops server and the runtime are closed even when
//   the daemon's stop failed, so the ledger is flushed and the lock released on every way out;
// - a failed start rethrows the start's own error, never a clean-up error in its place.
import { EXIT_FAILURE } from './exit-codes.js';

export interface ShutdownLog {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ShutdownParts {
  /** Stops the daemon (cancel every live order, drain, flush); its report decides the exit code. */
  stop(): Promise<{ readonly timedOut: boolean; readonly remainingLive: readonly unknown[] }>;
  /** The ops server, if one was (being) started; a failed start resolves or rejects it. */
  readonly ops: Promise<{ close(): Promise<void> } | null>;
  /** Closes the runtime (ledger, limiter, simulator, ...). */
  close(): Promise<void>;
  readonly log: ShutdownLog;
  /** Sets the process's exit code (process.exitCode in the CLI). */
  setExitCode(code: number): void;
}

/** Runs one clean-up step; a failure is logged and makes the exit a failure. Never rejects. */
async function step(
  p: Pick<ShutdownParts, 'log' | 'setExitCode'>,
  what: string,
  fn: () => Promise<unknown>,
): Promise<void> {
  try {
    await fn();
  } catch (err) {
    p.log.error({ err }, `${what} failed`);
    p.setExitCode(EXIT_FAILURE);
  }
}

/** Closes the ops server if it started; one that failed to start has nothing to close (that
 *  failure is the start's error, reported where the start was awaited). */
async function closeOps(ops: ShutdownParts['ops']): Promise<void> {
  const server = await ops.catch(() => null);
  await server?.close();
}

/** Stop, close the ops server, close the runtime. Resolves when all ran; never rejects. */
export async function shutdown(p: ShutdownParts): Promise<void> {
  await step(p, 'stop', async () => {
    const rep = await p.stop();
    // 0 only when nothing of ours is left live (the stop line names what is, and where).
    if (rep.timedOut || rep.remainingLive.length > 0) p.setExitCode(EXIT_FAILURE);
  });
  await step(p, 'closing the ops server', () => closeOps(p.ops));
  await step(p, 'closing the runtime', () => p.close());
  p.log.info({}, 'shutdown complete');
}

/**
 * After a failed start: stops the daemon if it started, closes the ops server and the runtime
 * (each failure logged), then rethrows the start's error.
 */
export async function failedStart(p: ShutdownParts, started: boolean, err: unknown): Promise<never> {
  if (started) await step(p, 'stop after a failed start', () => p.stop());
  await step(p, 'closing the ops server', () => closeOps(p.ops));
  await step(p, 'closing the runtime', () => p.close());
  throw err;
}
