// L2 API credentials wire → domain (docs/protocol.md §1–2: `{apiKey, secret, passphrase}` from
// POST /auth/api-key or GET /auth/derive-api-key). Invariant: no error raised here ever contains
// any part of a credential — messages name the field and what was wrong with its shape, nothing
// else (the readers in read.ts never echo string contents). Shapes checked: apiKey non-empty (a
// UUID on both dialects in practice, but only non-emptiness is relied upon), secret base64 with the
// standard or URL-safe alphabet (it is decoded to bytes as the HMAC key), passphrase non-empty.
import type { ApiKeyCreds } from '../../core/market.js';
import { at, fail, nonEmpty, obj } from './read.js';

const BASE64_RE = /^[A-Za-z0-9+/_-]+={0,2}$/;

export function parseApiKeyCreds(json: unknown, path = ''): ApiKeyCreds {
  const o = obj(json, path);
  const apiKey = nonEmpty(o['apiKey'], at(path, 'apiKey'));
  const secret = nonEmpty(o['secret'], at(path, 'secret'));
  if (!BASE64_RE.test(secret)) fail(at(path, 'secret'), 'not base64 text');
  const passphrase = nonEmpty(o['passphrase'], at(path, 'passphrase'));
  return { apiKey, secret, passphrase };
}
