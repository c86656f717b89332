// The ops console's routes on the ops server (same host and port, loopback by default):
//   GET /                     the page (console/index.html)
//   GET /console/app.js|.css  its script and style (console/)
//   GET /console/uplot.js|.css the chart library, read from the installed uplot package (no CDN:
//                             the page works with no network)
//   GET /console/snapshot     the page's document as JSON (console-view.ts), once
//   GET /console/series       the equity and inventory series, columns oldest first
//   GET /events               server-sent events: `series` (the whole series) on connect, then
//                             `snapshot` now and every tick (console-hub.ts)
// Invariants kept: every route only reads (operator actions stay POST /actions/<action>, behind the
// operator token, which the page sends and this file never sees); the page and the live data are
// `no-store`, the static files `no-cache` with an ETag (revalidated, never served stale across an
// upgrade); the page runs under a Content-Security-Policy that allows only this origin (no inline
// script, no other host), so data shown on it cannot load or run anything; static files are read
// once, on first request, and a missing one is a 500 naming it, never a crash of the daemon.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleHub } from './console-hub.js';

interface StaticFile {
  readonly body: Buffer;
  readonly type: string;
  readonly etag: string;
}

/** Where a static file comes from: the console folder beside this module, or a package. */
type Source = { readonly dir: string } | { readonly pkg: string };

const STATIC: Record<string, { readonly source: Source; readonly type: string }> = {
  '/': { source: { dir: 'index.html' }, type: 'text/html; charset=utf-8' },
  '/console/app.js': { source: { dir: 'app.js' }, type: 'text/javascript; charset=utf-8' },
  '/console/app.css': { source: { dir: 'app.css' }, type: 'text/css; charset=utf-8' },
  '/console/uplot.js': { source: { pkg: 'uplot/dist/uPlot.iife.min.js' }, type: 'text/javascript; charset=utf-8' },
  '/console/uplot.css': { source: { pkg: 'uplot/dist/uPlot.min.css' }, type: 'text/css; charset=utf-8' },
};

/** Pages connected at once (each is one open stream): a bound on what a stuck client can hold. */
export const MAX_STREAMS = 32;

export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The console folder: beside this module (src/ under vitest, dist/ after `npm run build` copied it),
 * else the source tree's (a dist/ built by tsc alone).
 */
function consoleDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'console'), join(here, '..', '..', '..', '..', 'src', 'runtime', 'ops', 'console')];
  return candidates.find((d) => existsSync(join(d, 'index.html'))) ?? (candidates[0] as string);
}

function readStatic(source: Source, type: string): StaticFile {
  const path = 'dir' in source ? join(consoleDir(), source.dir) : createRequire(import.meta.url).resolve(source.pkg);
  const body = readFileSync(path);
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

export function registerConsoleRoutes(app: FastifyInstance, hub: ConsoleHub): void {
  const files = new Map<string, StaticFile>();
  const streams = new Set<ServerResponse>();

  app.addHook('onReady', async () => {
    hub.start();
  });
  // Before the server stops accepting: the streams never go idle, so they are ended here.
  app.addHook('preClose', async () => {
    hub.close();
    for (const res of streams) res.end();
    streams.clear();
  });

  for (const [url, spec] of Object.entries(STATIC)) {
    app.get(url, async (req: FastifyRequest, reply: FastifyReply) => {
      let f = files.get(url);
      if (f === undefined) {
        try {
          f = readStatic(spec.source, spec.type);
        } catch {
          return reply.code(500).send({
            error: `console file missing: ${'dir' in spec.source ? spec.source.dir : spec.source.pkg} (reinstall or rebuild oddsmaker)`,
          });
        }
        files.set(url, f);
      }
      reply.header('x-content-type-options', 'nosniff');
      if (url === '/') {
        reply.header('content-security-policy', CONSOLE_CSP);
        reply.header('referrer-policy', 'no-referrer');
        reply.header('cache-control', 'no-store');
      } else {
        reply.header('cache-control', 'no-cache');
        reply.header('etag', f.etag);
        if (req.headers['if-none-match'] === f.etag) return reply.code(304).send();
      }
      return reply.type(f.type).send(f.body);
    });
  }

  app.get('/console/snapshot', async () => hub.snapshot());
  app.get('/console/series', async () => hub.seriesColumns());

  // No HEAD twin: a stream has no headers-only form.
  app.get('/events', { exposeHeadRoute: false }, (req, reply) => {
    if (streams.size >= MAX_STREAMS) {
      void reply.code(503).send({ error: `too many console streams open (${MAX_STREAMS}); close a page` });
      return;
    }
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      // No proxy buffering: each event is due at once.
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    res.write('retry: 2000\n\n');
    streams.add(res);
    let off: (() => void) | null = null;
    let gone = false;
    const end = (): void => {
      gone = true;
      off?.();
      streams.delete(res);
    };
    req.raw.on('close', end);
    hub
      .subscribe((event, data) => {
        if (!res.writableEnded) res.write(`event: ${event}\ndata: ${data}\n\n`);
      })
      .then((o) => {
        off = o;
        if (gone) o();
      })
      // The hub is closed (shutdown): the stream ends, which the console sees and reconnects after.
      .catch(() => {
        end();
        res.end();
      });
  });
}
