import { describe, expect, it } from 'vitest';
import { getCommentReplies, getCommentsByUser } from '../../../src/sim/world/query-comments.js';
import type { CommentRec } from '../../../src/sim/world/model.js';
import { body, failure, makeWorld } from './helpers.js';

const w = makeWorld(400, 'comments');

function all(): CommentRec[] {
  const out: CommentRec[] = [];
  const walk = (c: CommentRec): void => {
    out.push(c);
    c.replies.forEach(walk);
  };
  w.comments.forEach(walk);
  return out;
}

describe('GET /comments/{id}', () => {
  it('returns the replies of the comment, oldest first, each with its nested replies', () => {
    const c = all().find((x) => x.replies.length >= 2);
    if (c === undefined) throw new Error('no comment with 2 replies');
    const b = body(getCommentReplies(w, c.id, {}));
    expect(b.map((r) => r.id).sort()).toEqual(c.replies.map((r) => r.id).sort());
    for (let i = 1; i < b.length; i++)
      expect(Date.parse(b[i]?.createdAt ?? '') >= Date.parse(b[i - 1]?.createdAt ?? '')).toBe(true);
    for (const r of b) {
      expect(r.parentCommentID).toBe(c.id);
      expect(r.replyCount).toBe(r.replies.length);
      expect(r.profile.proxyWallet).toBe(r.userAddress);
      expect(r.reactionCount).toBe(r.reactions.length);
    }
  });

  it('limit/offset page the replies', () => {
    const c = all().find((x) => x.replies.length >= 2);
    if (c === undefined) throw new Error('none');
    const full = body(getCommentReplies(w, c.id, {}));
    expect(body(getCommentReplies(w, c.id, { limit: '1', offset: '1' }))).toEqual(full.slice(1, 2));
    expect(body(getCommentReplies(w, c.id, { offset: '50' }))).toEqual([]);
  });

  it('a comment without replies → []', () => {
    const leaf = all().find((x) => x.replies.length === 0);
    if (leaf === undefined) throw new Error('none');
    expect(body(getCommentReplies(w, leaf.id, {}))).toEqual([]);
  });

  it('errors: unknown id 404, malformed id and bad bounds 400', () => {
    expect(failure(getCommentReplies(w, '42', {}))).toEqual({
      status: 404,
      body: { type: 'not found error', error: 'comment with id "42" not found' },
    });
    expect(failure(getCommentReplies(w, 'x1', {})).status).toBe(400);
    const id = w.comments[0]?.id ?? '';
    for (const q of [{ limit: '0' }, { limit: '101' }, { offset: '-1' }, { sort: 'x' }]) {
      expect(failure(getCommentReplies(w, id, q))).toMatchObject({ status: 400, body: { type: 'bad request' } });
    }
  });
});

describe('GET /comments/user_address/{address}', () => {
  it('every comment of the user at any depth, newest first, address in any case', () => {
    const counts = new Map<number, number>();
    for (const c of all()) counts.set(c.userIndex, (counts.get(c.userIndex) ?? 0) + 1);
    const [userIndex, n] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? [0, 0];
    const u = w.user(userIndex);
    const b = body(getCommentsByUser(w, u.proxyWallet.toUpperCase().replace('0X', '0x'), { limit: '100' }));
    expect(b.length).toBe(n);
    expect(b.every((c) => c.userAddress === u.proxyWallet)).toBe(true);
    for (let i = 1; i < b.length; i++)
      expect(Date.parse(b[i]?.createdAt ?? '') <= Date.parse(b[i - 1]?.createdAt ?? '')).toBe(true);
    expect(body(getCommentsByUser(w, u.proxyWallet, {})).length).toBe(Math.min(20, n));
  });

  it('unknown wallet → [], malformed → 400', () => {
    expect(body(getCommentsByUser(w, '0x' + '9'.repeat(40), {}))).toEqual([]);
    expect(failure(getCommentsByUser(w, 'bob', {})).status).toBe(400);
  });
});
