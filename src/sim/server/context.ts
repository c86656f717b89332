// What every route group of the simulator's HTTP server shares: the venue, the clock, the dialect,
// authentication, the order-signature verifier, and the edge features (allowlist, faults,
// throttle). Built once by app.ts; routes read it, only /_sim/ routes change the fault settings.
import type { FastifyReply } from 'fastify';
import type { Clock } from '../../core/clock.js';
import type { Dialect } from '../../exchange/dialect.js';
import type { Venue } from '../venue/index.js';
import type { QueryResult, RawQuery } from '../world/index.js';
import type { IpAllowlist } from './allowlist.js';
import type { Authenticator } from './auth.js';
import type { FaultInjector } from './faults.js';
import type { OrderSignatureVerifier } from './sig-verify.js';
import type { SignerGate } from './signer-gate.js';
import type { EdgeGate } from './throttle.js';
import type { ExchangeState } from './exchange-state.js';

export interface ServerContext {
  readonly venue: Venue;
  readonly clock: Clock;
  readonly dialect: Dialect;
  readonly auth: Authenticator;
  readonly verifier: OrderSignatureVerifier;
  readonly allowlist: IpAllowlist;
  readonly faults: FaultInjector;
  /** null when limits are off. */
  readonly throttle: EdgeGate | null;
  /** The exchange's per-signer trading buckets (polymarket dialect, limits on); null otherwise. */
  readonly signer: SignerGate | null;
  /** Version, clock skew, region, close-only, allowances and wallet registry (exchange-state.ts). */
  readonly exchange: ExchangeState;
  /** Records per page of the cursor-paged market listings. */
  readonly marketsPageSize: number;
}

/** Sends a world query's ready result. */
export function sendResult<T>(reply: FastifyReply, r: QueryResult<T>): FastifyReply {
  return reply.code(r.status).send(r.body);
}

/** The parsed query string as the world's queries take it (repeated keys as arrays). */
export function rawQuery(q: unknown): RawQuery {
  return (typeof q === 'object' && q !== null ? q : {}) as RawQuery;
}
