// The heartbeat (dead-man switch) of the simulator over HTTP: POST /v1/heartbeats (and the API
// reference's POST /heartbeats) chain ids; while an account sends them its orders stay; when they
// stop for the expiry window (virtual clock) every live order of the account is cancelled, and only
// its own; a stale id is a 400 carrying the current id, which the client reads as a
// resynchronisation; the window is a simulator option and a /_sim/ knob.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MarketRec } from '../../../src/sim/world/index.js';
import { openMarket, px, raw, secondAccount, signedRaw, startTestSim, submission, type TestSim } from './helpers.js';

let t: TestSim;
let m: MarketRec;

beforeEach(async () => {
  t = await startTestSim({ heartbeatExpiryMs: 10_000 });
  m = openMarket(t.sim, 0, 10_000);
});
afterEach(async () => {
  await t.close();
});

async function rest(price: number): Promise<string> {
  const r = await t.client.postOrder(submission(t, { market: m, price: px(price), size: px(20) }));
  return r.orderId as string;
}

const live = async (): Promise<number> => (await t.client.getOpenOrders()).data.length;

describe('POST /v1/heartbeats', () => {
  it('keeps the orders while heartbeats arrive and cancels them all when they stop', async () => {
    await rest(0.2);
    await rest(0.21);
    const other = await secondAccount(t, '0x' + 'e1'.repeat(32));
    await other.client.postOrder(
      submission({ ...t, signer: other.signer }, { market: m, price: px(0.1), size: px(20) }, other.creds.apiKey),
    );
    let ack = await t.client.postHeartbeat(null);
    expect(ack.resynchronized).toBe(false);
    for (let i = 0; i < 3; i++) {
      t.clock.advance(9_000);
      ack = await t.client.postHeartbeat(ack.heartbeatId);
      expect(ack.resynchronized).toBe(false);
    }
    expect(await live()).toBe(2);
    t.clock.advance(9_999);
    expect(await live()).toBe(2);
    t.clock.advance(1);
    expect(await live()).toBe(0);
    expect((await other.client.getOpenOrders()).data).toHaveLength(1); // it never sent a heartbeat
    expect((await raw(t.sim, 'GET', '/_sim/heartbeat')).json).toEqual({
      expiryMs: 10_000,
      stats: { beats: 4, refused: 0, expired: 1, canceledOrders: 2 },
    });
    await other.client.close();
  });

  it('answers the current id with a 400 to a stale one, which the client reports as a resynchronisation', async () => {
    const first = await signedRaw(t, 'POST', '/v1/heartbeats', '{"heartbeat_id":""}');
    expect(first.status).toBe(200);
    const id1 = (first.json as { heartbeat_id: string }).heartbeat_id;
    expect(Object.keys(first.json as object)).toEqual(['heartbeat_id']);
    const second = await t.client.postHeartbeat(id1);
    const stale = await signedRaw(t, 'POST', '/v1/heartbeats', JSON.stringify({ heartbeat_id: id1 }));
    expect(stale.status).toBe(400);
    expect(stale.json).toEqual({ heartbeat_id: second.heartbeatId, error_msg: 'Invalid Heartbeat ID' });
    expect(await t.client.postHeartbeat(id1)).toEqual({ heartbeatId: second.heartbeatId, resynchronized: true });
    // The reference's path and an empty body start or join the session too.
    const viaDocsPath = await signedRaw(t, 'POST', '/heartbeats');
    expect(viaDocsPath.status).toBe(200);
    for (const body of ['{"heartbeat_id":5}', '[]', 'nope']) {
      expect((await signedRaw(t, 'POST', '/v1/heartbeats', body)).json).toEqual({ error: 'Invalid payload' });
    }
  });

  it('takes its window from the /_sim/heartbeat knob', async () => {
    expect((await raw(t.sim, 'POST', '/_sim/heartbeat', { body: '{"expiryMs":0}' })).status).toBe(400);
    expect((await raw(t.sim, 'POST', '/_sim/heartbeat', { body: '{"expiryMs":3000}' })).json).toMatchObject({
      expiryMs: 3_000,
    });
    await rest(0.2);
    await t.client.postHeartbeat(null);
    t.clock.advance(3_000);
    expect(await live()).toBe(0);
  });
});
