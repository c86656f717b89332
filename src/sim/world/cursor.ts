// Cursor paging of market listings (docs/protocol.md §5): `next_cursor` is base64 of the decimal offset,
// `MA==` (offset 0) for the first page, `LTE=` (−1) after the last page. Invariants kept here:
// - encode/decode round-trip for every offset >= 0; only canonical cursors decode (standard base64
//   with padding, of a decimal integer without sign or leading zeros, or of "-1");
// - a page's next cursor is `LTE=` exactly when that page reaches the end of the listing, so a
//   client that follows cursors sees every record once and stops.
import { InvariantError } from '../../core/errors.js';

export const FIRST_CURSOR = 'MA==';
export const END_CURSOR = 'LTE=';

export function encodeCursor(offset: number): string {
  if (!Number.isSafeInteger(offset) || offset < -1) throw new InvariantError(`bad cursor offset: ${String(offset)}`);
  return Buffer.from(String(offset), 'ascii').toString('base64');
}

/** The offset of a cursor, −1 for the end cursor, or null when the cursor is not valid. */
export function decodeCursor(cursor: string): number | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(cursor) || cursor.length % 4 !== 0) return null;
  const text = Buffer.from(cursor, 'base64').toString('ascii');
  if (text === '-1') return -1;
  if (!/^(0|[1-9]\d{0,15})$/.test(text)) return null;
  const n = Number(text);
  if (!Number.isSafeInteger(n)) return null;
  // Only the canonical spelling of the offset decodes.
  return encodeCursor(n) === cursor ? n : null;
}

export interface CursorPage<T> {
  items: T[];
  nextCursor: string;
}

/** One page starting at `offset` (−1: past the end → empty page). */
export function cursorPage<T>(all: readonly T[], offset: number, pageSize: number): CursorPage<T> {
  if (offset < 0 || offset >= all.length) return { items: [], nextCursor: END_CURSOR };
  const end = offset + pageSize;
  return { items: all.slice(offset, end), nextCursor: end >= all.length ? END_CURSOR : encodeCursor(end) };
}
