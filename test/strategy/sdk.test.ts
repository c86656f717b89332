// The strategy SDK: price and size helpers, param schemas and their errors, the runner's lifecycle
// and state threading, its checks on a strategy's output, and the context accessors.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { InvariantError, ParseError } from '../../src/core/errors.js';
import type { Price, Shares } from '../../src/core/money.js';
import {
  askFromFloat,
  askPrice,
  bidFromFloat,
  bidPrice,
  complementOf,
  defineStrategy,
  findToken,
  fromPino,
  fromSchema,
  microsParam,
  midOf,
  minSizeOf,
  priceParam,
  sharesFromFloat,
  sharesParam,
  silentLogger,
  tickOf,
  z,
  type DesiredQuote,
  type StrategyFill,
} from '../../src/strategy/sdk.js';
import { fixtureBook, input, marketView, NOW, settings, SH, tokenView, trumpSettings } from './factories.js';

const TICK = 10_000 as Price;

describe('sdk: money helpers', () => {
  it('bids floor and asks ceil to the tick; outside [tick, 1 − tick] is null', () => {
    expect(bidPrice(487_500, TICK)).toBe(480_000);
    expect(askPrice(487_500, TICK)).toBe(490_000);
    expect(bidPrice(490_000, TICK)).toBe(490_000);
    expect(bidPrice(9_999, TICK)).toBeNull();
    expect(askPrice(990_001, TICK)).toBeNull();
    expect(askPrice(990_000, TICK)).toBe(990_000);
  });

  it('floats come back through one snap, without binary noise', () => {
    expect(bidFromFloat(0.1 + 0.2, TICK)).toBe(300_000); // 0.30000000000000004
    expect(askFromFloat(0.7 - 0.4, TICK)).toBe(300_000); // 0.29999999999999993
    expect(bidFromFloat(0.5049, 1_000 as Price)).toBe(504_000);
    expect(askFromFloat(0.5041, 1_000 as Price)).toBe(505_000);
    expect(bidFromFloat(0.004, TICK)).toBeNull();
    expect(() => bidFromFloat(Number.NaN, TICK)).toThrow();
  });

  it('sizes from floats truncate to 0.01 share', () => {
    expect(sharesFromFloat(12.3456)).toBe(12_340_000);
    expect(sharesFromFloat(0.009)).toBe(0);
    expect(sharesFromFloat(0.1 * 3)).toBe(300_000);
  });
});

describe('sdk: params', () => {
  const schema = z
    .object({ p: priceParam({ above: 0 }), s: sharesParam({ min: 1, max: 1000 }), m: microsParam({ min: -5 }) })
    .strict();
  const parse = fromSchema(schema);

  it('parses numbers and decimal strings exactly into millionths', () => {
    expect(parse({ p: 0.015, s: '12.5', m: -4.25 }, 'x')).toEqual({ p: 15_000, s: 12_500_000, m: -4_250_000 });
    expect(parse({ p: '1', s: 1000, m: '0' }, 'x')).toEqual({ p: SH, s: 1_000 * SH, m: 0 });
  });

  it('names the path and the value of every problem', () => {
    const run = (raw: unknown): ParseError => {
      try {
        parse(raw, 'cfg.params');
      } catch (e) {
        if (e instanceof ParseError) return e;
        throw e;
      }
      throw new Error('no error');
    };
    const e = run({ p: 1.5, s: 0.5, m: -6 });
    expect(e.path).toBe('cfg.params.p');
    expect(e.code).toBe('PARSE_INVALID');
    expect(e.message).toBe(
      'cfg.params.p: price must be ≤ 1 (got 1.5); cfg.params.s: shares must be ≥ 1 (got 0.5); cfg.params.m: amount must be ≥ -5 (got -6)',
    );
    expect(run({ p: 0, s: 1, m: 0 }).message).toBe('cfg.params.p: price must be > 0 (got 0)');
    expect(run({ p: -0.0000001, s: 1, m: 0 }).message).toMatch(/more than 6 decimals/);
    expect(run({ p: 'abc', s: 1, m: 0 }).message).toBe('cfg.params.p: price: not a plain decimal: "abc" (got "abc")');
    expect(run({ p: true, s: 1, m: 0 }).path).toBe('cfg.params.p');
    expect(run(null).path).toBe('cfg.params');
    expect(run({ p: 0.1, s: 1, m: 0, q: 1 }).message).toMatch(/^cfg\.params: Unrecognized key: "q"/);
  });
});

