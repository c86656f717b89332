// Comment queries: GET /comments/{id} (the replies of that comment) and
// GET /comments/user_address/{user_address} (every comment the wallet wrote, at any depth).
// Invariants kept here:
// - limit 1–100 (default 20), offset >= 0 (default 0); catalog error shapes (query.ts);
// - a non-numeric comment id or a malformed address is a bad request; an unknown comment id is
//   404 {type: "not found error"} naming the id; a well-formed address with no comments is [];
// - replies come oldest first (a thread reads in order), a user's comments newest first; ties by
//   numeric id, so paging is stable; each comment carries its whole nested reply tree.
import type { WireComment } from '../../exchange/wire.js';
import type { CommentRec } from './model.js';
import {
  CATALOG_STYLE,
  catalogBadRequest,
  catalogNotFound,
  fail,
  isAddress,
  page,
  Params,
  runQuery,
  type QueryResult,
  type RawQuery,
} from './query.js';
import { toWireComment } from './render-catalog.js';
import type { World } from './world.js';

const LIMIT = { min: 1, max: 100 } as const;
const OFFSET = { min: 0 } as const;

function paging(q: RawQuery): { limit: number; offset: number } {
  const p = new Params(q, CATALOG_STYLE).only(['limit', 'offset']);
  return { limit: p.int('limit', LIMIT, 20), offset: p.int('offset', OFFSET, 0) };
}

function chronological(a: CommentRec, b: CommentRec): number {
  return a.createdAtMs - b.createdAtMs || Number(a.id) - Number(b.id);
}

export function getCommentReplies(world: World, id: string, q: RawQuery): QueryResult<WireComment[]> {
  return runQuery(() => {
    const { limit, offset } = paging(q);
    if (!/^\d{1,15}$/.test(id)) fail(catalogBadRequest('invalid id: a comment id is a decimal integer'));
    const ref = world.comment(id);
    if (ref === undefined) fail(catalogNotFound(`comment with id "${id}" not found`));
    const replies = [...ref.comment.replies].sort(chronological);
    return page(replies, offset, limit).map((c) => toWireComment(world, c));
  });
}

export function getCommentsByUser(world: World, address: string, q: RawQuery): QueryResult<WireComment[]> {
  return runQuery(() => {
    const { limit, offset } = paging(q);
    if (!isAddress(address)) fail(catalogBadRequest('invalid user_address: must be a wallet address (0x + 40 hex)'));
    const user = world.userByWallet(address);
    if (user === undefined) return [];
    const all = [...world.commentsBy(user)].sort((a, b) => chronological(b, a));
    return page(all, offset, limit).map((c) => toWireComment(world, c));
  });
}
