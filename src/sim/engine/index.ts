// The matching engine's public surface: the engine facade, its domain types and messages, the
// amounts helper and the invariant audit. Fill rules are stated in engine.ts.
export { MatchingEngine, EngineError, type EngineOptions } from './engine.js';
export { BalanceError } from './accounts.js';
export { auditEngine } from './audit.js';
export { priceSizeFromAmounts } from './amounts.js';
export { LOT, buyNeed, notional } from './fees.js';
export * from './messages.js';
export type * from './types.js';
