// Service routes of docs/protocol.md §8 that the interface names only in its limits table or that
// Polymarket's official client calls: GET / (health), /time, /version, /tick-size, /neg-risk.
// Their answers are tiny, so they are parsed here with A's field readers. Invariants: a tick
// size must be one docs/protocol.md §3 lists (a Price in millionths), server time is whole Unix
// seconds, and GET / is healthy only when it answers "OK" (as JSON or as plain text).
import type { Price } from '../../core/money.js';
import { ParseError } from '../../core/errors.js';
import { isKnownTick } from '../../core/tick.js';
import { ExchangeResponseError } from '../errors.js';
import { encodeQuery } from '../params/spec.js';
import { TOKEN_ONLY } from '../params/tables.js';
import { parsePublicTickSizeResponse } from '../parse/public-reads.js';
import { at, bool, nonNegInt, obj, priceOf } from '../parse/read.js';
import type { CallOptions, ClientCore } from './core.js';
import { ROUTES } from './routes.js';

export function parseTickSizeResponse(json: unknown): Price {
  const path = 'minimum_tick_size';
  const tick = priceOf(obj(json, '')[path], path, 'half-even');
  if (!isKnownTick(tick)) throw new ParseError(path, `not a tick in use: ${String(tick)} millionths`);
  return tick;
}

export function parseNegRiskResponse(json: unknown): boolean {
  return bool(obj(json, '')['neg_risk'], 'neg_risk');
}

export function parseVersionResponse(json: unknown): number {
  return nonNegInt(obj(json, '')['version'], at('', 'version'));
}

/** Unix seconds. */
export function parseTimeResponse(json: unknown): number {
  return nonNegInt(json, '');
}

/** Resolves to "OK" when the exchange reports itself healthy; anything else is an error. */
export async function healthCheck(core: ClientCore, options?: CallOptions): Promise<'OK'> {
  const text = (await core.callText({ route: ROUTES.health, path: '/', options })).trim();
  if (text === 'OK' || text === '"OK"') return 'OK';
  throw new ExchangeResponseError({
    code: 'EXCHANGE_BAD_RESPONSE',
    route: ROUTES.health.key,
    status: 200,
    message: `${ROUTES.health.key}: unexpected health answer ${JSON.stringify(text.slice(0, 50))}`,
    retryable: true,
  });
}

export async function getServerTime(core: ClientCore, options?: CallOptions): Promise<number> {
  return core.call({ route: ROUTES.time, path: '/time', parse: parseTimeResponse, options });
}

export async function getVersion(core: ClientCore, options?: CallOptions): Promise<number> {
  return core.call({ route: ROUTES.version, path: '/version', parse: parseVersionResponse, options });
}

export async function getTickSize(core: ClientCore, tokenId: string, options?: CallOptions): Promise<Price> {
  const query = encodeQuery(TOKEN_ONLY(ROUTES.tickSize.key), { token_id: tokenId });
  // The public exchange may send the tick as a number or a decimal string (parse/public-reads.ts).
  const parse = core.signing.dialect.readWire === 'public' ? parsePublicTickSizeResponse : parseTickSizeResponse;
  return core.call({ route: ROUTES.tickSize, path: '/tick-size', query, parse, options });
}

export async function getNegRisk(core: ClientCore, tokenId: string, options?: CallOptions): Promise<boolean> {
  const query = encodeQuery(TOKEN_ONLY(ROUTES.negRisk.key), { token_id: tokenId });
  return core.call({ route: ROUTES.negRisk, path: '/neg-risk', query, parse: parseNegRiskResponse, options });
}
