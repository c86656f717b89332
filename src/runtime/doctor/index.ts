// The preflight `oddsmaker doctor` runs (run.ts), its checks (one file per group) and its lines.
export { runDoctor, type DoctorVerdict, type RunDoctorOptions } from './run.js';
export { DEFAULT_MAX_SKEW_MS } from './context.js';
export { formatOutcome, type CheckOutcome } from './check.js';
