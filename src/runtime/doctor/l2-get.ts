// A signed GET (L2 headers, docs/protocol.md §1) for the account routes the exchange client has
// no method for: GET /auth/ban-status/closed-only and GET /v1/user/rate-limit-tier. The answer's
// status and JSON body (null when the body is not JSON); the secret signs, it is never sent.
import { buildL2Headers } from '../../exchange/auth/l2.js';
import { MissingCredentialsError } from '../../exchange/errors.js';
import type { DoctorContext } from './context.js';

export interface GetAnswer {
  readonly status: number;
  readonly body: unknown;
}

export async function signedGet(ctx: DoctorContext, path: string): Promise<GetAnswer> {
  if (ctx.credentials === null || ctx.address === null) throw new MissingCredentialsError(path, 'API credentials');
  const headers = buildL2Headers({
    dialect: ctx.dialect,
    credentials: ctx.credentials,
    address: ctx.address,
    method: 'GET',
    path,
    body: undefined,
    timestampSec: Math.floor(ctx.clock.now() / 1000),
  });
  return plainGet(ctx, `${ctx.clobUrl.replace(/\/+$/, '')}${path}`, headers);
}

export async function plainGet(
  ctx: DoctorContext,
  url: string,
  headers: Record<string, string> = {},
): Promise<GetAnswer> {
  const res = await ctx.fetch(url, {
    headers: { accept: 'application/json', ...headers },
    signal: AbortSignal.timeout(ctx.config.exchange.timeoutMs),
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the caller says what it expected
  }
  return { status: res.status, body };
}
