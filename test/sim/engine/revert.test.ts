// Rule 13 of the engine: revertTrade undoes a fill's settlement exactly (both legs' collateral,
// tokens and fees, and the market's lock), frees what a party must give back by cancelling its
// resting orders on that asset, and refuses (changing nothing) when the party cannot give it back
// or the market is resolved. The audit (value conservation, reservations) holds after every step.
import { describe, expect, it } from 'vitest';
import { auditEngine } from '../../../src/sim/engine/audit.js';
import type { Trade } from '../../../src/sim/engine/types.js';
import { COND, fund, M, NO, ord, P, S, setup, YES } from './helpers.js';

function tradeOf(engine: ReturnType<typeof setup>['engine'], fn: () => void): Trade {
  const trades: Trade[] = [];
  const off = engine.onTrade((t) => trades.push(t));
  fn();
  off();
  expect(trades).toHaveLength(1);
  return trades[0] as Trade;
}

/** Balances with an empty token entry read as none (the engine keeps a position once touched). */
const bal = (engine: ReturnType<typeof setup>['engine'], owner: string): object => {
  const b = engine.balances(owner);
  const tok = (t: string): object | null => {
    const x = b.tokens.get(t);
    return x === undefined || (x.available === 0 && x.reserved === 0) ? null : x;
  };
  return { c: b.collateral, yes: tok(YES), no: tok(NO) };
};

describe('revertTrade', () => {
  it('undoes a transfer with fees exactly: balances, fees and the lock as before the fill', () => {
    const { engine } = setup({ makerFeeBps: 100, takerFeeBps: 200 });
    fund(engine, 'seller', '0', '50');
    fund(engine, 'buyer', '100');
    engine.submit(ord('seller', 'SELL', '0.40', '20'));
    const before = {
      seller: bal(engine, 'seller'),
      buyer: bal(engine, 'buyer'),
      fees: engine.feesCollected,
      lock: engine.market(COND)?.lockedCollateral,
    };
    const t = tradeOf(engine, () => engine.submit(ord('buyer', 'BUY', '0.40', '20', { type: 'FOK' })));
    expect(t.kind).toBe('transfer');
    expect(engine.feesCollected).toBeGreaterThan(0);
    expect(engine.revertTrade(t)).toBe(true);
    expect(auditEngine(engine)).toEqual([]);
    // The seller's order stays MATCHED (the match happened); its tokens are back, free.
    expect(bal(engine, 'buyer')).toEqual(before.buyer);
    expect(engine.balances('seller').tokens.get(YES)).toEqual({ available: S('50'), reserved: 0 });
    expect(engine.balances('seller').collateral).toEqual({ available: 0, reserved: 0 });
    expect(engine.feesCollected).toBe(before.fees);
    expect(engine.market(COND)?.lockedCollateral).toBe(before.lock);
  });

  it('undoes a mint and a merge (the lock moves back)', () => {
    const { engine } = setup();
    fund(engine, 'a', '100');
    fund(engine, 'b', '100');
    engine.submit(ord('a', 'BUY', '0.30', '10'));
    const mint = tradeOf(engine, () => engine.submit(ord('b', 'BUY', '0.70', '10', { token: NO })));
    expect(mint.kind).toBe('mint');
    expect(engine.market(COND)?.lockedCollateral).toBe(S('10'));
    expect(engine.revertTrade(mint)).toBe(true);
    expect(engine.market(COND)?.lockedCollateral).toBe(0);
    expect(engine.balances('a').collateral).toEqual({ available: M('100'), reserved: 0 });
    expect(engine.balances('b').collateral).toEqual({ available: M('100'), reserved: 0 });
    expect(auditEngine(engine)).toEqual([]);

    fund(engine, 'c', '0', '10');
    fund(engine, 'd', '0', '10');
    engine.submit(ord('c', 'SELL', '0.60', '10'));
    const merge = tradeOf(engine, () => engine.submit(ord('d', 'SELL', '0.40', '10', { token: NO })));
    expect(merge.kind).toBe('merge');
    const lock = engine.market(COND)?.lockedCollateral ?? 0;
    expect(engine.revertTrade(merge)).toBe(true);
    expect(engine.market(COND)?.lockedCollateral).toBe(lock + S('10'));
    expect(engine.balances('c').tokens.get(YES)?.available).toBe(S('10'));
    expect(engine.balances('d').tokens.get(NO)?.available).toBe(S('10'));
    expect(auditEngine(engine)).toEqual([]);
  });

  it('cancels the resting orders that hold what a party must give back, newest first, only as many as needed', () => {
    const { engine } = setup();
    fund(engine, 'seller', '0', '30');
    fund(engine, 'buyer', '100');
    engine.submit(ord('seller', 'SELL', '0.50', '30'));
    const t = tradeOf(engine, () => engine.submit(ord('buyer', 'BUY', '0.50', '30', { type: 'FOK' })));
    // The buyer rests its 30 tokens in two asks (10 then 20): all of them are reserved.
    engine.submit(ord('buyer', 'SELL', '0.90', '10', { id: 'old-ask' }));
    engine.submit(ord('buyer', 'SELL', '0.95', '20', { id: 'new-ask' }));
    // The seller spent its proceeds on a resting bid: 15 of its 15 collateral are reserved.
    engine.submit(ord('seller', 'BUY', '0.10', '150', { id: 'seller-bid' }));
    expect(engine.revertTrade(t)).toBe(true);
    expect(engine.getOrder('new-ask')?.status).toBe('CANCELED');
    expect(engine.getOrder('old-ask')?.status).toBe('CANCELED'); // 20 freed was not enough for 30
    expect(engine.getOrder('seller-bid')?.status).toBe('CANCELED');
    expect(engine.balances('buyer').tokens.get(YES)).toEqual({ available: 0, reserved: 0 });
    expect(engine.balances('buyer').collateral.available).toBe(M('100'));
    expect(auditEngine(engine)).toEqual([]);
  });

  it('refuses, changing nothing, when a party no longer holds what it must give back', () => {
    const { engine } = setup();
    fund(engine, 'seller', '0', '10');
    fund(engine, 'buyer', '100');
    fund(engine, 'third', '100');
    engine.submit(ord('seller', 'SELL', '0.50', '10'));
    const t = tradeOf(engine, () => engine.submit(ord('buyer', 'BUY', '0.50', '10', { type: 'FOK' })));
    // The buyer sells the tokens on: it cannot give them back.
    engine.submit(ord('third', 'BUY', '0.60', '10'));
    engine.submit(ord('buyer', 'SELL', '0.60', '10', { type: 'FOK' }));
    const snapshot = { buyer: bal(engine, 'buyer'), seller: bal(engine, 'seller'), fees: engine.feesCollected };
    expect(engine.revertTrade(t)).toBe(false);
    expect({ buyer: bal(engine, 'buyer'), seller: bal(engine, 'seller'), fees: engine.feesCollected }).toEqual(
      snapshot,
    );
    expect(auditEngine(engine)).toEqual([]);
  });

  it('refuses once the market is resolved', () => {
    const { engine } = setup();
    fund(engine, 'seller', '0', '10');
    fund(engine, 'buyer', '100');
    engine.submit(ord('seller', 'SELL', '0.50', '10'));
    const t = tradeOf(engine, () => engine.submit(ord('buyer', 'BUY', '0.50', '10', { type: 'FOK' })));
    engine.resolve(COND, YES);
    expect(engine.revertTrade(t)).toBe(false);
    expect(P('0.5')).toBe(500_000);
  });
});
