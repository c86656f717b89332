// Authentication of the simulator's requests (docs/protocol.md §1–2). L2: the trading routes and order
// lookup carry five prefixed headers and an HMAC over `timestamp + METHOD + path + body`, checked
// with verifyL2Headers against the exact body text received and the path without its query; any
// failure (missing or malformed header, unknown key, wrong passphrase or address, wrong signature,
// timestamp more than 30 s from the server clock) answers 401 `Unauthorized/Invalid api key`.
// L1: key creation and derivation carry an EIP-712 ClobAuth signature, recovered and checked
// against the ADDRESS header, with the same freshness rule.
// Invariants kept here: time is the injected clock's; the failure reason (which names a header,
// never a value) is kept on the request for diagnostics but not sent; a request that passed L2
// carries `request.l2` = {apiKey, address, owner}.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock.js';
import { recoverL1Address, type L1RecoverResult } from '../../exchange/auth/l1.js';
import { verifyL2Headers, type IncomingHeaders } from '../../exchange/auth/l2.js';
import type { Dialect } from '../../exchange/dialect.js';
import { Venue } from '../venue/index.js';
import { MSG_UNAUTHORIZED, sendError } from './errors.js';

/** Permitted |server now − TIMESTAMP| (docs/protocol.md §1). */
export const MAX_SKEW_SEC = 30;

export interface L2Identity {
  readonly apiKey: string;
  /** Checksummed wallet address of the key. */
  readonly address: string;
  /** Engine account of the key's wallet. */
  readonly owner: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    l2: L2Identity | undefined;
    /** Why authentication failed (names a header, never a value). */
    authFailure: string | undefined;
  }
}

/** The request path as sent: no query string. */
export function requestPath(req: FastifyRequest): string {
  const q = req.url.indexOf('?');
  return q < 0 ? req.url : req.url.slice(0, q);
}

export class Authenticator {
  constructor(
    private readonly venue: Venue,
    private readonly clock: Clock,
    private readonly dialect: Dialect,
  ) {}

  private nowSec(): number {
    return Math.floor(this.clock.now() / 1000);
  }

  /** Checks L2 headers; the identity or the failure reason. */
  verifyL2(req: FastifyRequest): { ok: true; id: L2Identity } | { ok: false; reason: string } {
    const r = verifyL2Headers({
      dialect: this.dialect,
      headers: req.headers as IncomingHeaders,
      method: req.method,
      path: requestPath(req),
      body: req.rawBody,
      nowSec: this.nowSec(),
      maxSkewSec: MAX_SKEW_SEC,
      lookupCredentials: (key) => this.venue.keys.lookup(key),
    });
    if (!r.ok) return r;
    return { ok: true, id: { apiKey: r.apiKey, address: r.address, owner: Venue.ownerOf(r.address) } };
  }

  /** A fastify preHandler: 401 unless the request carries valid L2 headers. */
  readonly l2PreHandler = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const r = this.verifyL2(req);
    if (r.ok) {
      req.l2 = r.id;
      return;
    }
    req.authFailure = r.reason;
    await sendError(reply, 401, MSG_UNAUTHORIZED);
  };

  /** Checks L1 headers (ClobAuth signature by the ADDRESS header, fresh timestamp). */
  verifyL1(req: FastifyRequest): L1RecoverResult {
    return recoverL1Address(req.headers as IncomingHeaders, this.dialect, {
      nowSec: this.nowSec(),
      maxSkewSec: MAX_SKEW_SEC,
    });
  }
}
