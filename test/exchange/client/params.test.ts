// The parameter tables of interface §4.4/§4.5 and docs/protocol.md §8 and their validator, without a
// server: defaults applied and sent, every bound accepted at its edge and rejected one past it
// with an error naming the parameter and the value, enums, lengths, unknown names, encoding.
// (The same rejections through the client, with a server that must see no request, are in
// client-bounds.test.ts.)
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ClientValidationError } from '../../../src/exchange/errors.js';
import { encodeQuery, normalizeParams, plainNumber, type ParamTable } from '../../../src/exchange/params/spec.js';
import {
  BATCH_PRICES_HISTORY_OPTIONS,
  CLOSED_POSITIONS,
  COMMENTS,
  CREATOR_ONLY,
  EVENTS,
  LEADERBOARD,
  POSITIONS,
  PRICE,
  PRICES_HISTORY,
  PUBLIC_SEARCH,
  TAGS,
  TOKEN_ONLY,
  TRADES,
} from '../../../src/exchange/params/tables.js';

const USER = '0x6af75d4e4aaf700450efbac3708cce1665810ff1';

function rejects(table: ParamTable, input: object, param: string): ClientValidationError {
  try {
    normalizeParams(table, input);
  } catch (e) {
    expect(e).toBeInstanceOf(ClientValidationError);
    const err = e as ClientValidationError;
    expect(err.code).toBe('CLIENT_INVALID_PARAM');
    expect(err.param).toBe(param);
    expect(err.message.startsWith(`${param}:`)).toBe(true);
    return err;
  }
  throw new Error(`expected ${param} to be rejected in ${JSON.stringify(input)}`);
}

/** Integer bounds of each table, as the spec states them: [table, param, min, max|null, base input]. */
const INTEGER_BOUNDS: Array<[ParamTable, string, number, number | null, object]> = [
  [POSITIONS, 'limit', 0, 500, { user: USER }],
  [POSITIONS, 'offset', 0, 10_000, { user: USER }],
  [CLOSED_POSITIONS, 'limit', 0, 50, { user: USER }],
  [CLOSED_POSITIONS, 'offset', 0, 100_000, { user: USER }],
  [EVENTS, 'limit', 1, 100, {}],
  [EVENTS, 'offset', 0, null, {}],
  [EVENTS, 'tag_id', 0, null, {}],
  [COMMENTS('GET /comments/{id}'), 'limit', 1, 100, {}],
  [COMMENTS('GET /comments/{id}'), 'offset', 0, null, {}],
  [LEADERBOARD, 'limit', 1, 50, {}],
  [LEADERBOARD, 'offset', 0, 1000, {}],
  [TRADES, 'limit', 1, 500, {}],
  [TRADES, 'offset', 0, null, {}],
  [TAGS, 'limit', 1, 100, {}],
  [TAGS, 'offset', 0, null, {}],
  [PUBLIC_SEARCH, 'limit_per_type', 1, null, { q: 'x' }],
  [PRICES_HISTORY, 'fidelity', 1, null, { market: '1' }],
  [PRICES_HISTORY, 'startTs', 0, null, { market: '1' }],
  [BATCH_PRICES_HISTORY_OPTIONS, 'fidelity', 1, null, {}],
];

describe('integer bounds', () => {
  for (const [table, param, min, max, base] of INTEGER_BOUNDS) {
    it(`${table.route} ${param} in [${min}, ${max ?? '∞'}]`, () => {
      expect(normalizeParams(table, { ...base, [param]: min }).get(param)).toBe(min);
      rejects(table, { ...base, [param]: min - 1 }, param);
      if (max !== null) {
        expect(normalizeParams(table, { ...base, [param]: max }).get(param)).toBe(max);
        const err = rejects(table, { ...base, [param]: max + 1 }, param);
        expect(err.value).toBe(max + 1);
        expect(err.message).toContain(String(max + 1));
      }
      rejects(table, { ...base, [param]: min + 0.5 }, param);
      rejects(table, { ...base, [param]: String(min) }, param);
      rejects(table, { ...base, [param]: Number.NaN }, param);
    });
  }

  it('any integer inside positions limit bounds passes, any outside fails', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000, max: 10_000 }), (n) => {
        const ok = n >= 0 && n <= 500;
        try {
          normalizeParams(POSITIONS, { user: USER, limit: n });
          return ok;
        } catch (e) {
          return !ok && e instanceof ClientValidationError && e.param === 'limit';
        }
      }),
    );
  });
});

