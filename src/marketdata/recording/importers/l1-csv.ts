// Imports the L1 quotes CSV (columns ts, ts_ms_assuming_utc, slug, category, bid, ask, mid,
// spread, volume24hr, segment; one row per market per poll) into a recording. The data has top of
// book only, no sizes and no token ids, so, as documented in FORMAT.md:
// - each slug becomes one synthetic binary market, condition id 0x + SHA-256(`l1:<slug>`), with two
//   tokens (ids: decimal SHA-256 of `l1:<slug>:quoted` / `:complement`, canonical uint256 as order
//   signing needs; `oddsmaker import` labels them with the slug): the quoted one (the CSV's
//   prices), and its complement, whose
//   book is the mirror (bid' = 1 − ask, ask' = 1 − bid, mid' = 1 − mid), as a binary market's
//   other token is; the backtest needs a market's two tokens, so this is what makes an L1 import
//   replayable. Tick null (unknown; the encoding grid adapts to the prices seen);
// - each quoted side is one level of a synthetic size (default 100 shares, SYNTHETIC_L1_SIZE);
//   strategies that size against depth must not read meaning into it;
// - a slug's first row is a full book; later rows are deltas that move the top levels (a changed
//   price removes the old level and adds the new one; an empty bid/ask removes that side), an
//   unchanged row records nothing but its mid;
// - the mid column, when present, is recorded as a mid event as given;
// - ts_ms_assuming_utc is both the exchange and the local timestamp.
// Prices go through the strict parsePrice; a malformed row throws ParseError naming the line.
// Fill model this supports (README "Importing data"): book depth is L1 only, so the queue models
// see one level of a placeholder size; fills against it are approximate (queue position unknown).
// `backtest` warns when the recording's sidecar (sidecar.ts) says its depth is L1.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Level } from '../../../core/book.js';
import { ParseError } from '../../../core/errors.js';
import { parsePrice, type Price, type Shares } from '../../../core/money.js';
import type { LevelChange } from '../format.js';
import type { RecordSink } from '../writer.js';

export const SYNTHETIC_L1_SIZE = 100_000_000 as Shares;
export const L1_COLUMNS = [
  'ts',
  'ts_ms_assuming_utc',
  'slug',
  'category',
  'bid',
  'ask',
  'mid',
  'spread',
  'volume24hr',
  'segment',
] as const;

export interface L1ImportStats {
  rows: number;
  rowsBySlug: Record<string, number>;
  books: number;
  deltas: number;
  mids: number;
  /** Books, deltas and unchanged rows count the quoted token's records (its complement mirrors them). */
  /** Rows with no bid or no ask (or neither). */
  oneSided: number;
  unchanged: number;
}

/**
 * The quoted token's id of a slug's market: a canonical decimal uint256 (what order signing
 * requires of a token id) derived from the slug by SHA-256, so it is stable across imports.
 */
export function l1TokenId(slug: string): string {
  return hashId(`l1:${slug}:quoted`);
}

/** The mirrored complement token's id of a slug's market. */
export function l1ComplementTokenId(slug: string): string {
  return hashId(`l1:${slug}:complement`);
}

/** The slug's market's condition id: 0x + SHA-256 of `l1:<slug>` (a bytes32, as a real one). */
export function l1ConditionId(slug: string): string {
  return `0x${createHash('sha256').update(`l1:${slug}`).digest('hex')}`;
}

function hashId(s: string): string {
  return BigInt(`0x${createHash('sha256').update(s).digest('hex')}`).toString(10);
}

const mirror = (p: Price | null): Price | null => (p === null ? null : ((1_000_000 - p) as Price));

interface PendingRow {
  readonly slug: string;
  readonly ts: number;
  readonly bid: Price | null;
  readonly ask: Price | null;
  readonly midV: Price | null;
}

interface Top {
  bid: Price | null;
  ask: Price | null;
}

export class L1CsvImporter {
  readonly stats: L1ImportStats = { rows: 0, rowsBySlug: {}, books: 0, deltas: 0, mids: 0, oneSided: 0, unchanged: 0 };
  private readonly tops = new Map<string, Top>();
  private header: string[] | null = null;
  private readonly pending: PendingRow[] = [];

  constructor(
    private readonly sink: RecordSink,
    private readonly size: Shares = SYNTHETIC_L1_SIZE,
  ) {}

