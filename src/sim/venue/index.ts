// Public surface of the simulated venue (no HTTP): the Venue, its options and views, the flow
// control surface, the API-key store and the test-account helpers.
export {
  DEFAULT_RETAIN_FINISHED_MS,
  Venue,
  type VenueOptions,
  type TestAccount,
  type PlaceRequest,
  type OrderView,
} from './venue.js';
export {
  DriverFlow,
  driverFlowFactory,
  FLOW_INTENSITIES,
  isFlowIntensity,
  NoFlow,
  type FlowControl,
  type FlowContext,
  type FlowFactory,
  type FlowIntensity,
  type FlowState,
} from './flow.js';
export { ApiKeyStore } from './keys.js';
export { deriveWallet, serverSecretFor, TEST_ACCOUNT_COLLATERAL, type WalletKey } from './account.js';
export { DEFAULT_SAMPLE_INTERVAL_MS, MidSampler } from './sampler.js';
export { WalletMap, FillRecorder, legTransactionHash, type FillStats } from './fills.js';
export type { OrderMeta } from './orders-index.js';
export {
  DEFAULT_SETTLEMENT,
  parseSettlementSpec,
  Settlement,
  SettlementConfigError,
  settlementConfig,
  type SettledTrade,
  type SettlementConfig,
  type SettlementStats,
} from './settlement.js';
export {
  DEFAULT_HEARTBEAT_EXPIRY_MS,
  HeartbeatMonitor,
  MSG_INVALID_HEARTBEAT,
  type HeartbeatResult,
  type HeartbeatStats,
} from './heartbeat.js';