describe('defaults', () => {
  it('positions: every default of §4.4, sent explicitly in table order', () => {
    expect(encodeQuery(POSITIONS, { user: USER })).toBe(
      `user=${USER}&sizeThreshold=1&redeemable=false&mergeable=false&limit=100&offset=0&sortBy=TOKENS&sortDirection=DESC`,
    );
  });

  it('closed positions', () => {
    expect(encodeQuery(CLOSED_POSITIONS, { user: USER })).toBe(
      `user=${USER}&limit=10&offset=0&sortBy=REALIZEDPNL&sortDirection=DESC`,
    );
  });

  it('events, comments, tags, trades, leaderboard', () => {
    expect(encodeQuery(EVENTS, {})).toBe('limit=20&offset=0&ascending=false');
    expect(encodeQuery(COMMENTS('GET /comments/{id}'), {})).toBe('limit=20&offset=0');
    expect(encodeQuery(TAGS, {})).toBe('limit=20&offset=0');
    expect(encodeQuery(TRADES, {})).toBe('limit=100&offset=0');
    expect(encodeQuery(LEADERBOARD, {})).toBe('category=OVERALL&timePeriod=DAY&orderBy=PNL&limit=25&offset=0');
  });

  it('an explicit value replaces the default', () => {
    expect(
      encodeQuery(LEADERBOARD, { category: 'CRYPTO', limit: 50, orderBy: 'VOL', timePeriod: 'ALL', offset: 1000 }),
    ).toBe('category=CRYPTO&timePeriod=ALL&orderBy=VOL&limit=50&offset=1000');
  });

  it('routes without parameters of their own encode to nothing', () => {
    expect(encodeQuery(CREATOR_ONLY('GET /events/slug/{slug}'), {})).toBe('');
    expect(encodeQuery(CREATOR_ONLY('GET /events/slug/{slug}'), { creator: 'site-a' })).toBe('creator=site-a');
  });
});

describe('enums', () => {
  const ENUMS: Array<[ParamTable, string, readonly string[], object]> = [
    [
      POSITIONS,
      'sortBy',
      ['CURRENT', 'INITIAL', 'TOKENS', 'CASHPNL', 'PERCENTPNL', 'TITLE', 'RESOLVING', 'PRICE', 'AVGPRICE'],
      { user: USER },
    ],
    [POSITIONS, 'sortDirection', ['ASC', 'DESC'], { user: USER }],
    [CLOSED_POSITIONS, 'sortBy', ['REALIZEDPNL', 'TITLE', 'PRICE', 'AVGPRICE', 'TIMESTAMP'], { user: USER }],
    [CLOSED_POSITIONS, 'sortDirection', ['ASC', 'DESC'], { user: USER }],
    [
      LEADERBOARD,
      'category',
      ['OVERALL', 'POLITICS', 'SPORTS', 'CRYPTO', 'FINANCE', 'CULTURE', 'MENTIONS', 'WEATHER', 'ECONOMICS', 'TECH'],
      {},
    ],
    [LEADERBOARD, 'timePeriod', ['DAY', 'WEEK', 'MONTH', 'ALL'], {}],
    [LEADERBOARD, 'orderBy', ['PNL', 'VOL'], {}],
    [PRICES_HISTORY, 'interval', ['max', 'all', '1m', '1w', '1d', '6h', '1h'], { market: '1' }],
    [PRICE, 'side', ['BUY', 'SELL'], { token_id: '1' }],
  ];
  for (const [table, param, values, base] of ENUMS) {
    it(`${table.route} ${param}: exactly ${values.length} values`, () => {
      for (const v of values) expect(normalizeParams(table, { ...base, [param]: v }).get(param)).toBe(v);
      rejects(
        table,
        {
          ...base,
          [param]: values[0]!.toLowerCase() === values[0] ? values[0]!.toUpperCase() : values[0]!.toLowerCase(),
        },
        param,
      );
      rejects(table, { ...base, [param]: 'NOPE' }, param);
    });
  }
});

