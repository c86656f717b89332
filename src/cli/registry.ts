// Registers every command of the CLI on the program, in the order `--help` lists them.
// A new command: one file in src/cli exporting register(program), added here.
import type { Command } from 'commander';
import { register as registerAction } from './action.js';
import { register as registerAuthHeaders } from './auth-headers.js';
import { register as registerBacktest } from './backtest.js';
import { register as registerDoctor } from './doctor.js';
import { register as registerImport } from './import.js';
import { register as registerOrderBuild } from './order-build.js';
import { register as registerRecord } from './record.js';
import { register as registerRun } from './run.js';
import { register as registerSim } from './sim.js';
import { register as registerStrategies } from './strategies.js';
import { register as registerStatus } from './status.js';
import { register as registerSynth } from './synth.js';

export function registerAll(program: Command): void {
  registerRun(program);
  registerStatus(program);
  registerAction(program);
  registerDoctor(program);
  registerSim(program);
  registerRecord(program);
  registerImport(program);
  registerSynth(program);
  registerBacktest(program);
  registerStrategies(program);
  registerOrderBuild(program);
  registerAuthHeaders(program);
}
