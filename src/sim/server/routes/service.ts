// Service routes of docs/protocol.md §8: GET / (health: 200 "OK"), GET /time (server time, Unix seconds
// as a JSON number, from the injected clock; Polymarket's client signs with it when asked to use
// server time) and GET /version (`{"version": 2}`: the order version the simulator verifies).
// Both follow the exchange state's switches (exchange-state.ts): a skewed clock, a newer version.
import type { FastifyInstance } from 'fastify';
import type { WireVersionResponse } from '../../../exchange/wire.js';
import type { ServerContext } from '../context.js';

export function registerServiceRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/', async (_req, reply) => reply.type('application/json; charset=utf-8').send(JSON.stringify('OK')));
  app.get('/time', async (_req, reply) =>
    reply
      .type('application/json; charset=utf-8')
      .send(String(Math.floor((ctx.clock.now() + ctx.exchange.clockSkewMs) / 1000))),
  );
  app.get('/version', async () => ({ version: ctx.exchange.orderVersion }) satisfies WireVersionResponse);
}
