// `npm run chaos`: issue 12's chaos scenarios at full size (test/chaos/sizes.ts FULL: (a) 30
// SIGKILLs, (b) 60 markets × 10 levels for 100 s, (c) 100 markets × 20 levels with a short order
// age for 2 minutes), one `CHAOS <scenario>.<name> <value> <unit>` line per figure, then one
// `CHAOS <scenario>.failed_checks <n> checks` line and a `# FAIL` line per condition of the issue
// that does not hold. Exit code 0 when every condition holds, 1 otherwise.
//   node dist/bench/chaos.js [a] [b] [c] [--suite]     (default: all three; --suite: the suite's sizes)
// Not a *.bench.ts module: `npm run bench` does not run it. Children listen on 127.0.0.1 only.
import { killAll } from '../test/chaos/harness.js';
import { formatFigures, type RunResult } from '../test/chaos/figures.js';
import { runChurn, runKills } from '../test/chaos/scenarios.js';
import { CHECKS, failedChecks, figure, FULL, SUITE, type Check } from '../test/chaos/sizes.js';

const args = process.argv.slice(2);
const sizes = args.includes('--suite') ? SUITE : FULL;
const wanted = args.filter((a) => !a.startsWith('--'));
const want = (s: string): boolean => wanted.length === 0 || wanted.includes(s);

function print(scenario: string, r: RunResult, checks: readonly Check[]): number {
  process.stdout.write(`${formatFigures(scenario, r.figures)}\n`);
  const failed = failedChecks(checks, r.figures);
  process.stdout.write(`CHAOS ${scenario}.failed_checks ${failed.length} checks\n`);
  for (const c of failed)
    process.stdout.write(
      `# FAIL ${scenario}: ${c.name} = ${figure(r.figures, c.name)}, expected ${c.expected} (${c.why})\n`,
    );
  process.stdout.write(`# ${scenario}: warnings ${JSON.stringify(r.problems)}; files in ${r.dir}\n`);
  return failed.length;
}

let failures = 0;
try {
  if (want('a')) failures += print('a', await runKills(sizes.kills), CHECKS.kills);
  if (want('b')) failures += print('b', await runChurn(sizes.churn), CHECKS.churn);
  if (want('c')) failures += print('c', await runChurn(sizes.age), CHECKS.age);
} catch (err) {
  failures++;
  process.stdout.write(`# chaos run failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
} finally {
  await killAll();
}
process.exitCode = failures === 0 ? 0 : 1;
