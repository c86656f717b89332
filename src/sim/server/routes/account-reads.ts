// Account-lifecycle reads, L2-signed, in the public exchange's shapes in both dialects (the
// interface does not list them; docs/protocol.md leaves them open; the shapes and their sources are in
// src/exchange/wire-account.ts and render-account.ts):
//   GET /data/orders?id=&market=&asset_id=&next_cursor=
//       the caller's LIVE orders, oldest first, each the bare order record of GET /data/order/{id}
//       (render-public-orders.ts);
//   GET /data/trades?id=&maker_address=&market=&asset_id=&before=&after=&next_cursor=
//       the caller's trades as maker or taker, oldest first, with their settlement status;
//       `before`/`after` are Unix seconds (match time < before, >= after); `asset_id` matches the
//       taker's token or the caller's own; `maker_address` (and rs-clob-client's `maker`/`taker`,
//       which it sends for the same filter) must be the caller's own address or nothing matches;
//   GET /balance-allowance?asset_type=COLLATERAL|CONDITIONAL&token_id=&signature_type=
//       the caller's balance of collateral or of one token (token_id required for CONDITIONAL).
// Paging as the market listings (docs/protocol.md §5): `next_cursor` base64 of the offset, `MA==`
// first (also when absent), `LTE=` on the last page; oldest first, so records added while a
// client pages only ever appear after its cursor. Query errors in the data style (`unknown_field`,
// `missing_field`, `invalid_field`), 400; a caller only ever sees its own orders and trades.
import type { FastifyInstance } from 'fastify';
import type { WirePublicOrderRecord } from '../../../exchange/wire-public-orders.js';
import type { WireAccountTrade } from '../../../exchange/wire-account.js';
import { DATA_STYLE, isAddress, Params, runQuery } from '../../world/query.js';
import { cursorPageOf } from '../account-paging.js';
import { rawQuery, sendResult, type ServerContext } from '../context.js';
import { MSG_UNAUTHORIZED, sendError } from '../errors.js';
import { accountPage, accountTrade, balanceAllowance } from '../render-account.js';
import { publicOrderRecord } from '../render-public-orders.js';

const ASSET_TYPES = ['COLLATERAL', 'CONDITIONAL'] as const;

export function registerAccountReadRoutes(app: FastifyInstance, ctx: ServerContext, pageSize: number): void {
  const { venue } = ctx;
  const preHandler = ctx.auth.l2PreHandler;

  app.get('/data/orders', { preHandler }, async (req, reply) => {
    const who = req.l2;
    if (who === undefined) return sendError(reply, 401, MSG_UNAUTHORIZED);
    const r = runQuery(() => {
      const p = new Params(rawQuery(req.query), DATA_STYLE).only(['id', 'market', 'asset_id', 'next_cursor']);
      return {
        id: p.text('id', 200),
        market: p.text('market', 200),
        assetId: p.text('asset_id', 200),
        cursor: p.string('next_cursor'),
      };
    });
    if (!r.ok) return sendResult(reply, r);
    const { id, market, assetId, cursor } = r.body;
    const views = venue
      .liveOrders(who.owner, {
        ...(market === undefined ? {} : { conditionId: market }),
        ...(assetId === undefined ? {} : { tokenId: assetId }),
      })
      .filter((v) => id === undefined || v.record.id === id);
    const page = cursorPageOf(views, cursor, pageSize);
    if (page === null) return sendError(reply, 400, 'invalid_field: next_cursor');
    const data: WirePublicOrderRecord[] = page.items.map((v) => publicOrderRecord(v, venue.wallets));
    return accountPage(data, page.nextCursor, pageSize);
  });

  app.get('/data/trades', { preHandler }, async (req, reply) => {
    const who = req.l2;
    if (who === undefined) return sendError(reply, 401, MSG_UNAUTHORIZED);
    const r = runQuery(() => {
      const p = new Params(rawQuery(req.query), DATA_STYLE).only([
        'id',
        'maker_address',
        'maker',
        'taker',
        'market',
        'asset_id',
        'before',
        'after',
        'next_cursor',
      ]);
      return {
        id: p.text('id', 200),
        makerAddress: p.text('maker_address', 42),
        maker: p.text('maker', 42),
        taker: p.text('taker', 42),
        market: p.text('market', 200),
        assetId: p.text('asset_id', 200),
        before: p.int('before', { min: 0 }),
        after: p.int('after', { min: 0 }),
        cursor: p.string('next_cursor'),
      };
    });
    if (!r.ok) return sendResult(reply, r);
    const q = r.body;
    for (const [name, a] of [
      ['maker_address', q.makerAddress],
      ['maker', q.maker],
      ['taker', q.taker],
    ] as const) {
      if (a !== undefined && !isAddress(a)) return sendError(reply, 400, `invalid_field: ${name}`);
    }
    const me = who.owner;
    const notMe = (a: string | undefined): boolean => a !== undefined && a.toLowerCase() !== me;
    if (notMe(q.makerAddress) || notMe(q.maker) || notMe(q.taker)) return accountPage([], 'LTE=', pageSize);
    const trades = venue.settlement.ofOwner(me).filter((s) => {
      const t = s.trade;
      const ownToken = me === t.takerOwner ? t.takerTokenId : t.makerTokenId;
      const sec = Math.floor(t.timeMs / 1000);
      return (
        (q.id === undefined || t.id === q.id) &&
        (q.market === undefined || t.conditionId === q.market) &&
        (q.assetId === undefined || t.takerTokenId === q.assetId || ownToken === q.assetId) &&
        (q.maker === undefined || me === t.makerOwner) &&
        (q.taker === undefined || me === t.takerOwner) &&
        (q.before === undefined || sec < q.before) &&
        (q.after === undefined || sec >= q.after)
      );
    });
    const page = cursorPageOf(trades, q.cursor, pageSize);
    if (page === null) return sendError(reply, 400, 'invalid_field: next_cursor');
    const data: WireAccountTrade[] = page.items.map((s) => accountTrade(s, me, venue));
    return accountPage(data, page.nextCursor, pageSize);
  });

  app.get('/balance-allowance', { preHandler }, async (req, reply) => {
    const who = req.l2;
    if (who === undefined) return sendError(reply, 401, MSG_UNAUTHORIZED);
    const r = runQuery(() => {
      const p = new Params(rawQuery(req.query), DATA_STYLE).only(['asset_type', 'token_id', 'signature_type']);
      const assetType = p.oneOf('asset_type', ASSET_TYPES);
      if (assetType === undefined) return null;
      p.int('signature_type', { min: -1, max: 3 });
      return { assetType, tokenId: p.text('token_id', 200) };
    });
    if (!r.ok) return sendResult(reply, r);
    if (r.body === null) return sendError(reply, 400, 'missing_field: asset_type');
    const { assetType, tokenId } = r.body;
    const b = venue.balances(who.address);
    let balance: number;
    if (assetType === 'COLLATERAL') balance = b.collateral.available + b.collateral.reserved;
    else {
      if (tokenId === undefined) return sendError(reply, 400, 'missing_field: token_id');
      const t = b.tokens.get(tokenId);
      balance = t === undefined ? 0 : t.available + t.reserved;
    }
    return balanceAllowance(balance, ctx.dialect, ctx.exchange.noAllowance);
  });
}
