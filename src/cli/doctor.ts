// `oddsmaker doctor --config F`: the preflight a trader runs before going live (src/runtime/
// doctor/run.ts): one line per check on stdout, `OK <check>` or `FAIL <check>: <what is wrong>.
// Fix: <what to do>`; exit 0 only when nothing failed, 2 for an invalid config, 1 otherwise
// (src/cli/exit-codes.ts). Credentials come from the environment as for `oddsmaker run`.
import type { Command } from 'commander';
import { SystemClock } from '../core/clock.js';
import { DEFAULT_MAX_SKEW_MS, runDoctor } from '../runtime/doctor/index.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from './exit-codes.js';

interface DoctorCliOptions {
  config: string;
  maxSkewMs: string;
}

export function register(program: Command): void {
  program
    .command('doctor')
    .description(
      'check a live setup before going live: config, credentials, API key, account kind, exchange, order version, clock, region, close-only mode, collateral and allowances, markets, rate-limit tier',
    )
    .requiredOption('--config <file>', 'the config file `oddsmaker run` would use')
    .option('--max-skew-ms <ms>', "largest local clock skew from the exchange's allowed", String(DEFAULT_MAX_SKEW_MS))
    .action(async (o: DoctorCliOptions) => {
      const maxSkewMs = Number(o.maxSkewMs);
      if (!Number.isSafeInteger(maxSkewMs) || maxSkewMs < 0)
        throw new UsageError(`--max-skew-ms must be a non-negative integer, got ${JSON.stringify(o.maxSkewMs)}`);
      const verdict = await runDoctor({
        configPath: o.config,
        env: process.env,
        clock: new SystemClock(),
        maxSkewMs,
        print: (line) => {
          process.stdout.write(`${line}\n`);
        },
      });
      process.exitCode = verdict === 'ok' ? EXIT_OK : verdict === 'config-invalid' ? EXIT_USAGE : EXIT_FAILURE;
    });
}
