// Decodes an error response body into the exchange's message and the catalog error `type`
// (interface §7: `{error}` and `{type, error}`). Invariants: never throws; a non-JSON body (an
// HTML page from a proxy, plain text) yields a short single-line snippet, never the whole page;
// the snippet is capped at SNIPPET_MAX characters.
import type { ExchangeErrorType } from '../errors.js';

export const SNIPPET_MAX = 200;

export interface DecodedErrorBody {
  /** The exchange's message, or a snippet of the body; null for an empty body. */
  message: string | null;
  errorType: ExchangeErrorType | null;
  /** True when the body was JSON in one of the interface's shapes. */
  structured: boolean;
}

export function decodeErrorBody(text: string): DecodedErrorBody {
  const trimmed = text.trim();
  if (trimmed === '') return { message: null, errorType: null, structured: false };
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    return { message: snippet(trimmed), errorType: null, structured: false };
  }
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
    const o = json as Record<string, unknown>;
    const err = o['error'];
    const type = o['type'];
    if (typeof err === 'string') {
      const errorType = type === 'bad request' || type === 'not found error' ? type : null;
      return { message: cap(err), errorType, structured: true };
    }
    // A placement result sent with an error status carries its reason in `errorMsg`.
    const errorMsg = o['errorMsg'];
    if (typeof errorMsg === 'string' && errorMsg !== '')
      return { message: cap(errorMsg), errorType: null, structured: true };
    // Tolerated variants seen behind proxies: {message} or {error: {message}}.
    const msg =
      o['message'] ??
      (typeof err === 'object' && err !== null ? (err as Record<string, unknown>)['message'] : undefined);
    if (typeof msg === 'string') return { message: cap(msg), errorType: null, structured: false };
  }
  if (typeof json === 'string') return { message: cap(json), errorType: null, structured: false };
  return { message: snippet(trimmed), errorType: null, structured: false };
}

/** One line of readable text from a body: an HTML page's <title> (or its text), else the text. */
export function snippet(text: string): string {
  if (/^\s*</.test(text)) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text);
    const inner = title?.[1]?.trim();
    if (inner !== undefined && inner !== '') return cap(collapse(decodeEntities(inner)));
    const noScripts = text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ');
    return cap(collapse(decodeEntities(noScripts.replace(/<[^>]*>/g, ' '))));
  }
  return cap(collapse(text));
}

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function cap(s: string): string {
  return s.length <= SNIPPET_MAX ? s : `${s.slice(0, SNIPPET_MAX - 1)}…`;
}

function decodeEntities(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&');
}
