// Checks one order submission (interface §2.1–2.2, protocol.md §3–4) before it reaches the engine:
// shape, owner, market and signer here (synchronously), the EIP-712 signature through the
// verifier (asynchronously, in batches: `verifySubmissions`), then the price and size the signed
// amounts name. Outcomes:
// - request-level failure (the whole call fails): 400 `Invalid order payload` for a malformed
//   submission (missing or ill-typed field, unknown orderType, a conditionId that does not name the
//   market of tokenId, an EOA order whose maker is not its signer), 400
//   `the order owner has to be the owner of the API KEY` when `owner` is not the caller's API key,
//   401 when the order's `signer` is not the key's address or the signature was not made by it;
// - per-order rejection (a result with errorMsg): an unknown token, amounts that name no exact
//   price (`Invalid order payload`); the engine's own checks come after;
// - accepted: the PlaceRequest for the venue, with the order id (the EIP-712 digest).
// Invariants: the signature is verified over the digest of exactly the fields received, in the
// domain of the market's neg-risk flag; `conditionId` may be absent (Polymarket's client does not
// send it) and is then the token's market; salt is accepted as a string or a number; `postOnly`
// and `deferExec` must be booleans when present (the official client always sends both, `false` by
// default: clob-client-v2 orderToJsonV2); `deferExec` changes nothing here (every order is matched
// on arrival); other extra keys (`taker`) are ignored.
import { ParseError } from '../../core/errors.js';
import type { Dialect } from '../../exchange/dialect.js';
import { parseWireOrder, wireOrderId, type ParsedWireOrder } from '../../exchange/signing/index.js';
import { priceSizeFromAmounts, type OrderType } from '../engine/index.js';
import type { PlaceRequest, Venue } from '../venue/index.js';
import type { L2Identity } from './auth.js';
import {
  MSG_BAD_ORDER_SIGNATURE, MSG_INVALID_ORDER_PAYLOAD, MSG_OWNER_MISMATCH, MSG_SIGNER_MISMATCH,
} from './errors.js';
import type { OrderSignatureVerifier, VerifyJob } from './sig-verify.js';

const ORDER_TYPES: readonly OrderType[] = ['GTC', 'GTD', 'FOK', 'FAK'];

export type CheckedSubmission =
  | { readonly kind: 'place'; readonly request: PlaceRequest; readonly signature: string; readonly signer: string }
  | { readonly kind: 'reject'; readonly orderId: string; readonly message: string }
  | { readonly kind: 'fail'; readonly status: 400 | 401; readonly message: string };

const fail = (status: 400 | 401, message: string): CheckedSubmission => ({ kind: 'fail', status, message });

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The synchronous checks of one submission (the signature is checked by verifySubmissions). */
export function checkSubmission(item: unknown, who: L2Identity, venue: Venue, dialect: Dialect): CheckedSubmission {
  if (!isObject(item) || !isObject(item['order'])) return fail(400, MSG_INVALID_ORDER_PAYLOAD);
  const orderType = item['orderType'];
  const owner = item['owner'];
  const postOnly = item['postOnly'];
  const deferExec = item['deferExec'];
  if (typeof orderType !== 'string' || !(ORDER_TYPES as readonly string[]).includes(orderType)) return fail(400, MSG_INVALID_ORDER_PAYLOAD);
  if (typeof owner !== 'string') return fail(400, MSG_INVALID_ORDER_PAYLOAD);
  if (postOnly !== undefined && typeof postOnly !== 'boolean') return fail(400, MSG_INVALID_ORDER_PAYLOAD);
  if (deferExec !== undefined && typeof deferExec !== 'boolean') return fail(400, MSG_INVALID_ORDER_PAYLOAD);
  if (owner !== who.apiKey) return fail(400, MSG_OWNER_MISMATCH);

  const wire = item['order'];
  const tokenId = wire['tokenId'];
  if (typeof tokenId !== 'string') return fail(400, MSG_INVALID_ORDER_PAYLOAD);
  const ref = venue.token(tokenId);
  let order: Record<string, unknown> = wire;
  if (ref !== undefined) {
    const cid = wire['conditionId'];
    if (cid === undefined) order = { ...wire, conditionId: ref.market.conditionId };
    else if (typeof cid !== 'string' || cid.toLowerCase() !== ref.market.conditionId) return fail(400, MSG_INVALID_ORDER_PAYLOAD);
  } else if (wire['conditionId'] === undefined) {
    // Unknown token: parse with a placeholder so shape errors still come first.
    order = { ...wire, conditionId: `0x${'0'.repeat(64)}` };
  }

  let parsed: ParsedWireOrder;
  try {
    parsed = parseWireOrder(order, dialect);
  } catch (e) {
    if (e instanceof ParseError) return fail(400, MSG_INVALID_ORDER_PAYLOAD);
    throw e;
  }
  const f = parsed.fields;
  if (f.signer.toLowerCase() !== who.address.toLowerCase()) return fail(401, MSG_SIGNER_MISMATCH);
  if (f.signatureType === 0 && f.maker !== f.signer) return fail(400, MSG_INVALID_ORDER_PAYLOAD);
  if (ref === undefined) {
    // No market: no domain to hash in; the order cannot be matched anyway.
    return { kind: 'reject', orderId: '', message: MSG_INVALID_ORDER_PAYLOAD };
  }
  const id = wireOrderId(parsed, dialect, ref.market.negRisk);
  const ps = priceSizeFromAmounts(f.side, f.makerAmount, f.takerAmount);
  if (ps === null) return { kind: 'reject', orderId: id, message: MSG_INVALID_ORDER_PAYLOAD };
  return {
    kind: 'place',
    signature: parsed.signature,
    signer: f.signer,
    request: {
      id,
      owner: who.owner,
      tokenId: f.tokenId,
      side: f.side,
      price: ps.price,
      size: ps.size,
      orderType: orderType as OrderType,
      postOnly: postOnly === true,
      expirationSec: parsed.expirationSec ?? null,
      maker: f.maker,
      apiKey: who.apiKey,
    },
  };
}

/**
 * Verifies the signatures of the checked submissions that would be placed (one batch through the
 * verifier's workers): null when all are good, else the 401 failure of the whole call.
 */
export async function verifySubmissions(
  checked: readonly CheckedSubmission[], verifier: OrderSignatureVerifier,
): Promise<{ readonly status: 401; readonly message: string } | null> {
  const jobs: VerifyJob[] = [];
  for (const c of checked) {
    if (c.kind === 'place') jobs.push({ digest: c.request.id, signature: c.signature, signer: c.signer });
  }
  if (jobs.length === 0) return null;
  const ok = await verifier.verifyMany(jobs);
  return ok.every((x) => x) ? null : { status: 401, message: MSG_BAD_ORDER_SIGNATURE };
}
