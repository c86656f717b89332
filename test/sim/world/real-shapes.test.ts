// The simulator's records next to real recorded payloads of the public exchange: every field the
// two share has the same JSON type (where the real one is not null: the interface forbids the
// nulls the public exchange sends), and every field of the real record that the interface names is
// present in ours.
import { describe, expect, it } from 'vitest';
import type { Price } from '../../../src/core/money.js';
import { PriceHistory } from '../../../src/sim/world/history.js';
import { toWireMarket } from '../../../src/sim/world/render-market.js';
import { toWireEventFull } from '../../../src/sim/world/render-catalog.js';
import { TradeLog } from '../../../src/sim/world/trades.js';
import { body, makeWorld, START } from './helpers.js';
import { realJson } from '../../support/fixtures.js';

const fixture = realJson;

function jsonType(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** Fields present in both with differing JSON types (real nulls excepted). */
function typeClashes(ours: Record<string, unknown>, real: Record<string, unknown>): string[] {
  return Object.keys(ours)
    .filter((k) => k in real && real[k] !== null && jsonType(real[k]) !== jsonType(ours[k]))
    .map((k) => `${k}: ours ${jsonType(ours[k])}, real ${jsonType(real[k])}`);
}

const w = makeWorld(200, 'real');

describe('against real payloads', () => {
  it('CLOB market record: every real field present, same types', () => {
    const real = fixture('clob_rest_market_single.json') as Record<string, unknown>;
    for (const m of w.markets.slice(0, 50)) {
      const ours = toWireMarket(m) as unknown as Record<string, unknown>;
      expect(Object.keys(real).filter((k) => !(k in ours))).toEqual([]);
      expect(typeClashes(ours, real)).toEqual([]);
      const rewards = ours['rewards'] as Record<string, unknown>;
      expect(typeClashes(rewards, real['rewards'] as Record<string, unknown>)).toEqual([]);
      const tok = (ours['tokens'] as Record<string, unknown>[])[0] ?? {};
      expect(typeClashes(tok, (real['tokens'] as Record<string, unknown>[])[0] ?? {})).toEqual([]);
    }
  });

  it('catalog event (full form), its tags and event markets: fields of the real event, same types', () => {
    const real = (fixture('gamma_events_dem_nominee_2028.json') as Record<string, unknown>[])[0] ?? {};
    const realMarket = (real['markets'] as Record<string, unknown>[])[0] ?? {};
    const realTag = (real['tags'] as Record<string, unknown>[])[0] ?? {};
    for (const e of w.events.slice(0, 30)) {
      const ours = toWireEventFull(w, e) as unknown as Record<string, unknown>;
      expect(typeClashes(ours, real)).toEqual([]);
      // The interface's event fields that the real event carries all exist in ours.
      for (const k of [
        'id',
        'ticker',
        'slug',
        'title',
        'description',
        'resolutionSource',
        'startDate',
        'creationDate',
        'endDate',
        'image',
        'icon',
        'active',
        'closed',
        'archived',
        'createdAt',
        'updatedAt',
        'tags',
        'markets',
      ]) {
        expect(k in ours && k in real).toBe(true);
      }
      for (const t of ours['tags'] as Record<string, unknown>[]) {
        expect(typeClashes(t, realTag)).toEqual([]);
        expect(Object.keys(t).filter((k) => !(k in realTag))).toEqual([]);
      }
      for (const m of ours['markets'] as Record<string, unknown>[]) {
        expect(typeClashes(m, realMarket)).toEqual([]);
        expect(Object.keys(m).filter((k) => !(k in realMarket))).toEqual([]);
        expect(JSON.parse(m['outcomes'] as string)).toHaveLength(2);
      }
    }
    // Same spelling of the JSON-in-a-string lists as the real catalog.
    expect(realMarket['outcomes']).toBe('["Yes", "No"]');
    const yesNo = w.markets.find((m) => m.outcomes[0] === 'Yes');
    if (yesNo === undefined) throw new Error('no Yes/No market');
    const em = toWireEventFull(w, w.eventOf(yesNo)).markets.find((x) => x.conditionId === yesNo.conditionId);
    expect(em?.outcomes).toBe('["Yes", "No"]');
  });

  it("/trades records carry the real record's field names", () => {
    const real = (fixture('wire/portfolio/trades_get_ccxt_2026-06-12.json') as Record<string, unknown>[])[0] ?? {};
    const log = new TradeLog(w);
    const m = w.markets.find((x) => !x.state.closed);
    if (m === undefined) throw new Error('none');
    log.append({
      user: '0x' + 'cd'.repeat(20),
      tokenId: m.tokenIds[0],
      conditionId: m.conditionId,
      side: 'BUY',
      price: 152_000 as Price,
      size: 256_000_000 as never,
      feeMicros: 0 as never,
      timeMs: START,
    });
    const ours = body(log.query({}))[0] as unknown as Record<string, unknown>;
    expect(Object.keys(ours).filter((k) => !(k in real))).toEqual([]);
  });

  it("/prices-history has the real response's keys and time scale (Unix seconds)", () => {
    // ccxt's capture keeps every scalar as a string; the interface says t integer, p number.
    const real = fixture('wire/markets/prices_history_get_ccxt_2026-06-12.json') as {
      history: { t: string; p: string }[];
    };
    const h = new PriceHistory();
    h.record('x', START, 520_000 as Price);
    const ours = body(h.query({ market: 'x' }, START));
    expect(Object.keys(ours)).toEqual(Object.keys(real));
    const [o] = ours.history;
    const [r] = real.history;
    expect(Object.keys(o ?? {})).toEqual(Object.keys(r ?? {}));
    expect([Number.isInteger(o?.t), typeof o?.p]).toEqual([true, 'number']);
    expect(String(o?.t ?? '').length).toBe((r?.t ?? '').length);
  });
});
