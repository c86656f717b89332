// A backtest thread for run-thread.test.ts that allocates until its heap limit stops it.
const keep = [];
for (;;) keep.push(new Array(100_000).fill(keep.length));
