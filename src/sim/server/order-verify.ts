// Checks one order submission (interface §2.1–2.2, docs/protocol.md §3–4) before it reaches the engine:
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
// Account kinds (src/exchange/signing/account-kind.ts; the registry is wallets.ts):
// - every kind: 400 `maker address not allowed, please use the deposit wallet flow` for a kind
//   other than 3 when the simulator requires deposit wallets (new API accounts on the exchange);
// - 0 EOA: signer = the key's address = maker; the signature recovers to it;
// - 1 proxy / 2 safe: signer = the key's address, the signature recovers to it, and the maker is
//   that key's wallet of that kind (else 401 as a bad signature: the exchange contract counts the
//   signer–wallet binding as part of signature validity, CTF exchange Signatures.sol);
// - 3 deposit wallet: signer = maker = a deposit wallet owned by the key's address (else 401
//   `the order signer address has to be the address of the API KEY`), and the ERC-7739 wrapper
//   checked as the wallet checks it (exchange/signing/deposit-wallet.ts): the appended domain
//   separator, contents hash and type string are the order's, and the inner signature recovers to
//   the owner over the TypedDataSign digest.
// Invariants: the signature is verified over the digest of exactly the fields received, in the
// domain of the market's neg-risk flag; `conditionId` may be absent (Polymarket's client does not
// send it) and is then the token's market; salt is accepted as a string or a number; `postOnly`
// and `deferExec` must be booleans when present (the official client always sends both, `false` by
// default: clob-client-v2 orderToJsonV2); `deferExec` changes nothing here (every order is matched
// on arrival); other extra keys (`taker`) are ignored.
import { ParseError } from '../../core/errors.js';
import type { OrderType } from '../../core/order.js';
import type { Dialect } from '../../exchange/dialect.js';
import {
  depositWalletDigest,
  depositWalletWrapProblem,
  parseWireOrder,
  unwrapDepositWalletSignature,
  wireOrderId,
  type ParsedWireOrder,
} from '../../exchange/signing/index.js';
import { priceSizeFromAmounts } from '../engine/index.js';
import type { PlaceRequest, Venue } from '../venue/index.js';
import type { L2Identity } from './auth.js';
import {
  MSG_BAD_ORDER_SIGNATURE,
  MSG_DEPOSIT_WALLET_REQUIRED,
  MSG_INVALID_ORDER_PAYLOAD,
  MSG_OWNER_MISMATCH,
  MSG_SIGNER_MISMATCH,
} from './errors.js';
import { WalletRegistry } from './wallets.js';

/** No deposit-wallet rule and only derived wallets (callers that pass no registry). */
const NO_WALLET_RULES = new WalletRegistry();
import type { OrderSignatureVerifier, VerifyJob } from './sig-verify.js';

const ORDER_TYPES: readonly OrderType[] = ['GTC', 'GTD', 'FOK', 'FAK'];

export type CheckedSubmission =
  | {
      readonly kind: 'place';
      readonly request: PlaceRequest;
      readonly signature: string;
      readonly signer: string;
      /** What the signature signs when it is not the order id (a deposit wallet's wrapper digest). */
      readonly signedDigest?: string;
    }
  | { readonly kind: 'reject'; readonly orderId: string; readonly message: string }
  | { readonly kind: 'fail'; readonly status: 400 | 401; readonly message: string };

const fail = (status: 400 | 401, message: string): CheckedSubmission => ({ kind: 'fail', status, message });

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The synchronous checks of one submission (the signature is checked by verifySubmissions). */
export function checkSubmission(
  item: unknown,
  who: L2Identity,
  venue: Venue,
  dialect: Dialect,
  wallets: WalletRegistry = NO_WALLET_RULES,
): CheckedSubmission {
  if (!isObject(item) || !isObject(item['order'])) return fail(400, MSG_INVALID_ORDER_PAYLOAD);
  const orderType = item['orderType'];
  const owner = item['owner'];
  const postOnly = item['postOnly'];
  const deferExec = item['deferExec'];
  if (typeof orderType !== 'string' || !(ORDER_TYPES as readonly string[]).includes(orderType))
    return fail(400, MSG_INVALID_ORDER_PAYLOAD);
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
    else if (typeof cid !== 'string' || cid.toLowerCase() !== ref.market.conditionId)
      return fail(400, MSG_INVALID_ORDER_PAYLOAD);
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
  const kind = f.signatureType;
  if (wallets.requireDepositWallet && kind !== 3) return fail(400, MSG_DEPOSIT_WALLET_REQUIRED);
  if (kind === 3) {
    if (f.signer !== f.maker || !wallets.owns(who.address, 3, f.signer)) return fail(401, MSG_SIGNER_MISMATCH);
  } else if (f.signer.toLowerCase() !== who.address.toLowerCase()) {
    return fail(401, MSG_SIGNER_MISMATCH);
  }
  if (kind === 0 && f.maker !== f.signer) return fail(400, MSG_INVALID_ORDER_PAYLOAD);
  if ((kind === 1 || kind === 2) && !wallets.owns(who.address, kind, f.maker))
    return fail(401, MSG_BAD_ORDER_SIGNATURE);
  if (ref === undefined) {
    // No market: no domain to hash in; the order cannot be matched anyway.
    return { kind: 'reject', orderId: '', message: MSG_INVALID_ORDER_PAYLOAD };
  }
  const id = wireOrderId(parsed, dialect, ref.market.negRisk);
  let signature = parsed.signature;
  let signedBy = f.signer;
  let signedDigest: string | undefined;
  if (kind === 3) {
    const order = { ...f, negRisk: ref.market.negRisk };
    const w = unwrapDepositWalletSignature(parsed.signature);
    if (w === null || depositWalletWrapProblem(w, order, dialect) !== null) return fail(401, MSG_BAD_ORDER_SIGNATURE);
    signature = w.inner;
    signedBy = who.address;
    signedDigest = depositWalletDigest(order, dialect);
  }
  const ps = priceSizeFromAmounts(f.side, f.makerAmount, f.takerAmount);
  if (ps === null) return { kind: 'reject', orderId: id, message: MSG_INVALID_ORDER_PAYLOAD };
  return {
    kind: 'place',
    signature,
    signer: signedBy,
    ...(signedDigest === undefined ? {} : { signedDigest }),
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
  checked: readonly CheckedSubmission[],
  verifier: OrderSignatureVerifier,
): Promise<{ readonly status: 401; readonly message: string } | null> {
  const jobs: VerifyJob[] = [];
  for (const c of checked) {
    if (c.kind === 'place')
      jobs.push({ digest: c.signedDigest ?? c.request.id, signature: c.signature, signer: c.signer });
  }
  if (jobs.length === 0) return null;
  const ok = await verifier.verifyMany(jobs);
  return ok.every((x) => x) ? null : { status: 401, message: MSG_BAD_ORDER_SIGNATURE };
}
