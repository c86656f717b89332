// Market listing parsers on the real GET /markets page and single record; the sampling and
// simplified variants and /clob-markets settings have no recorded real payload: they are built
// from the real record plus the fields interface §2.8–2.10 adds.
import { describe, expect, it } from 'vitest';
import { parseClobMarketSettings, parseMarket, parseMarketsEnvelope } from '../../../src/exchange/parse/markets.js';
import type { WireClobMarketSettings, WireMarket, WireMarketsEnvelope } from '../../../src/exchange/wire.js';
import { clone, realJson, pathOf } from './fixtures.js';

const page = realJson('wire/markets/markets_get_page_nautilus_2024.json') as WireMarketsEnvelope<WireMarket>;
const single = realJson('clob_rest_market_single.json') as WireMarket;

describe('GET /markets', () => {
  it('parses the real page of 100 records', () => {
    const p = parseMarketsEnvelope(page, 'markets');
    expect(p.data).toHaveLength(100);
    expect(p.nextCursor).toBe('MTAw');
    expect(p.limit).toBe(100);
    expect(p.count).toBe(100);
    expect(p.data.filter((m) => m.closed)).toHaveLength(page.data.filter((m) => m.closed).length);
    expect(p.data.filter((m) => m.closed).length).toBeGreaterThan(90);
    for (const m of p.data) {
      expect([1000, 10_000]).toContain(m.tickSize);
      expect(m.acceptingOrderTimestamp).toBeNull(); // null in every real record: null, not ""
    }
    expect(new Set(p.data.map((m) => m.minOrderSize))).toEqual(
      new Set([0, 5_000_000, 14_970_000, 14_960_000, 15_000_000]),
    );
    // Placeholder tokens ("" ids) become null ids, not empty strings to look up.
    expect(p.data.some((m) => m.tokens.some((t) => t.tokenId === null))).toBe(true);
    // rewards.rates null → []; tags null → [].
    expect(p.data.filter((m) => m.rewards.rates.length > 0)).toHaveLength(1);
    expect(p.data.some((m) => m.tags.length === 0)).toBe(true);
  });

  it('parses the real single record with its reward program', () => {
    const m = parseMarket(single);
    expect(m.conditionId).toBe('0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917');
    expect(m.tickSize).toBe(1000);
    expect(m.minOrderSize).toBe(5_000_000);
    expect(m.negRisk).toBe(true);
    expect(m.gameStartTime).toBeNull();
    expect(m.endDateIso).toBe('2024-11-05T00:00:00Z');
    expect(m.fpmm).toBeNull();
    expect(m.rewards).toEqual({
      rates: [{ assetAddress: '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174', dailyRate: 750_000_000 }],
      dailyRate: 750_000_000,
      minSize: 200_000_000,
      maxSpreadCents: 1.5,
      maxSpread: 15_000,
    });
    expect(m.tokens).toEqual([
      {
        tokenId: '21742633143463906290569050155826241533067272736897614950488156847949938836455',
        outcome: 'Yes',
        price: 486_500,
        winner: false,
      },
      {
        tokenId: '48331043336612883890938759509493159234755048973500640148014422747788308965732',
        outcome: 'No',
        price: 513_500,
        winner: false,
      },
    ]);
    expect(m.tags).toContain('Politics');
    // Fields the 2024 record predates.
    expect([m.itode, m.takerOrderDelayMs, m.orderAgeSeconds, m.screeningCheckEnabled]).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it('reads the fields the current interface adds when present', () => {
    const w = {
      ...clone(single),
      itode: true,
      taker_order_delay_ms: 250,
      order_age_seconds: 3,
      screening_check_enabled: false,
    };
    const m = parseMarket(w);
    expect([m.itode, m.takerOrderDelayMs, m.orderAgeSeconds, m.screeningCheckEnabled]).toEqual([true, 250, 3, false]);
  });

  it('rejects malformed records with the path', () => {
    const bad = clone(page);
    (bad.data[7] as unknown as Record<string, unknown>)['minimum_tick_size'] = 0.003;
    expect(pathOf(() => parseMarketsEnvelope(bad, 'markets'))).toBe('data[7].minimum_tick_size');
    const bad2 = clone(page);
    (bad2.data[3]!.tokens[1] as unknown as Record<string, unknown>)['price'] = Number.NaN;
    expect(pathOf(() => parseMarketsEnvelope(bad2, 'markets'))).toBe('data[3].tokens[1].price');
    const bad3 = clone(single);
    (bad3 as unknown as Record<string, unknown>)['minimum_order_size'] = -5;
    expect(pathOf(() => parseMarket(bad3))).toBe('minimum_order_size');
    const bad4 = clone(single);
    (bad4 as unknown as Record<string, unknown>)['neg_risk'] = 'true';
    expect(pathOf(() => parseMarket(bad4))).toBe('neg_risk');
    const bad5 = clone(single);
    (bad5.rewards as unknown as Record<string, unknown>)['max_spread'] = Infinity;
    expect(pathOf(() => parseMarket(bad5))).toBe('rewards.max_spread');
    const bad6 = clone(single);
    (bad6 as unknown as Record<string, unknown>)['end_date_iso'] = 'next tuesday';
    expect(pathOf(() => parseMarket(bad6))).toBe('end_date_iso');
    const bad7 = clone(single);
    delete (bad7 as Partial<WireMarket>).condition_id;
    expect(pathOf(() => parseMarket(bad7))).toBe('condition_id');
    expect(pathOf(() => parseMarketsEnvelope({ ...page, next_cursor: 5 }, 'markets'))).toBe('next_cursor');
  });

  it('the last page cursor LTE= becomes null', () => {
    expect(
      parseMarketsEnvelope({ data: [], next_cursor: 'LTE=', limit: 100, count: 0 }, 'markets').nextCursor,
    ).toBeNull();
  });
});

describe('sampling and simplified listings', () => {
  const extra = {
    status: 'active',
    market_id: 253591,
    slug: 'will-donald-trump-win-the-2024-us-presidential-election',
    assets_ids: single.tokens.map((t) => t.token_id),
    outcomes: ['Yes', 'No'],
    event: {
      id: '903193',
      slug: 'presidential-election-winner-2024',
      title: 'Presidential Election Winner 2024',
      ticker: 'presidential-election-winner-2024',
      description: '',
    },
    raw_metadata: { any: ['thing'] },
  };

  it('sampling records carry the base fields plus the sampling ones', () => {
    const p = parseMarketsEnvelope(
      { data: [{ ...single, ...extra }], next_cursor: 'LTE=', limit: 1, count: 1 },
      'sampling',
    );
    const m = p.data[0]!;
    expect(m.marketId).toBe(253591);
    expect(m.slug).toBe(extra.slug);
    expect(m.marketSlug).toBe(single.market_slug);
    expect(m.event?.title).toBe('Presidential Election Winner 2024');
    expect(m.rawMetadata).toEqual({ any: ['thing'] });
    expect(m.tickSize).toBe(1000);
    expect(
      pathOf(() =>
        parseMarketsEnvelope(
          { data: [{ ...single, ...extra, market_id: '253591' }], next_cursor: '', limit: 1, count: 1 },
          'sampling',
        ),
      ),
    ).toBe('data[0].market_id');
  });

  it('simplified records', () => {
    const w = {
      condition_id: single.condition_id,
      status: 'active',
      neg_risk: true,
      market_id: 253591,
      question: single.question,
      slug: extra.slug,
      active: true,
      closed: false,
      archived: false,
      accepting_orders: true,
      tokens: single.tokens,
      rewards: single.rewards,
      assets_ids: extra.assets_ids,
      outcomes: extra.outcomes,
    };
    const m = parseMarketsEnvelope({ data: [w], next_cursor: 'MQ==', limit: 1, count: 1 }, 'simplified').data[0]!;
    expect(m.tokens.map((t) => t.price)).toEqual([486_500, 513_500]);
    expect(m.rewards.maxSpread).toBe(15_000);
    expect(
      pathOf(() =>
        parseMarketsEnvelope({ data: [{ ...w, assets_ids: [1] }], next_cursor: '', limit: 1, count: 1 }, 'simplified'),
      ),
    ).toBe('data[0].assets_ids[0]');
  });
});

describe('GET /clob-markets/{condition_id}', () => {
  const w: WireClobMarketSettings = {
    gst: '',
    r: single.rewards,
    c: single.condition_id,
    nr: true,
    t: [
      { t: single.tokens[0]!.token_id, o: 'Yes' },
      { t: single.tokens[1]!.token_id, o: 'No' },
    ],
    mts: 0.001,
    mos: 5,
    fd: { r: 0.02, e: 2, to: true },
    mbf: 0,
    tbf: 0,
    rfqe: false,
    itode: false,
    ibce: false,
    oas: 0,
  };

  it('parses the abbreviated settings into tick, size, fees, tokens', () => {
    const s = parseClobMarketSettings(w);
    expect(s.tickSize).toBe(1000);
    expect(s.minOrderSize).toBe(5_000_000);
    expect(s.gameStartTime).toBeNull();
    expect(s.negRisk).toBe(true);
    expect(s.tokens[1]).toEqual({ tokenId: single.tokens[1]!.token_id, outcome: 'No' });
    expect(s.feeDetails).toEqual({ r: 0.02, e: 2, to: true });
    expect(s.rewards?.dailyRate).toBe(750_000_000);
  });

  it('rejects malformed settings with the path', () => {
    expect(pathOf(() => parseClobMarketSettings({ ...w, mts: '0.001' }))).toBe('mts');
    expect(pathOf(() => parseClobMarketSettings({ ...w, fd: { r: 0.02, e: 2 } }))).toBe('fd.to');
    expect(pathOf(() => parseClobMarketSettings({ ...w, t: [{ t: '', o: 'Yes' }] }))).toBe('t[0].t');
    expect(pathOf(() => parseClobMarketSettings({ ...w, mbf: 1.5 }))).toBe('mbf');
  });
});
