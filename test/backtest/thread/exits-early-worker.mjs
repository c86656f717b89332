// A backtest thread for run-thread.test.ts that exits before it answers.
process.exit(3);