describe('sdk: runner', () => {
  interface P {
    readonly size: Shares;
  }
  interface S {
    readonly filled: number;
    readonly fills: number;
  }
  const seen: Array<{ state: S; now: number }> = [];

  // A stateful strategy: bids the params size minus what it has filled so far.
  const counting = defineStrategy<P, S>({
    name: 'counting',
    summary: 'test',
    parseParams: fromSchema(z.object({ size: sharesParam({ above: 0 }) })),
    onStart: () => ({ filled: 0, fills: 0 }),
    quote(ctx) {
      seen.push({ state: ctx.state, now: ctx.clock.now() });
      const left = ctx.params.size - ctx.state.filled;
      const t = ctx.markets[0]?.tokens[0];
      if (t === undefined || left <= 0) return [];
      return [{ tokenId: t.tokenId, side: 'BUY', price: 500_000 as Price, size: left as Shares }];
    },
    onFill: (ctx, fill) => ({ filled: ctx.state.filled + fill.size, fills: ctx.state.fills + 1 }),
  });

  const t = tokenView(fixtureBook('wire/markets/book_get_ccxt_2026-06-12.json'));
  const inp = input([marketView(settings(), [t])]);
  const fill = (size: number): StrategyFill => ({
    orderId: '0x1',
    tokenId: t.tokenId,
    side: 'BUY',
    price: 500_000 as Price,
    size: (size * SH) as Shares,
    atMs: NOW,
  });

  it('threads state from onStart through onFill into quote, reading time from the injected clock', () => {
    seen.length = 0;
    const clock = new VirtualClock(NOW);
    const r = counting.create({ size: 10 }, { clock, log: silentLogger });
    expect(r.name).toBe('counting');
    expect(r.params).toEqual({ size: 10 * SH });
    r.start(inp);
    expect(r.quote(inp).map((q) => q.size)).toEqual([10 * SH]);
    r.fill(inp, fill(4));
    clock.advance(1_500);
    expect(r.quote(inp).map((q) => q.size)).toEqual([6 * SH]);
    r.fill(inp, fill(6));
    expect(r.quote(inp)).toEqual([]);
    expect(seen).toEqual([
      { state: { filled: 0, fills: 0 }, now: NOW },
      { state: { filled: 4 * SH, fills: 1 }, now: NOW + 1_500 },
      { state: { filled: 10 * SH, fills: 2 }, now: NOW + 1_500 },
    ]);
  });

  it('says whether it hears fills (a cycle builds the input a fill is told with only then)', () => {
    const env = { clock: new VirtualClock(NOW), log: silentLogger };
    expect(counting.create({ size: 10 }, env).hearsFills).toBe(true);
    const deaf = defineStrategy({ name: 'deaf', summary: 'test', parseParams: () => ({}), quote: () => [] });
    const r = deaf.create(undefined, env);
    expect(r.hearsFills).toBe(false);
    // Its fill() still checks the lifecycle: told of a fill before it runs is a bug.
    expect(() => r.fill(inp, fill(1))).toThrow(/fill while new/);
  });

  it('enforces the lifecycle: no quote before start or after stop, one start', () => {
    const r = counting.create({ size: 10 }, { clock: new VirtualClock(NOW), log: silentLogger });
    expect(() => r.quote(inp)).toThrow(InvariantError);
    r.start(inp);
    expect(() => r.start(inp)).toThrow(/start called twice/);
    r.stop(inp);
    expect(() => r.quote(inp)).toThrow(/quote while stopped/);
  });

  it('parses params at creation with the config path, and freezes them', () => {
    expect(() =>
      counting.create({ size: 0 }, { clock: new VirtualClock(NOW), log: silentLogger, path: 'strategies[2].params' }),
    ).toThrow('strategies[2].params.size: shares must be > 0 (got 0)');
    const p = counting.parseParams({ size: 3 }) as P;
    expect(Object.isFrozen(p)).toBe(true);
  });

  it('throws on output no strategy may produce', () => {
    const bad = (q: DesiredQuote) =>
      defineStrategy({
        name: 'bad',
        summary: 'test',
        parseParams: () => ({}),
        quote: () => [q],
      });
    const ok: DesiredQuote = { tokenId: t.tokenId, side: 'BUY', price: 500_000 as Price, size: SH as Shares };
    const cases: Array<[DesiredQuote, RegExp]> = [
      [{ ...ok, tokenId: 'elsewhere' }, /token elsewhere is not in its context/],
      [{ ...ok, price: 0.5 as Price }, /price 0.5 is not integer millionths/],
      [{ ...ok, size: 0 as Shares }, /size 0 is not positive/],
      [{ ...ok, side: 'HOLD' as 'BUY' }, /side HOLD/],
    ];
    for (const [q, msg] of cases) {
      const r = bad(q).create({}, { clock: new VirtualClock(NOW), log: silentLogger });
      r.start(inp);
      expect(() => r.quote(inp)).toThrow(msg);
    }
    const fine = bad(ok).create({}, { clock: new VirtualClock(NOW), log: silentLogger });
    fine.start(inp);
    expect(fine.quote(inp)).toEqual([ok]);
  });

  it('rejects names the registry and config could not carry', () => {
    expect(() => defineStrategy({ name: 'Bad Name', summary: '', parseParams: () => ({}), quote: () => [] })).toThrow(
      /strategy name/,
    );
  });
});

