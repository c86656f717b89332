// Generation of the world's people: traders with profiles, and comments with nested replies and
// reactions (their trades, leaderboard figures and profile holdings: past-trades.ts, standings.ts).
// Invariants kept here:
// - every draw comes from the Rng passed in (one forked stream per concern), so the same seed gives
//   the same people, and changing comment generation does not move a single trade;
// - usernames and wallets are unique; a reply is created after its parent and its replyAddress is
//   the parent author's wallet; times never pass `nowMs` (the world's start).
import { address, assetUrl, DAY_MS, MINUTE_MS, SIM_ASSET_BASE, Uniq } from './ids.js';
import type { CommentRec, EventRec, ReactionRec, UserRec } from './model.js';
import type { Rng } from './rng.js';
import {
  BIO_LINES,
  COMMENT_BODIES,
  COMMENT_OPENERS,
  PSEUDO_ADJECTIVES,
  PSEUDO_NOUNS,
  REACTION_TYPES,
  REPLY_BODIES,
} from './vocab.js';

export function generateUsers(rng: Rng, count: number, nowMs: number): UserRec[] {
  const names = new Uniq();
  const wallets = new Uniq();
  const users: UserRec[] = [];
  for (let i = 0; i < count; i++) {
    const adj = rng.pick(PSEUDO_ADJECTIVES);
    const noun = rng.pick(PSEUDO_NOUNS);
    const name = names.draw(() => `${adj.toLowerCase()}${noun.toLowerCase()}${rng.int(1, 9999)}`);
    const proxyWallet = wallets.draw(() => address(rng));
    const profileImage = assetUrl('profiles', name);
    const sizeKb = rng.int(40, 900);
    users.push({
      index: i,
      proxyWallet,
      baseAddress: wallets.draw(() => address(rng)),
      name,
      pseudonym: `${adj}-${noun}`,
      bio: rng.pick(BIO_LINES),
      profileImage,
      profileImageOptimized: {
        id: String(rng.int(100_000, 999_999)),
        imageUrlSource: profileImage,
        imageUrlOptimized: `${SIM_ASSET_BASE}/optimized/profiles/${name}.webp`,
        imageSizeKbSource: sizeKb,
        imageSizeKbOptimized: Math.max(8, Math.floor(sizeKb / rng.int(3, 8))),
        imageOptimizedComplete: true,
        imageOptimizedLastUpdatedMs: nowMs - rng.int(1, 400) * DAY_MS - rng.int(0, DAY_MS - 1),
        relID: rng.int(1_000, 999_999),
        field: 'profileImage',
        relname: 'profiles',
      },
      displayUsernamePublic: rng.chance(0.8),
      isMod: rng.chance(0.02),
      isCreator: rng.chance(0.03),
      xUsername: rng.chance(0.4) ? `${name}_x` : null,
      verifiedBadge: rng.chance(0.1) ? 'verified' : null,
      positions: [],
    });
  }
  return users;
}

interface CommentIds {
  next: number;
}

function reactions(
  rng: Rng,
  users: readonly UserRec[],
  afterMs: number,
  nowMs: number,
  ids: CommentIds,
): ReactionRec[] {
  const n = rng.weighted<number>([
    [0, 5],
    [1, 3],
    [2, 2],
    [3, 1],
    [5, 1],
  ]);
  const out: ReactionRec[] = [];
  for (let i = 0; i < n; i++) {
    ids.next += rng.int(1, 5);
    out.push({
      id: String(ids.next),
      reactionType: rng.pick(REACTION_TYPES),
      icon: '',
      userIndex: rng.int(0, users.length - 1),
      createdAtMs: Math.min(nowMs, afterMs + rng.int(1, 72) * MINUTE_MS),
    });
  }
  return out;
}

function makeComment(
  rng: Rng,
  users: readonly UserRec[],
  event: EventRec,
  parent: { id: string; userIndex: number; createdAtMs: number } | null,
  depth: number,
  nowMs: number,
  ids: CommentIds,
  reactionIds: CommentIds,
): CommentRec {
  ids.next += rng.int(1, 9);
  const id = String(ids.next);
  const userIndex = rng.int(0, users.length - 1);
  const lo = parent === null ? event.createdAtMs : parent.createdAtMs;
  const hi = Math.max(
    lo + MINUTE_MS,
    Math.min(nowMs, parent === null ? event.endDateMs : parent.createdAtMs + 2 * DAY_MS),
  );
  const createdAtMs = Math.min(nowMs, lo + rng.int(MINUTE_MS, Math.max(MINUTE_MS, hi - lo)));
  const updatedAtMs = rng.chance(0.1) ? Math.min(nowMs, createdAtMs + rng.int(1, 30) * MINUTE_MS) : createdAtMs;
  const body = parent === null ? `${rng.pick(COMMENT_OPENERS)} ${rng.pick(COMMENT_BODIES)}` : rng.pick(REPLY_BODIES);
  const self = { id, userIndex, createdAtMs };
  const maxReplies = depth === 0 ? 3 : depth === 1 ? 2 : 0;
  const nReplies =
    maxReplies === 0
      ? 0
      : rng.weighted<number>(
          [
            [0, 4],
            [1, 2],
            [2, 1],
            [3, 1],
          ].filter(([k]) => (k ?? 0) <= maxReplies) as [number, number][],
        );
  const replies: CommentRec[] = [];
  for (let i = 0; i < nReplies; i++)
    replies.push(makeComment(rng, users, event, self, depth + 1, nowMs, ids, reactionIds));
  const parentUser = parent === null ? undefined : users[parent.userIndex];
  return {
    id,
    body,
    parentEntityType: 'Event',
    parentEntityID: Number(event.id),
    parentCommentID: parent === null ? '' : parent.id,
    userIndex,
    replyAddress: parentUser === undefined ? '' : parentUser.proxyWallet,
    createdAtMs,
    updatedAtMs,
    reactions: reactions(rng, users, createdAtMs, nowMs, reactionIds),
    reportCount: rng.chance(0.05) ? rng.int(1, 3) : 0,
    replies,
  };
}

/** Top-level comments (with nested replies) on events, busier on open events. */
export function generateComments(
  rng: Rng,
  users: readonly UserRec[],
  events: readonly EventRec[],
  nowMs: number,
): CommentRec[] {
  if (users.length === 0) return [];
  const ids: CommentIds = { next: 1_000_000 };
  const reactionIds: CommentIds = { next: 5_000_000 };
  const out: CommentRec[] = [];
  for (const e of events) {
    const open = e.endDateMs > nowMs;
    const n = rng.weighted<number>(
      open
        ? [
            [0, 2],
            [1, 3],
            [2, 3],
            [4, 2],
            [6, 1],
          ]
        : [
            [0, 5],
            [1, 3],
            [2, 1],
          ],
    );
    for (let i = 0; i < n; i++) out.push(makeComment(rng, users, e, null, 0, nowMs, ids, reactionIds));
  }
  return out;
}
