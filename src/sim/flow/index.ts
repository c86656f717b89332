// Public surface of the synthetic order flow (no HTTP). The venue builds one FlowDriver over the
// matching engine and the clock, hands it the markets (flowMarketsFromWorld), calls start(), and
// maps `--flow none|low|normal|high` through parseFlowIntensity. Invariant: this file only
// re-exports.
export { FlowDriver, FlowError, type FlowOptions, type FlowStats } from './driver.js';
export type { FlowAccount, FlowMarket } from './market-flow.js';
export type { FlowCounters, FlowRole, RoleCounters } from './context.js';
export {
  FLOW_INTENSITIES,
  FlowConfigError,
  flowPreset,
  isSilent,
  parseFlowIntensity,
  resolveFlowParams,
  type FlowIntensity,
  type FlowOverrides,
  type FlowParams,
  type FundingParams,
  type InformedParams,
  type LatentParams,
  type LpProfile,
  type NoiseParams,
} from './params.js';
export { flowMarketsFromWorld } from './from-world.js';
