// L1 key routes of docs/protocol.md §2: POST /auth/api-key (create) and GET /auth/derive-api-key
// (derive, deterministic for address + nonce). The caller brings L1 headers already built
// (engineer C's buildL1Headers); this file only sends them. Invariants: the answer holds
// secrets, so a malformed one is reported without quoting the parser's message; create is
// never retried (a retry could mint a second key), derive is a read and may be.
import type { ApiKeyCreds } from '../../core/market.js';
import { parseApiKeyCreds } from '../parse/index.js';
import type { CallOptions, ClientCore } from './core.js';
import { ROUTES } from './routes.js';

export type L1Headers = Record<string, string> | (() => Record<string, string>);

export async function createApiKey(
  core: ClientCore,
  l1Headers: L1Headers,
  options?: CallOptions,
): Promise<ApiKeyCreds> {
  return core.call({
    route: ROUTES.createApiKey,
    path: '/auth/api-key',
    headers: l1Headers,
    parse: parseApiKeyCreds,
    secret: true,
    options,
  });
}

export async function deriveApiKey(
  core: ClientCore,
  l1Headers: L1Headers,
  options?: CallOptions,
): Promise<ApiKeyCreds> {
  return core.call({
    route: ROUTES.deriveApiKey,
    path: '/auth/derive-api-key',
    headers: l1Headers,
    parse: parseApiKeyCreds,
    secret: true,
    options,
  });
}
