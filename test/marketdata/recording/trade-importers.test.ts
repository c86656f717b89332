// Trade importers on the real captures (test/fixtures/real, SOURCES.md there): the market
// channel's `last_trade_price` becomes one TRADE with the taker's side and the ms timestamp; the
// Data API's `GET /trades` rows (numbers as strings) become TRADEs oldest first with second
// timestamps, a repeated row once; a book-only sink skips trades; malformed rows throw ParseError.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/core/errors.js';
import { importDataApiTrades } from '../../../src/marketdata/recording/importers/data-api-trades.js';
import { MarketStreamImporter } from '../../../src/marketdata/recording/importers/market-stream.js';
import { memoryEncoder, readBuffer } from './support.js';
import { REAL_FIXTURES } from '../../support/fixtures.js';

const FIX = REAL_FIXTURES;
const json = (name: string): unknown => JSON.parse(readFileSync(join(FIX, name), 'utf8'));

describe('trade importers (real captures)', () => {
  it('market channel last_trade_price → TRADE (taker side, ms time), settings first', async () => {
    const mem = memoryEncoder();
    const imp = new MarketStreamImporter(mem.enc, { localTs: (ts) => ts + 5 });
    imp.message(json('clob_ws_last_trade_price_2024.json'));
    mem.enc.flush();
    expect(imp.stats).toMatchObject({ messages: 1, trades: 1, skipped: {} });
    const { events } = await readBuffer(mem.bytes());
    expect(events).toEqual([
      expect.objectContaining({
        kind: 'settings',
        tokenId: '21742633143463906290569050155826241533067272736897614950488156847949938836455',
        settings: expect.objectContaining({
          conditionId: '0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917',
        }),
      }),
      {
        kind: 'trade',
        tokenId: '21742633143463906290569050155826241533067272736897614950488156847949938836455',
        exchangeTs: 1724564136087,
        localTs: 1724564136092,
        restated: false,
        price: 491_000,
        size: 85_360_000,
        side: 'SELL',
      },
    ]);
  });

  it('a book-only sink skips last_trade_price (counted)', () => {
    const mem = memoryEncoder();
    const sink = {
      settingsOf: mem.enc.settingsOf.bind(mem.enc),
      settings: mem.enc.settings.bind(mem.enc),
      book: mem.enc.book.bind(mem.enc),
      delta: mem.enc.delta.bind(mem.enc),
      mid: mem.enc.mid.bind(mem.enc),
    };
    const imp = new MarketStreamImporter(sink);
    imp.message(json('clob_ws_last_trade_price_2024.json'));
    expect(imp.stats).toMatchObject({ trades: 0, skipped: { last_trade_price: 1 } });
  });

  it('Data API trades (numbers as strings) → TRADEs oldest first, second timestamps, duplicates once', async () => {
    const mem = memoryEncoder();
    const page = json('wire/portfolio/trades_get_ccxt_2026-06-12.json');
    const stats = importDataApiTrades([page, page], mem.enc, { localTs: (ts) => ts + 250 });
    mem.enc.flush();
    expect(stats).toEqual({ rows: 6, trades: 3, duplicates: 3 });
    const { events } = await readBuffer(mem.bytes());
    const yes = '16040015440196279900485035793550429453516625694844857319147506590755961451627';
    const no = '94476829201604408463453426454480212459887267917122244941405244686637914508323';
    expect(events.filter((e) => e.kind === 'trade')).toEqual([
      {
        kind: 'trade',
        tokenId: yes,
        exchangeTs: 1781288632000,
        localTs: 1781288632250,
        restated: false,
        price: 152_000,
        size: 368_000_000,
        side: 'BUY',
      },
      {
        kind: 'trade',
        tokenId: no,
        exchangeTs: 1781288635000,
        localTs: 1781288635250,
        restated: false,
        price: 848_000,
        size: 11_770_000,
        side: 'SELL',
      },
      {
        kind: 'trade',
        tokenId: yes,
        exchangeTs: 1781289172000,
        localTs: 1781289172250,
        restated: false,
        price: 152_000,
        size: 256_000_000,
        side: 'BUY',
      },
    ]);
    expect(
      events.filter((e) => e.kind === 'settings').map((e) => e.kind === 'settings' && e.settings.conditionId),
    ).toEqual([
      '0x7ad403c3508f8e3912940fd1a913f227591145ca0614074208e0b962d5fcc422',
      '0x7ad403c3508f8e3912940fd1a913f227591145ca0614074208e0b962d5fcc422',
    ]);
  });

  it('a malformed row throws ParseError naming it', () => {
    const rows = json('wire/portfolio/trades_get_ccxt_2026-06-12.json') as Array<Record<string, unknown>>;
    const bad = [{ ...rows[0], price: '0.15x' }];
    expect(() => importDataApiTrades([bad], memoryEncoder().enc)).toThrow(ParseError);
    expect(() => importDataApiTrades([[{ ...rows[0], size: '0' }]], memoryEncoder().enc)).toThrow(ParseError);
  });
});
