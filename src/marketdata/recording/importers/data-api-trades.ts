// Imports Data API `GET /trades` answers (docs/protocol.md §8: an array of rows, numbers as numbers or,
// in the real captures, as strings; `timestamp` Unix seconds) into TRADE records. Invariants:
// - rows enter only through the exchange parser (parseTrades: strict decimals, no Number() on a
//   wire decimal), so a malformed row throws ParseError naming it;
// - each row is taken as the taker's row of its match (the Data API's default, takerOnly=true):
//   `side` is the aggressor's. Rows of a `takerOnly=false` capture would also hold the maker rows
//   (the other side of the same match) and must not be imported as they are;
// - rows are written oldest first (the API lists newest first; ties in the reverse of the listed
//   order), each distinct (transactionHash, asset, price, size, side, timestamp) once;
// - a token without settings gets minimal ones (its condition id, everything else unknown) before
//   its first trade; exchange time = timestamp × 1000; local time = the exchange time unless the
//   caller supplies a function.
import { ParseError, OptionError } from '../../../core/errors.js';
import type { Trade } from '../../../core/market.js';
import { SCALE } from '../../../core/money.js';
import { parseTrades } from '../../../exchange/parse/index.js';
import { tradeKey } from '../../trade-tape.js';
import type { RecordSink } from '../writer.js';

export interface TradesImportOptions {
  /** localTs for a trade with this exchange timestamp (ms); default: the exchange timestamp. */
  readonly localTs?: (exchangeTs: number) => number;
}

export interface TradesImportStats {
  rows: number;
  trades: number;
  duplicates: number;
}

/** Imports one or more `GET /trades` answers (each an array). */
export function importDataApiTrades(
  answers: readonly unknown[],
  sink: RecordSink,
  opts: TradesImportOptions = {},
): TradesImportStats {
  const write = sink.trade;
  if (write === undefined) throw new OptionError('MARKETDATA_OPTION', 'the sink does not record trades');
  const stats: TradesImportStats = { rows: 0, trades: 0, duplicates: 0 };
  const rows: Array<{ t: Trade; order: number }> = [];
  answers.forEach((json, a) => {
    const page = parseTrades(json, `[${a}]`);
    page.forEach((t, i) => {
      if (!(t.price > 0 && t.price < SCALE))
        throw new ParseError(`[${a}][${i}].price`, `trade price out of (0, 1): ${t.price}`);
      if (!(t.size > 0)) throw new ParseError(`[${a}][${i}].size`, 'trade size must be positive');
      rows.push({ t, order: rows.length });
    });
  });
  stats.rows = rows.length;
  // Oldest first; within a second, the reverse of the listing (newest first, latest first).
  rows.sort((x, y) => x.t.timestamp - y.t.timestamp || y.order - x.order);
  const seen = new Set<string>();
  for (const { t } of rows) {
    const key = tradeKey(t);
    if (seen.has(key)) {
      stats.duplicates++;
      continue;
    }
    seen.add(key);
    if (sink.settingsOf(t.asset) === undefined) {
      sink.settings(
        {
          tokenId: t.asset,
          conditionId: t.conditionId,
          tickSize: null,
          minOrderSize: null,
          negRisk: null,
          makerFeeBps: null,
          takerFeeBps: null,
          rewards: null,
        },
        t.timestamp * 1000,
        local(t.timestamp * 1000),
      );
    }
    write.call(sink, t.asset, t.timestamp * 1000, local(t.timestamp * 1000), {
      price: t.price,
      size: t.size,
      side: t.side,
    });
    stats.trades++;
  }
  return stats;

  function local(ts: number): number {
    return opts.localTs === undefined ? ts : opts.localTs(ts);
  }
}
