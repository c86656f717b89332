// Catalog and community routes of interface §4.5 and docs/protocol.md §8: GET /events,
// /events/slug/{slug}, /markets/{id}/tags, /tags, /public-search, /comments/{id},
// /comments/user_address/{user_address}. Errors take the catalog shape `{type, error}`: 400
// `bad request`, 404 `not found error` naming the id or slug (the world's queries build them).
import type { FastifyInstance } from 'fastify';
import {
  getCommentReplies,
  getCommentsByUser,
  getEventBySlug,
  getMarketTags,
  listEvents,
  listTags,
  publicSearch,
} from '../../world/index.js';
import { rawQuery, sendResult, type ServerContext } from '../context.js';

export function registerCatalogRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { world } = ctx.venue;
  app.get('/events', async (req, reply) => sendResult(reply, listEvents(world, rawQuery(req.query))));
  app.get<{ Params: { slug: string } }>('/events/slug/:slug', async (req, reply) =>
    sendResult(reply, getEventBySlug(world, req.params.slug, rawQuery(req.query))),
  );
  app.get<{ Params: { id: string } }>('/markets/:id/tags', async (req, reply) =>
    sendResult(reply, getMarketTags(world, req.params.id, rawQuery(req.query))),
  );
  app.get('/tags', async (req, reply) => sendResult(reply, listTags(world, rawQuery(req.query))));
  app.get('/public-search', async (req, reply) => sendResult(reply, publicSearch(world, rawQuery(req.query))));
  app.get<{ Params: { id: string } }>('/comments/:id', async (req, reply) =>
    sendResult(reply, getCommentReplies(world, req.params.id, rawQuery(req.query))),
  );
  app.get<{ Params: { addr: string } }>('/comments/user_address/:addr', async (req, reply) =>
    sendResult(reply, getCommentsByUser(world, req.params.addr, rawQuery(req.query))),
  );
}
