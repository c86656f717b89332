// Cursor paging of the account-lifecycle listings (GET /data/orders, GET /data/trades), the same
// cursors as the market listings (docs/protocol.md §5, world/cursor.ts): absent or `MA==` is the first
// page, `LTE=` past the end (an empty page), anything not canonical is refused (null).
import { cursorPage, decodeCursor, type CursorPage } from '../world/cursor.js';

/** The page of `items` at `cursor`, or null when the cursor is not a valid one. */
export function cursorPageOf<T>(
  items: readonly T[],
  cursor: string | undefined,
  pageSize: number,
): CursorPage<T> | null {
  const offset = cursor === undefined || cursor === '' ? 0 : decodeCursor(cursor);
  if (offset === null) return null;
  return cursorPage(items, offset, pageSize);
}