  /** One CSV line (the first must be the header). `lineNo` names the line in errors. */
  line(text: string, lineNo: number): void {
    if (text.trim() === '') return;
    const cells = text.split(',');
    if (this.header === null) {
      if (cells.join(',') !== L1_COLUMNS.join(','))
        throw new ParseError(`line ${lineNo}`, `unexpected header ${JSON.stringify(text)}`);
      this.header = cells;
      return;
    }
    if (cells.length !== L1_COLUMNS.length)
      throw new ParseError(`line ${lineNo}`, `expected ${L1_COLUMNS.length} columns, got ${cells.length}`);
    const [, tsText, slug, , bidText, askText, midText] = cells as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    if (!/^\d+$/.test(tsText))
      throw new ParseError(`line ${lineNo}.ts_ms_assuming_utc`, `not an integer: ${JSON.stringify(tsText)}`);
    const ts = Number(tsText);
    if (!Number.isSafeInteger(ts)) throw new ParseError(`line ${lineNo}.ts_ms_assuming_utc`, 'out of range');
    if (slug === '') throw new ParseError(`line ${lineNo}.slug`, 'empty slug');
    const bid = bidText === '' ? null : parsePrice(bidText, `line ${lineNo}.bid`);
    const ask = askText === '' ? null : parsePrice(askText, `line ${lineNo}.ask`);
    const midV = midText === '' ? null : parsePrice(midText, `line ${lineNo}.mid`);
    // A level must be strictly inside (0, 1); the source has none at the bounds, but refuse them.
    for (const p of [bid, ask, midV])
      if (p !== null && (p <= 0 || p >= 1_000_000))
        throw new ParseError(`line ${lineNo}`, `price at a bound: ${String(p)}`);
    if (this.pending.length > 0 && (this.pending[0] as PendingRow).ts !== ts) this.flush();
    this.pending.push({ slug, ts, bid, ask, midV });
  }

  /**
   * Writes the buffered rows of one poll (one timestamp): first the settings of every market new
   * at it, then the books, deltas and mids, so a replay that starts at this instant knows every
   * market polled in it, not just the first. Call once after the last line.
   */
  flush(): void {
    const rows = this.pending.splice(0);
    for (const r of rows) {
      for (const tokenId of [l1TokenId(r.slug), l1ComplementTokenId(r.slug)]) {
        if (this.tops.has(tokenId) || this.sink.settingsOf(tokenId) !== undefined) continue;
        this.sink.settings(
          {
            tokenId,
            conditionId: l1ConditionId(r.slug),
            tickSize: null,
            minOrderSize: null,
            negRisk: null,
            makerFeeBps: null,
            takerFeeBps: null,
            rewards: null,
          },
          r.ts,
          r.ts,
        );
      }
    }
    for (const r of rows) this.row(r.slug, r.ts, r.bid, r.ask, r.midV);
  }

  private row(slug: string, ts: number, bid: Price | null, ask: Price | null, midV: Price | null): void {
    this.stats.rows++;
    this.stats.rowsBySlug[slug] = (this.stats.rowsBySlug[slug] ?? 0) + 1;
    if (bid === null || ask === null) this.stats.oneSided++;
    const conditionId = l1ConditionId(slug);
    const changed = this.top(l1TokenId(slug), conditionId, ts, bid, ask);
    // The complement's bids are the mirror of the quoted asks and vice versa.
    this.top(l1ComplementTokenId(slug), conditionId, ts, mirror(ask), mirror(bid));
    if (changed === 'book') this.stats.books++;
    else if (changed === 'delta') this.stats.deltas++;
    else this.stats.unchanged++;
    if (midV !== null) {
      this.sink.mid(l1TokenId(slug), ts, ts, midV);
      this.sink.mid(l1ComplementTokenId(slug), ts, ts, mirror(midV) as Price);
      this.stats.mids++;
    }
  }

  /** Records one token's top of book; what it wrote. */
  private top(
    tokenId: string,
    conditionId: string,
    ts: number,
    bid: Price | null,
    ask: Price | null,
  ): 'book' | 'delta' | 'none' {
    const prev = this.tops.get(tokenId);
    this.tops.set(tokenId, { bid, ask });
    if (prev === undefined) {
      if (this.sink.settingsOf(tokenId) === undefined)
        this.sink.settings(
          {
            tokenId,
            conditionId,
            tickSize: null,
            minOrderSize: null,
            negRisk: null,
            makerFeeBps: null,
            takerFeeBps: null,
            rewards: null,
          },
          ts,
          ts,
        );
      const level = (p: Price | null): Level[] => (p === null ? [] : [{ price: p, size: this.size }]);
      this.sink.book(tokenId, ts, ts, { bids: level(bid), asks: level(ask) });
      return 'book';
    }
    const changes: LevelChange[] = [];
    move(changes, 'bids', prev.bid, bid, this.size);
    move(changes, 'asks', prev.ask, ask, this.size);
    if (changes.length === 0) return 'none';
    this.sink.delta(tokenId, ts, ts, changes);
    return 'delta';
  }
}

function move(out: LevelChange[], side: 'bids' | 'asks', from: Price | null, to: Price | null, size: Shares): void {
  if (from === to) return;
  if (from !== null) out.push({ side, price: from, size: 0 as Shares });
  if (to !== null) out.push({ side, price: to, size });
}

/** Streams a CSV file by line into the sink. */
export async function importL1CsvFile(
  path: string,
  sink: RecordSink,
  size: Shares = SYNTHETIC_L1_SIZE,
): Promise<L1ImportStats> {
  const importer = new L1CsvImporter(sink, size);
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) importer.line(line, ++n);
  importer.flush();
  return importer.stats;
}
