// `oddsmaker import <kind> IN... --out FILE`: turns captured market data into a recording
// (src/marketdata/recording) through the importers, one kind per source:
// - market-stream: CLOB market-channel JSONL (book, price_change, tick_size_change, last_trade_price);
// - rest-book: CLOB GET /book answers (an object) or POST /books answers (an array), one per file;
// - data-api-trades: Data API GET /trades answers (arrays), one per file;
// - l1-csv: the L1 quotes CSV (top of book only, no sizes, no token ids).
// Beside the recording it writes `<FILE>.meta.json` (importers/sidecar.ts): depth, whether a
// book-level backtest can run on it and why not, token labels (from the input where it has them:
// trade rows' titles, L1 slugs; and from `--markets FILE`, market records). Invariants kept:
// - an import that cannot back a book-level backtest still writes the recording (it is valid data)
//   but says so and why on stderr; one that backs only an approximate one (L1) says which fill
//   model it supports; stdout holds one summary line;
// - the output file is new: an existing --out is a usage error (exit 2) unless --force, since the
//   writer appends to an existing recording and an import appended to another would mix them;
// - a malformed input fails with exit 1 naming the line or field (the importers' ParseError);
// - equal inputs give byte-identical outputs (the importers take their times from the data).
import { readFileSync, rmSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { ParseError } from '../core/errors.js';
import type { Price } from '../core/money.js';
import { importDataApiTrades } from '../marketdata/recording/importers/data-api-trades.js';
import { importL1CsvFile, l1ComplementTokenId, l1TokenId } from '../marketdata/recording/importers/l1-csv.js';
import { importMarketStreamFile } from '../marketdata/recording/importers/market-stream.js';
import { importRestBooks } from '../marketdata/recording/importers/rest-book.js';
import { writeSidecar, type RecordingDepth, type TokenLabel } from '../marketdata/recording/importers/sidecar.js';
import type { LevelChange, RecordedMarketSettings, TradeObservation } from '../marketdata/recording/format.js';
import { RecordingWriter, type BookObservation, type RecordSink } from '../marketdata/recording/writer.js';
import { UsageError } from './exit-codes.js';
import { checkOutFile } from './out-file.js';

export const IMPORT_KINDS = ['market-stream', 'rest-book', 'data-api-trades', 'l1-csv'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export interface ImportCliOptions {
  out: string;
  force?: boolean;
  /** A JSON file of market records whose questions and outcomes label the tokens. */
  markets?: string;
}

export interface ImportIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}

export interface ImportResult {
  readonly kind: ImportKind;
  readonly depth: RecordingDepth;
  readonly backtestable: boolean;
  readonly note: string;
  readonly stats: Record<string, unknown>;
}

/** Wraps a sink, remembering which tokens of which market got settings and books. */
class Census implements RecordSink {
  readonly tokensOf = new Map<string, Set<string>>();
  readonly booked = new Set<string>();
  books = 0;
  trades = 0;
  constructor(private readonly inner: RecordingWriter) {}
  settingsOf(tokenId: string): RecordedMarketSettings | undefined {
    return this.inner.settingsOf(tokenId);
  }
  settings(s: RecordedMarketSettings, ex: number, local: number): void {
    let set = this.tokensOf.get(s.conditionId);
    if (set === undefined) this.tokensOf.set(s.conditionId, (set = new Set()));
    set.add(s.tokenId);
    this.inner.settings(s, ex, local);
  }
  book(tokenId: string, ex: number, local: number, b: BookObservation): void {
    this.books++;
    this.booked.add(tokenId);
    this.inner.book(tokenId, ex, local, b);
  }
  delta(tokenId: string, ex: number, local: number, c: readonly LevelChange[]): void {
    this.inner.delta(tokenId, ex, local, c);
  }
  mid(tokenId: string, ex: number, local: number, m: Price): void {
    this.inner.mid(tokenId, ex, local, m);
  }
  trade(tokenId: string, ex: number, local: number, t: TradeObservation): void {
    this.trades++;
    this.inner.trade(tokenId, ex, local, t);
  }
  /** Markets with two recorded tokens and a book of one of them: what the replay engine needs. */
  replayableMarkets(): number {
    let n = 0;
    for (const tokens of this.tokensOf.values())
      if (tokens.size >= 2 && [...tokens].some((t) => this.booked.has(t))) n++;
    return n;
  }
}

function readJson(path: string): unknown {
  const text = readFileSync(path, 'utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new ParseError(path, `not valid JSON: ${(err as Error).message}`);
  }
}

/** Question/outcome labels from Data API trade rows (`asset`, `title`, `outcome`), read leniently. */
function tradeLabels(answers: readonly unknown[]): Record<string, TokenLabel> {
  const out: Record<string, TokenLabel> = {};
  for (const a of answers) {
    if (!Array.isArray(a)) continue;
    for (const r of a as unknown[]) {
      if (typeof r !== 'object' || r === null) continue;
      const o = r as Record<string, unknown>;
      if (typeof o['asset'] === 'string' && typeof o['title'] === 'string') {
        out[o['asset']] = { question: o['title'], outcome: typeof o['outcome'] === 'string' ? o['outcome'] : '' };
      }
    }
  }
  return out;
}

/**
 * Question/outcome labels from market records, read leniently (records of another shape are
 * skipped): CLOB markets (`question`, `tokens[{token_id, outcome}]`), Gamma markets (`question`,
 * `clobTokenIds` and `outcomes` as JSON-in-string), Gamma events (`markets[]`), a CLOB page
 * (`data[]`), or an array of any of these.
 */
export function marketLabels(json: unknown): Record<string, TokenLabel> {
  const out: Record<string, TokenLabel> = {};
  const strList = (v: unknown): string[] => {
    let x = v;
    if (typeof x === 'string') {
      try {
        x = JSON.parse(x) as unknown;
      } catch {
        return [];
      }
    }
    return Array.isArray(x) ? x.filter((e): e is string => typeof e === 'string') : [];
  };
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) {
      v.forEach(visit);
      return;
    }
    if (typeof v !== 'object' || v === null) return;
    const o = v as Record<string, unknown>;
    if (Array.isArray(o['data'])) visit(o['data']);
    if (Array.isArray(o['markets'])) visit(o['markets']);
    const q = o['question'];
    if (typeof q !== 'string') return;
    if (Array.isArray(o['tokens'])) {
      for (const t of o['tokens'] as unknown[]) {
        if (typeof t !== 'object' || t === null) continue;
        const r = t as Record<string, unknown>;
        if (typeof r['token_id'] === 'string')
          out[r['token_id']] = { question: q, outcome: typeof r['outcome'] === 'string' ? r['outcome'] : '' };
      }
    }
    const ids = strList(o['clobTokenIds']);
    const outcomes = strList(o['outcomes']);
    ids.forEach((id, i) => {
      out[id] = { question: q, outcome: outcomes[i] ?? '' };
    });
  };
  visit(json);
  return out;
}

