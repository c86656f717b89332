#!/usr/bin/env node
// Entry point of the `oddsmaker` CLI (commander). It builds the program from the command files,
// maps errors to exit codes (0 success, 1 failure, 2 usage or config error) and never prints a
// stack trace for an expected error.
import { Command, CommanderError } from 'commander';
import { OddsmakerError } from '../core/errors.js';
import { EXIT_FAILURE, EXIT_USAGE, isConfigErrorCode, UsageError } from './exit-codes.js';
import { registerAll } from './registry.js';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('oddsmaker')
    .description('Market-making daemon for prediction-market order books, with a bundled exchange simulator')
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride();
  registerAll(program);
  return program;
}

async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version exit through here with code 0.
      process.exitCode = err.exitCode === 0 ? 0 : EXIT_USAGE;
      return;
    }
    if (err instanceof UsageError || (err instanceof OddsmakerError && isConfigErrorCode(err.code))) {
      process.stderr.write(`oddsmaker: ${err.message}\n`);
      process.exitCode = EXIT_USAGE;
      return;
    }
    const msg = err instanceof Error ? err.message : String(err);
    process.stderr.write(`oddsmaker: ${msg}\n`);
    process.exitCode = EXIT_FAILURE;
  }
}

await main(process.argv);
