// String order as SQLite's BINARY collation sees it (memcmp of UTF-8 bytes), for the in-memory
// ledger's sorted reads (positions by token id, open orders by id) to come out in exactly the
// order the SQLite ledger's ORDER BY gives. Pure. Invariant: compareBinary(a, b) has the sign of
// the UTF-8 byte comparison of a and b. UTF-8 byte order is code point order, which differs from
// JavaScript's UTF-16 code unit order only between a surrogate (U+D800–DFFF, half of a code point
// above U+FFFF) and a code unit in U+E000–FFFF: those two ranges are swapped before comparing.

/** Negative, zero or positive as a sorts before, with or after b under SQLite BINARY. */
export function compareBinary(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}