function checkInputs(inputs: readonly string[]): void {
  if (inputs.length === 0) throw new UsageError('import: name at least one input file');
  for (const p of inputs) {
    let ok = false;
    try {
      ok = statSync(p).isFile();
    } catch {
      ok = false;
    }
    if (!ok) throw new UsageError(`import: input ${JSON.stringify(p)}: no such file`);
  }
}

export async function runImportCommand(
  kindRaw: string,
  inputs: readonly string[],
  o: ImportCliOptions,
  io: ImportIo,
): Promise<ImportResult> {
  if (!(IMPORT_KINDS as readonly string[]).includes(kindRaw))
    throw new UsageError(`import: kind must be one of ${IMPORT_KINDS.join(', ')}, got ${JSON.stringify(kindRaw)}`);
  const kind = kindRaw as ImportKind;
  if (o.out === '') throw new UsageError('--out must name a file');
  checkInputs(inputs);
  if (o.markets !== undefined) {
    let ok = false;
    try {
      ok = statSync(o.markets).isFile();
    } catch {
      ok = false;
    }
    if (!ok) throw new UsageError(`--markets ${JSON.stringify(o.markets)}: no such file`);
  }
  if (kind === 'l1-csv' && inputs.length !== 1) throw new UsageError('import l1-csv: takes exactly one CSV file');
  const exists = checkOutFile(o.out, o.force);
  if (exists) {
    rmSync(o.out);
    rmSync(`${o.out}.meta.json`, { force: true });
  }

  const writer = await RecordingWriter.open(o.out);
  const sink = new Census(writer);
  let stats: Record<string, unknown>;
  let labels: Record<string, TokenLabel> = {};
  let depth: RecordingDepth = 'full';
  let backtestable = true;
  let note = '';
  try {
    switch (kind) {
      case 'market-stream': {
        const parts: Record<string, unknown>[] = [];
        for (const p of inputs) parts.push({ ...(await importMarketStreamFile(p, sink)) });
        stats = parts.length === 1 ? (parts[0] as Record<string, unknown>) : { files: parts };
        break;
      }
      case 'rest-book': {
        let books = 0;
        for (const p of inputs) books += importRestBooks(readJson(p), sink).length;
        stats = { files: inputs.length, books };
        break;
      }
      case 'data-api-trades': {
        const answers = inputs.map(readJson);
        stats = { ...importDataApiTrades(answers, sink) };
        labels = tradeLabels(answers);
        depth = 'none';
        break;
      }
      case 'l1-csv': {
        const s = await importL1CsvFile(inputs[0] as string, sink);
        stats = { ...s };
        depth = 'L1';
        for (const slug of Object.keys(s.rowsBySlug)) {
          labels[l1TokenId(slug)] = { question: slug, outcome: 'quoted' };
          labels[l1ComplementTokenId(slug)] = { question: slug, outcome: 'complement (mirrored)' };
        }
        break;
      }
    }
  } finally {
    await writer.close();
  }

  if (o.markets !== undefined) labels = { ...labels, ...marketLabels(readJson(o.markets)) };
  const markets = sink.replayableMarkets();
  if (kind === 'data-api-trades') {
    backtestable = false;
    note =
      'not backtestable on its own: public trades carry no order book, and the backtest fills ' +
      'resting orders against recorded books (trades only move the queue ahead of them); import ' +
      'books of the same markets (market-stream or rest-book) for a book-level backtest';
  } else if (markets === 0) {
    backtestable = false;
    note =
      sink.books === 0
        ? 'not backtestable: the input holds no order book'
        : 'not backtestable: no market has both of its tokens recorded with a book (the backtest quotes ' +
          "a binary market's two tokens); a single REST book names one token only: import books of " +
          'both tokens, or the market channel';
  } else if (kind === 'rest-book' && sink.books <= markets * 2) {
    note =
      'backtestable, but each token has a single snapshot: the book never changes, so only ' +
      'crossing fills can happen; import a series of books (several files) or the market channel';
  } else if (kind === 'l1-csv') {
    note =
      'backtestable with an approximate fill model: depth is L1 (top of book only, one level of a ' +
      'synthetic 100-share size per side, the complement token mirrored); `cross` fills are as ' +
      "exact as the quotes, the queue models' queue position is approximate";
  }
  await writeSidecar(o.out, { version: 1, source: kind, depth, backtestable, note, labels });
  if (note !== '') io.stderr(`import ${kind}: ${note}`);
  io.stdout(
    `import ${kind}: ${inputs.length} file${inputs.length === 1 ? '' : 's'} → ${o.out} (${markets} replayable market${markets === 1 ? '' : 's'}, depth ${depth}); ${JSON.stringify(stats)}`,
  );
  return { kind, depth, backtestable, note, stats };
}

export function register(program: Command): void {
  program
    .command('import')
    .description(`import captured market data into a recording: ${IMPORT_KINDS.join(' | ')}`)
    .argument('<kind>', IMPORT_KINDS.join(' | '))
    .argument(
      '<in...>',
      'input file(s): JSONL (market-stream), JSON answers (rest-book, data-api-trades), CSV (l1-csv)',
    )
    .requiredOption('--out <file>', 'recording to write (also writes <file>.meta.json)')
    .option('--force', 'replace an existing --out')
    .option(
      '--markets <file>',
      'JSON market records (CLOB market(s) or page, Gamma market(s) or event(s)): label tokens by question and outcome',
    )
    .action(async (kind: string, inputs: string[], o: ImportCliOptions) => {
      await runImportCommand(kind, inputs, o, {
        stdout: (l) => {
          process.stdout.write(`${l}\n`);
        },
        stderr: (l) => {
          process.stderr.write(`${l}\n`);
        },
      });
    });
}
