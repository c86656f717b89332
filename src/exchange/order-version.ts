// The exchange's order version against the one we sign. The official client reads GET /version
// (`{version}`; 2 when absent) before it signs and, on an answer carrying `order_version_mismatch`,
// re-reads it and signs again in the new version (@polymarket/clob-client-v2 v1.1.0 dist/client.js:
// getVersion, resolveVersion, _isOrderVersionMismatch, _retryOnVersionUpdate; the text is
// ORDER_VERSION_MISMATCH_ERROR in dist/constants.js). We sign one version only (the EIP-712 domain
// version "2" of ExchangeOrderBuilderV2: signing/eip712.ts), so a daemon facing
// another one cannot re-sign: it stops quoting and says why, once, instead of retrying orders the
// exchange will refuse. Pure helpers; the daemon holds the state.

/** The order version our signing produces (clob-client-v2 createOrder's version 2). */
export const SUPPORTED_ORDER_VERSION = 2;

/** The exchange's error text for an order of a version it no longer accepts. */
export const ORDER_VERSION_MISMATCH = 'order_version_mismatch';

/** True when an error (or an answer's error text) is the exchange's order-version mismatch. */
export function isOrderVersionMismatch(e: unknown): boolean {
  if (typeof e === 'string') return e.includes(ORDER_VERSION_MISMATCH);
  if (e instanceof Error)
    return e.message.includes(ORDER_VERSION_MISMATCH) || isOrderVersionMismatch((e as { body?: unknown }).body);
  if (typeof e === 'object' && e !== null) {
    try {
      return JSON.stringify(e).includes(ORDER_VERSION_MISMATCH);
    } catch {
      return false;
    }
  }
  return false;
}

/** Why quoting stops when the exchange reports `version` (null when we sign that version). */
export function unsupportedVersionReason(version: number): string | null {
  if (version === SUPPORTED_ORDER_VERSION) return null;
  return `the exchange accepts order version ${version}, we sign version ${SUPPORTED_ORDER_VERSION}: upgrade oddsmaker`;
}
