// Benchmark of the market-data hot path: parseBook on 20-level-a-side books given as wire objects
// (as after JSON.parse), levels worst-first as the exchange sends them, parse + sort best-first.
// Prints `BENCH book_parse_rate <books/s>`; detail lines give the rate including JSON.parse, the
// hash rate, and the strict money.ts parser path for comparison. Books are varied (1,000 distinct
// ladders with realistic decimal strings) so no single string shape is measured.
import { bookHash } from '../src/core/book-hash.js';
import { parseShares, parsePrice } from '../src/core/money.js';
import type { WireBook, WireBookLevel } from '../src/exchange/wire.js';
import { parseBook } from '../src/exchange/parse/book.js';

const LEVELS = 20;
const DISTINCT = 1000;

// Deterministic generator (no Math.random: reproducible figures).
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function fmt3(thousandths: number): string {
  return (thousandths / 1000).toFixed(3).replace(/0+$/, '').replace(/\.$/, '');
}

function makeBook(i: number, rnd: () => number): WireBook {
  const mid = 200 + Math.floor(rnd() * 600); // thousandths
  const bids: WireBookLevel[] = [];
  const asks: WireBookLevel[] = [];
  // Worst-first: bids ascending up to the best bid, asks descending down to the best ask.
  for (let k = LEVELS; k >= 1; k--)
    bids.push({ price: fmt3(mid - k), size: (1 + rnd() * 50000).toFixed(rnd() < 0.5 ? 2 : 0) });
  for (let k = LEVELS; k >= 1; k--)
    asks.push({ price: fmt3(mid + k), size: (1 + rnd() * 50000).toFixed(rnd() < 0.5 ? 2 : 0) });
  return {
    market: '0x' + i.toString(16).padStart(64, '0'),
    asset_id: String(10n ** 76n + BigInt(i)),
    timestamp: String(1_790_000_000_000 + i),
    hash: '',
    bids,
    asks,
    min_order_size: '5',
    tick_size: '0.001',
    neg_risk: false,
    last_trade_price: fmt3(mid),
  };
}

function rate(label: string, minMs: number, body: (i: number) => void): number {
  // Warm up, then run for at least minMs.
  for (let i = 0; i < 20_000; i++) body(i);
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < minMs) {
    for (let k = 0; k < 10_000; k++) body(n++);
    t = performance.now();
  }
  const r = (n / (t - t0)) * 1000;
  void label;
  return r;
}

export async function run(): Promise<void> {
  const rnd = lcg(42);
  const books = Array.from({ length: DISTINCT }, (_, i) => makeBook(i, rnd));
  const texts = books.map((b) => JSON.stringify(b));
  let sink = 0;

  const parseRate = rate('parse', 3000, (i) => {
    const b = parseBook(books[i % DISTINCT]);
    sink += b.bids.length;
  });
  // Levels in no particular order: the general sort path (the exchange does not promise an order).
  const shuffled = books.map((b, i) => {
    const r = lcg(i + 7);
    const mix = (ls: WireBookLevel[]): WireBookLevel[] =>
      ls
        .map((l) => ({ l, k: r() }))
        .sort((a, c) => a.k - c.k)
        .map((x) => x.l);
    return { ...b, bids: mix(b.bids), asks: mix(b.asks) };
  });
  const shuffledRate = rate('shuffled', 1500, (i) => {
    sink += parseBook(shuffled[i % DISTINCT]).bids.length;
  });
  const withJson = rate('json+parse', 2000, (i) => {
    const b = parseBook(JSON.parse(texts[i % DISTINCT] as string));
    sink += b.asks.length;
  });
  const jsonOnly = rate('json', 1500, (i) => {
    const o = JSON.parse(texts[i % DISTINCT] as string) as WireBook;
    sink += o.bids.length;
  });
  const strict = rate('strict', 1500, (i) => {
    // The same per-level work through money.ts's regex parsers (no sort): the path we avoid.
    const b = books[i % DISTINCT] as WireBook;
    for (const l of b.bids) sink += parsePrice(l.price) + parseShares(l.size);
    for (const l of b.asks) sink += parsePrice(l.price) + parseShares(l.size);
  });
  const hashRate = rate('hash', 1500, (i) => {
    sink += bookHash(books[i % DISTINCT] as WireBook).length;
  });

  const f = (x: number): string => Math.round(x).toString();
  process.stdout.write(`BENCH book_parse_rate ${f(parseRate)} books/s\n`);
  process.stdout.write(
    `# ${LEVELS} levels a side, worst-first wire objects, parse + sort: ${f(parseRate)} books/s (target >= 100000)\n`,
  );
  process.stdout.write(`# same books with levels shuffled (full sort path): ${f(shuffledRate)} books/s\n`);
  process.stdout.write(
    `# including JSON.parse of the text: ${f(withJson)} books/s; JSON.parse alone: ${f(jsonOnly)} books/s\n`,
  );
  process.stdout.write(`# strict money.ts parsers over the same 80 decimals (no sort): ${f(strict)} books/s\n`);
  process.stdout.write(`# bookHash (docs/protocol.md §5) of the wire book: ${f(hashRate)} books/s\n`);
  if (sink === -1) process.stdout.write('#\n');
}
