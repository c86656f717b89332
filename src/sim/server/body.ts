// Request bodies: every content type is read as a string (kept as `request.rawBody`, because L2
// signatures cover the exact bytes received) and parsed as JSON here. Invariants kept here:
// - a body that is not JSON never produces a fastify default error: it becomes the BAD_JSON
//   marker, and each route answers it in its own words (`Invalid order payload`, `Invalid payload`);
// - an empty body parses to undefined; the raw text of a body-less request is undefined;
// - the size limit is fastify's `bodyLimit` (the error handler turns its error into a 400).
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The exact body text received, or undefined when the request had none. */
    rawBody: string | undefined;
  }
}

/** The parsed body of a request whose text is not JSON. */
export const BAD_JSON: unique symbol = Symbol('bad-json');

export function isBadJson(body: unknown): body is typeof BAD_JSON {
  return body === BAD_JSON;
}

export function installBodyParser(app: FastifyInstance): void {
  app.decorateRequest('rawBody', undefined);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    req.rawBody = text;
    if (text === '') {
      done(null, undefined);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = BAD_JSON;
    }
    done(null, parsed);
  });
}
