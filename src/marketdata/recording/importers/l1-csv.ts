// Imports the L1 quotes CSV (columns ts, ts_ms_assuming_utc, slug, category, bid, ask, mid,
// spread, volume24hr, segment; one row per market per poll) into a recording. The data has top of
// book only, no sizes and no token ids, so, as documented in FORMAT.md:
// - each slug becomes one synthetic token, id and condition id `l1:<slug>`, tick null (unknown;
//   the encoding grid adapts to the prices seen);
// - each quoted side is one level of a synthetic size (default 100 shares, SYNTHETIC_L1_SIZE);
//   strategies that size against depth must not read meaning into it;
// - a slug's first row is a full book; later rows are deltas that move the top levels (a changed
//   price removes the old level and adds the new one; an empty bid/ask removes that side), an
//   unchanged row records nothing but its mid;
// - the mid column, when present, is recorded as a mid event as given;
// - ts_ms_assuming_utc is both the exchange and the local timestamp.
// Prices go through the strict parsePrice; a malformed row throws ParseError naming the line.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Level } from '../../../core/book.js';
import { ParseError } from '../../../core/errors.js';
import { parsePrice, type Price, type Shares } from '../../../core/money.js';
import type { LevelChange } from '../format.js';
import type { RecordSink } from '../writer.js';

export const SYNTHETIC_L1_SIZE = 100_000_000 as Shares;
export const L1_COLUMNS = ['ts', 'ts_ms_assuming_utc', 'slug', 'category', 'bid', 'ask', 'mid', 'spread', 'volume24hr', 'segment'] as const;

export interface L1ImportStats {
  rows: number;
  rowsBySlug: Record<string, number>;
  books: number;
  deltas: number;
  mids: number;
  /** Rows with no bid or no ask (or neither). */
  oneSided: number;
  unchanged: number;
}

export function l1TokenId(slug: string): string {
  return `l1:${slug}`;
}

interface Top {
  bid: Price | null;
  ask: Price | null;
}

export class L1CsvImporter {
  readonly stats: L1ImportStats = { rows: 0, rowsBySlug: {}, books: 0, deltas: 0, mids: 0, oneSided: 0, unchanged: 0 };
  private readonly tops = new Map<string, Top>();
  private header: string[] | null = null;

  constructor(private readonly sink: RecordSink, private readonly size: Shares = SYNTHETIC_L1_SIZE) {}

  /** One CSV line (the first must be the header). `lineNo` names the line in errors. */
  line(text: string, lineNo: number): void {
    if (text.trim() === '') return;
    const cells = text.split(',');
    if (this.header === null) {
      if (cells.join(',') !== L1_COLUMNS.join(',')) throw new ParseError(`line ${lineNo}`, `unexpected header ${JSON.stringify(text)}`);
      this.header = cells;
      return;
    }
    if (cells.length !== L1_COLUMNS.length) throw new ParseError(`line ${lineNo}`, `expected ${L1_COLUMNS.length} columns, got ${cells.length}`);
    const [, tsText, slug, , bidText, askText, midText] = cells as [string, string, string, string, string, string, string];
    if (!/^\d+$/.test(tsText)) throw new ParseError(`line ${lineNo}.ts_ms_assuming_utc`, `not an integer: ${JSON.stringify(tsText)}`);
    const ts = Number(tsText);
    if (!Number.isSafeInteger(ts)) throw new ParseError(`line ${lineNo}.ts_ms_assuming_utc`, 'out of range');
    if (slug === '') throw new ParseError(`line ${lineNo}.slug`, 'empty slug');
    const bid = bidText === '' ? null : parsePrice(bidText, `line ${lineNo}.bid`);
    const ask = askText === '' ? null : parsePrice(askText, `line ${lineNo}.ask`);
    const midV = midText === '' ? null : parsePrice(midText, `line ${lineNo}.mid`);
    // A level must be strictly inside (0, 1); the source has none at the bounds, but refuse them.
    for (const p of [bid, ask, midV]) if (p !== null && (p <= 0 || p >= 1_000_000)) throw new ParseError(`line ${lineNo}`, `price at a bound: ${String(p)}`);
    this.row(slug, ts, bid, ask, midV);
  }

  private row(slug: string, ts: number, bid: Price | null, ask: Price | null, midV: Price | null): void {
    this.stats.rows++;
    const tokenId = l1TokenId(slug);
    this.stats.rowsBySlug[slug] = (this.stats.rowsBySlug[slug] ?? 0) + 1;
    if (bid === null || ask === null) this.stats.oneSided++;
    const prev = this.tops.get(tokenId);
    if (prev === undefined) {
      this.sink.settings({ tokenId, conditionId: tokenId, tickSize: null, minOrderSize: null, negRisk: null, makerFeeBps: null, takerFeeBps: null, rewards: null }, ts, ts);
      const level = (p: Price | null): Level[] => (p === null ? [] : [{ price: p, size: this.size }]);
      this.sink.book(tokenId, ts, ts, { bids: level(bid), asks: level(ask) });
      this.stats.books++;
    } else {
      const changes: LevelChange[] = [];
      move(changes, 'bids', prev.bid, bid, this.size);
      move(changes, 'asks', prev.ask, ask, this.size);
      if (changes.length > 0) {
        this.sink.delta(tokenId, ts, ts, changes);
        this.stats.deltas++;
      } else {
        this.stats.unchanged++;
      }
    }
    this.tops.set(tokenId, { bid, ask });
    if (midV !== null) {
      this.sink.mid(tokenId, ts, ts, midV);
      this.stats.mids++;
    }
  }
}

function move(out: LevelChange[], side: 'bids' | 'asks', from: Price | null, to: Price | null, size: Shares): void {
  if (from === to) return;
  if (from !== null) out.push({ side, price: from, size: 0 as Shares });
  if (to !== null) out.push({ side, price: to, size });
}

/** Streams a CSV file by line into the sink. */
export async function importL1CsvFile(path: string, sink: RecordSink, size: Shares = SYNTHETIC_L1_SIZE): Promise<L1ImportStats> {
  const importer = new L1CsvImporter(sink, size);
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) importer.line(line, ++n);
  return importer.stats;
}
