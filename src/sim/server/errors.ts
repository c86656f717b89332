// Error answers of the simulator (interface §7, docs/protocol.md §4): the two body shapes, the texts the
// protocol fixes, and the status codes. Invariants kept here:
// - every error the server sends is JSON in one of the two shapes: `{error}` (trading, market data,
//   order lookup, portfolio, leaderboard, L1 keys, /_sim/) or `{type, error}` with type
//   `bad request` / `not found error` (catalog, comment, tag and event routes);
// - statuses are docs/protocol.md §4's: 400 bad request or business rule, 401 auth, 404 not found,
//   425 engine restarting, 429 throttled, 500 internal, 503 unavailable. The portfolio IP allowlist
//   answers 401 (`unauthorized: ip_not_allowlisted` is an authorisation failure, and §4 gives auth
//   failures 401); a body over the size limit answers 400 (a bad request; §4 names no 413);
// - an error text never quotes a secret (headers are named, never echoed).
import type { FastifyReply } from 'fastify';
import { OddsmakerError } from '../../core/errors.js';
import { ORDER_VERSION_MISMATCH } from '../../exchange/order-version.js';
import type { WireCatalogErrorBody, WireErrorBody } from '../../exchange/wire.js';

/** A /_sim/ control request carries an invalid field: answered 400 with this message. */
export class SimRequestError extends OddsmakerError {
  constructor(message: string) {
    super('SIM_BAD_REQUEST', message, false);
  }
}

export const MAX_ORDERS_PER_CALL = 15;
export const MAX_TOKENS_PER_CALL = 500;

export const MSG_UNAUTHORIZED = 'Unauthorized/Invalid api key';
export const MSG_INVALID_ORDER_PAYLOAD = 'Invalid order payload';
export const MSG_OWNER_MISMATCH = 'the order owner has to be the owner of the API KEY';
/**
 * The order's `signer` field is not the API key's address (401), or (type 3) not a deposit wallet
 * of the key's owner; the public exchange's text (Polymarket/py-clob-client-v2 issues #65, #77).
 */
export const MSG_SIGNER_MISMATCH = 'the order signer address has to be the address of the API KEY';
/** Not fixed by the protocol: the signature does not recover to the order's `signer` (401). */
export const MSG_BAD_ORDER_SIGNATURE = 'invalid order signature: it was not made by the order signer';
/**
 * A non-deposit-wallet order where the exchange requires the deposit wallet (new API accounts):
 * the public exchange's text, as its users report it (Polymarket/py-clob-client-v2 issues #74, #83).
 */
export const MSG_DEPOSIT_WALLET_REQUIRED = 'maker address not allowed, please use the deposit wallet flow';
/** An order of a version the exchange no longer accepts (clob-client-v2 dist/constants.js ORDER_VERSION_MISMATCH_ERROR). */
export const MSG_ORDER_VERSION_MISMATCH = ORDER_VERSION_MISMATCH;
export const MSG_PAYLOAD_LIMIT = 'Payload exceeds the limit';
export const MSG_INVALID_PAYLOAD = 'Invalid payload';
export const MSG_THROTTLED = 'Too Many Requests';
export const MSG_IP_NOT_ALLOWLISTED = 'unauthorized: ip_not_allowlisted';
export const MSG_NO_ORDERBOOK = 'No orderbook exists for the requested token id';
export const MSG_ORDER_NOT_FOUND = 'Order not found';
export const MSG_L1_INVALID = 'Invalid L1 Request headers';

export function tooManyOrders(n: number): string {
  return `Too many orders in payload: ${n}, max allowed: ${MAX_ORDERS_PER_CALL}`;
}

export function sendError(reply: FastifyReply, status: number, error: string): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ error } satisfies WireErrorBody);
}

export function sendCatalogError(reply: FastifyReply, status: 400 | 404, error: string): FastifyReply {
  const body: WireCatalogErrorBody = { type: status === 404 ? 'not found error' : 'bad request', error };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/** Paths whose errors take the catalog shape (interface §7). */
export function isCatalogPath(path: string): boolean {
  return /^\/(events|tags|public-search|comments)(\/|$)/.test(path) || /^\/markets\/[^/]+\/tags$/.test(path);
}

export function isPortfolioPath(path: string): boolean {
  return path === '/positions' || path === '/closed-positions';
}

/** The error text of an unexpected failure on a route (interface §7 fixes two of them). */
export function internalErrorText(path: string, detail: string): string {
  if (isPortfolioPath(path)) return `internal_error: ${detail}`;
  return 'internal_error';
}