describe('sdk: context accessors and settings', () => {
  it('settings from a real market record: tick, minimum, end date, rewards', () => {
    const s = trumpSettings();
    expect(s).toMatchObject({
      conditionId: '0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917',
      tickSize: 1_000,
      minOrderSize: 5 * SH,
      negRisk: true,
      acceptingOrders: true,
      endDateMs: Date.UTC(2024, 10, 5),
    });
    expect(s.rewards).toMatchObject({ minSize: 200 * SH, maxSpreadCents: 1.5, dailyRate: 750 * SH });
  });

  it('finds tokens and complements; ticks and minimums come from the book first', () => {
    const book = fixtureBook('clob_ws_book_2024.json'); // the "No" token, no tick or minimum of its own
    const no = tokenView(book, { outcome: 'No', complementTokenId: 'yes-id' });
    const yes = tokenView(null, {
      tokenId: 'yes-id',
      outcome: 'Yes',
      complementTokenId: book.assetId,
      mid: 487_500 as Price,
    });
    const m = marketView(trumpSettings(), [yes, no]);
    const ctx = input([m]);
    expect(findToken(ctx, book.assetId)?.token).toBe(no);
    expect(findToken(ctx, 'nope')).toBeNull();
    expect(complementOf(ctx, no)).toBe(yes);
    expect(complementOf(ctx, tokenView(null, { tokenId: 'alone' }))).toBeNull();
    expect(tickOf(m, no)).toBe(1_000);
    expect(minSizeOf(m, no)).toBe(5 * SH);
    const rest = fixtureBook('wire/markets/book_get_ccxt_2026-06-12.json');
    expect(tickOf(marketView(settings(), [tokenView(rest)]), tokenView(rest))).toBe(1_000); // book 0.001 over record 0.01
    expect(midOf(yes)).toBe(487_500);
    expect(midOf(tokenView(null))).toBeNull();
  });

  it('fromPino passes fields first and the message second', () => {
    const calls: unknown[][] = [];
    const rec =
      (level: string) =>
      (obj: object, msg?: string): void => {
        calls.push([level, obj, msg]);
      };
    const log = fromPino({ debug: rec('debug'), info: rec('info'), warn: rec('warn'), error: rec('error') });
    log.info('hello', { a: 1 });
    log.error('bad');
    expect(calls).toEqual([
      ['info', { a: 1 }, 'hello'],
      ['error', {}, 'bad'],
    ]);
  });
});