describe('strings, lists, booleans, required, unknown', () => {
  it('title length <= 100 on both position routes', () => {
    for (const table of [POSITIONS, CLOSED_POSITIONS]) {
      expect(normalizeParams(table, { user: USER, title: 't'.repeat(100) }).get('title')).toHaveLength(100);
      const err = rejects(table, { user: USER, title: 't'.repeat(101) }, 'title');
      expect(err.message).toContain('101');
    }
  });

  it('user is required on portfolio routes and must be an address', () => {
    rejects(POSITIONS, {}, 'user');
    rejects(CLOSED_POSITIONS, {}, 'user');
    rejects(POSITIONS, { user: 'alice' }, 'user');
    rejects(POSITIONS, { user: '' }, 'user');
    rejects(LEADERBOARD, { user: '0x12' }, 'user');
    rejects(TRADES, { user: USER.slice(0, 41) }, 'user');
  });

  it('required parameters of §8 routes', () => {
    rejects(PUBLIC_SEARCH, {}, 'q');
    rejects(PRICES_HISTORY, {}, 'market');
    rejects(PRICE, { token_id: '1' }, 'side');
    rejects(TOKEN_ONLY('GET /book'), {}, 'token_id');
  });

  it('sizeThreshold >= 0, any finite number, printed without exponent', () => {
    expect(encodeQuery(POSITIONS, { user: USER, sizeThreshold: 0 })).toContain('sizeThreshold=0&');
    expect(encodeQuery(POSITIONS, { user: USER, sizeThreshold: 0.0000001 })).toContain('sizeThreshold=0.0000001&');
    expect(encodeQuery(POSITIONS, { user: USER, sizeThreshold: 2.5 })).toContain('sizeThreshold=2.5&');
    rejects(POSITIONS, { user: USER, sizeThreshold: -0.01 }, 'sizeThreshold');
    rejects(POSITIONS, { user: USER, sizeThreshold: Number.POSITIVE_INFINITY }, 'sizeThreshold');
  });

  it('booleans must be booleans', () => {
    expect(encodeQuery(POSITIONS, { user: USER, redeemable: true })).toContain('redeemable=true');
    rejects(POSITIONS, { user: USER, redeemable: 'true' }, 'redeemable');
    rejects(EVENTS, { active: 1 }, 'active');
  });

  it('market lists are comma-joined; empty items and commas inside items are refused', () => {
    const q = encodeQuery(POSITIONS, { user: USER, market: ['0xaa', '0xbb'] });
    expect(q).toContain('market=0xaa,0xbb');
    expect(new URLSearchParams(q).get('market')).toBe('0xaa,0xbb');
    rejects(POSITIONS, { user: USER, market: ['0xaa', ''] }, 'market[1]');
    rejects(POSITIONS, { user: USER, market: ['0xaa,0xbb'] }, 'market[0]');
    rejects(POSITIONS, { user: USER, market: '0xaa' }, 'market');
  });

  it('unknown parameters are refused by name (the server would answer unknown_field)', () => {
    const err = rejects(POSITIONS, { user: USER, sortby: 'TITLE' }, 'sortby');
    expect(err.message).toContain('GET /positions');
    rejects(LEADERBOARD, { window: 'DAY' }, 'window');
  });

  it('undefined means absent', () => {
    expect(encodeQuery(EVENTS, { active: undefined, slug: undefined })).toBe('limit=20&offset=0&ascending=false');
  });

  it('percent-encodes values', () => {
    expect(encodeQuery(PUBLIC_SEARCH, { q: 'a b&c=d/é' })).toBe('q=a%20b%26c%3Dd%2F%C3%A9');
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 50 }),
        (s) => new URLSearchParams(encodeQuery(PUBLIC_SEARCH, { q: s })).get('q') === s,
      ),
    );
  });
});

describe('cross-parameter checks', () => {
  it('events: tag is an alias of tag_slug', () => {
    expect(encodeQuery(EVENTS, { tag: 'crypto', tag_slug: 'crypto' })).toContain('tag=crypto');
    rejects(EVENTS, { tag: 'crypto', tag_slug: 'sports' }, 'tag');
  });

  it('price history: interval excludes a time range; start <= end', () => {
    expect(encodeQuery(PRICES_HISTORY, { market: '1', startTs: 10, endTs: 20, fidelity: 5 })).toBe(
      'market=1&startTs=10&endTs=20&fidelity=5',
    );
    rejects(PRICES_HISTORY, { market: '1', startTs: 10, interval: '1d' }, 'interval');
    rejects(PRICES_HISTORY, { market: '1', startTs: 30, endTs: 20 }, 'startTs');
    rejects(BATCH_PRICES_HISTORY_OPTIONS, { end_ts: 5, interval: 'max' }, 'interval');
    rejects(BATCH_PRICES_HISTORY_OPTIONS, { start_ts: 6, end_ts: 5 }, 'start_ts');
  });
});

describe('plainNumber', () => {
  it('never prints an exponent', () => {
    fc.assert(fc.property(fc.double({ min: 0, max: 1e15, noNaN: true }), (n) => !/e/i.test(plainNumber(n))));
    expect(plainNumber(1e21)).toBe('1000000000000000000000');
    expect(plainNumber(1e-7)).toBe('0.0000001');
  });
});
