// Registers every command of the CLI on the program, in the order `--help` lists them.
// A new command: one file in src/cli exporting register(program), added here.
import type { Command } from 'commander';

export function registerAll(_program: Command): void {
  // Commands are added here as they land.
}
