// L1 key routes (docs/protocol.md §2) over HTTP with the project's client: derivation is deterministic
// for (address, nonce) and matches the account the simulator printed; creation registers a key
// that works for L2; bad, stale or missing L1 headers answer 401.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { buildL1Headers } from '../../../src/exchange/auth/l1.js';
import { makeCredentials } from '../../../src/exchange/auth/credentials.js';
import { ExchangeClient } from '../../../src/exchange/client/index.js';
import { ExchangeHttpError } from '../../../src/exchange/errors.js';
import { openMarket, px, raw, startTestSim, submission, type TestSim } from './helpers.js';

let t: TestSim;
let wallet: Wallet;
beforeAll(async () => {
  t = await startTestSim();
  wallet = new Wallet(t.sim.account.privateKey);
});
afterAll(async () => {
  await t.close();
});

const nowSec = (): number => Math.floor(t.clock.now() / 1000);

describe('L1 key creation and derivation', () => {
  it("derives the printed account's credentials for nonce 0, and the same again", async () => {
    const h = await buildL1Headers({ dialect: t.sim.venue.dialect, wallet, timestampSec: nowSec(), nonce: 0 });
    const c = await t.client.deriveApiKey(h);
    expect(c).toEqual({
      apiKey: t.sim.account.apiKey,
      secret: t.sim.account.secret,
      passphrase: t.sim.account.passphrase,
    });
    const again = await t.client.createApiKey(
      await buildL1Headers({ dialect: t.sim.venue.dialect, wallet, timestampSec: nowSec(), nonce: 0 }),
    );
    expect(again).toEqual(c);
  });

  it('creates a different key for another nonce, usable for signed trading', async () => {
    const c = await t.client.createApiKey(
      await buildL1Headers({ dialect: t.sim.venue.dialect, wallet, timestampSec: nowSec(), nonce: 5 }),
    );
    expect(c.apiKey).not.toBe(t.sim.account.apiKey);
    expect(c.apiKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(c.passphrase).toMatch(/^[0-9a-f]{64}$/);
    const client = new ExchangeClient({
      clobUrl: t.sim.url,
      dialect: t.sim.venue.dialect,
      credentials: makeCredentials(c),
      address: wallet.address,
      clock: t.clock,
    });
    const m = openMarket(t.sim);
    const r = await client.postOrder(submission(t, { market: m, price: 10 * m.state.tick, size: px(20) }, c.apiKey));
    expect(r.accepted).toBe(true);
    // The order's owner is that key.
    expect((await client.getOrder(r.orderId as string))?.owner).toBe(c.apiKey);
    await client.close();
  });

  it('refuses a signature by another wallet, a stale timestamp, missing headers: 401', async () => {
    const other = new Wallet('0x' + 'c4'.repeat(32));
    const forged = await buildL1Headers({
      dialect: t.sim.venue.dialect,
      wallet: other,
      timestampSec: nowSec(),
      nonce: 0,
    });
    forged['SVC_ADDRESS'] = wallet.address;
    const stale = await buildL1Headers({ dialect: t.sim.venue.dialect, wallet, timestampSec: nowSec() - 31, nonce: 0 });
    const { SVC_SIGNATURE: _s, ...unsigned } = await buildL1Headers({
      dialect: t.sim.venue.dialect,
      wallet,
      timestampSec: nowSec(),
      nonce: 0,
    });
    for (const h of [forged, stale, unsigned]) {
      const r = await raw(t.sim, 'GET', '/auth/derive-api-key', { headers: h });
      expect(r).toMatchObject({ status: 401, json: { error: 'Invalid L1 Request headers' } });
      const e = await t.client.createApiKey(h).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ExchangeHttpError);
      expect((e as ExchangeHttpError).status).toBe(401);
    }
  });
});
