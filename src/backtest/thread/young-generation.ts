// How large a backtest thread's young generation is, in MB (V8's new space: two semi-spaces of a
// third each, and the large-object space beside them). Node 20 gives a thread 48 MB (16 MB
// semi-spaces). A replay's cycle allocates its strategy input, books, quotes and lookups, which
// live for about one cycle; with 16 MB semi-spaces scavenges come every few 50-market cycles and
// copy (and promote) what is still alive at each. With 64 MB semi-spaces most of it has died by
// the next scavenge (on the day, scavenges are then 7.2 s of 94 s; mark-compact 0.1 s).
//
// Measured (2-core VM, same build, alternated runs): a 50-market synthetic hour (oddsmaker synth,
// poll 1 s, bands, queue-probabilistic) 4.98–5.59 s with the default against 3.30–3.67 s at 192 MB;
// the 50-market day 121.6 s at 2.67 GB peak RSS against 92.8 s at 2.18 GB (same report.json). The
// one-market benches gain about 5 %. A run costs up to the 192 MB more RSS while it runs.
// Both ways a backtest runs on a thread of its own use it: `oddsmaker backtest` (run-thread.ts)
// and the sweep's workers (sweep/pool.ts).
export const BACKTEST_YOUNG_GENERATION_MB = 192;

/**
 * A backtest thread's V8 limits: the young generation above, and the old generation's limit when
 * the user gives one (`--max-heap-mb`; absent: Node's, about 4 GB, or --max-old-space-size).
 */
export function backtestThreadLimits(maxHeapMb?: number): {
  maxYoungGenerationSizeMb: number;
  maxOldGenerationSizeMb?: number;
} {
  return {
    maxYoungGenerationSizeMb: BACKTEST_YOUNG_GENERATION_MB,
    ...(maxHeapMb !== undefined ? { maxOldGenerationSizeMb: maxHeapMb } : {}),
  };
}

/** Whether a worker thread's error is V8 stopping it at its heap limit. */
export function isOutOfHeap(err: Error & { code?: string }): boolean {
  return err.code === 'ERR_WORKER_OUT_OF_MEMORY';
}

/** What to tell a user whose run's thread ran out of heap. */
export const OUT_OF_HEAP_HINT =
  "the backtest's thread ran out of heap: give it more with --max-heap-mb <MB> (the machine's memory allowing), or split the run by time or by markets";
