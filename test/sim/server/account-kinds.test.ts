// The simulator verifies every account kind through its HTTP interface (order-verify.ts,
// wallets.ts): EOA, proxy and safe orders signed by the API key's address with the maker the
// key's wallet of that kind, and deposit-wallet orders (type 3) whose ERC-7739 wrapper recovers
// to the wallet's owner; each mismatch is refused with the exchange's message. The official
// client (clob-client-v2) places a deposit-wallet order too, so the wrapper the simulator checks
// is the one the exchange's users send. The order-version switch refuses every order with
// `order_version_mismatch` and GET /version reports the new version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, type TypedDataDomain, type TypedDataField } from 'ethers';
import { ClobClient, Side, SignatureTypeV2, type ApiKeyCreds } from '@polymarket/clob-client-v2';
import type { Price, Shares } from '../../../src/core/money.js';
import {
  buildOrder,
  OrderSigner,
  orderParties,
  toWireSubmission,
  type SignatureType,
} from '../../../src/exchange/signing/index.js';
import {
  MSG_BAD_ORDER_SIGNATURE,
  MSG_DEPOSIT_WALLET_REQUIRED,
  MSG_INVALID_ORDER_PAYLOAD,
  MSG_ORDER_VERSION_MISMATCH,
  MSG_SIGNER_MISMATCH,
} from '../../../src/sim/server/errors.js';
import { simWalletAddress } from '../../../src/sim/server/wallets.js';
import type { MarketRec } from '../../../src/sim/world/index.js';
import { openMarket, px, raw, signedRaw, startTestSim, type TestSim } from './helpers.js';

const KEY_B = '0x8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f';

let t: TestSim;
let m: MarketRec;
let salt = 5000;

beforeAll(async () => {
  t = await startTestSim({ dialect: 'polymarket' });
  m = openMarket(t.sim, 0, 10_000);
});
afterAll(async () => {
  await t.close();
});

/** POST /order of an order of `kind` signed by `signer` with the given maker/signer fields. */
async function place(
  kind: SignatureType,
  fields: { maker: string; signer: string },
  signer: OrderSigner = t.signer,
  negRisk = m.negRisk,
): Promise<{ status: number; json: unknown }> {
  const unsigned = buildOrder(
    {
      tokenId: m.tokenIds[0],
      conditionId: m.conditionId,
      side: 'BUY',
      price: px(0.2) as Price,
      size: px(10) as Shares,
      orderType: 'GTC',
      tick: m.state.tick as Price,
      negRisk,
    },
    { ...fields, signatureType: kind, timestampMs: t.clock.now(), salt: salt++ },
  );
  const body = toWireSubmission(signer.sign(unsigned), {
    orderType: 'GTC',
    owner: t.sim.account.apiKey,
    dialect: t.sim.venue.dialect,
  });
  return signedRaw(t, 'POST', '/order', JSON.stringify(body));
}

const me = (): string => t.sim.account.address;
const error = (r: { json: unknown }): unknown => (r.json as { error?: unknown }).error;

describe('account kinds on the simulator', () => {
  for (const kind of [0, 1, 2, 3] as const) {
    it(`accepts a valid order of kind ${kind}`, async () => {
      const funder = kind === 0 ? undefined : simWalletAddress(me(), kind);
      const r = await place(kind, orderParties(kind, me(), funder));
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      expect((r.json as { success: boolean }).success).toBe(true);
    });
  }

  it("serves each owner's wallet of a kind at /_sim/wallet", async () => {
    const r = await raw(t.sim, 'GET', `/_sim/wallet?address=${me()}&signature_type=3`);
    expect(r.json).toEqual({ address: me(), signature_type: 3, wallet: simWalletAddress(me(), 3) });
  });

  it('refuses an EOA order whose maker is not its signer', async () => {
    const r = await place(0, { maker: simWalletAddress(me(), 1), signer: me() });
    expect([r.status, error(r)]).toEqual([400, MSG_INVALID_ORDER_PAYLOAD]);
  });

  it("refuses a proxy or safe order whose maker is not the key's wallet of that kind", async () => {
    const stranger = simWalletAddress(new Wallet(KEY_B).address, 1);
    const r1 = await place(1, { maker: stranger, signer: me() });
    expect([r1.status, error(r1)]).toEqual([401, MSG_BAD_ORDER_SIGNATURE]);
    // The proxy wallet is not the safe wallet.
    const r2 = await place(2, { maker: simWalletAddress(me(), 1), signer: me() });
    expect([r2.status, error(r2)]).toEqual([401, MSG_BAD_ORDER_SIGNATURE]);
  });

  it("refuses a proxy order signed by another key than the API key's", async () => {
    const other = new OrderSigner(KEY_B, t.sim.venue.dialect);
    const r = await place(1, { maker: simWalletAddress(other.address, 1), signer: other.address }, other);
    expect([r.status, error(r)]).toEqual([401, MSG_SIGNER_MISMATCH]);
  });

  it("refuses a deposit-wallet order for a wallet the API key's owner does not own", async () => {
    const theirs = simWalletAddress(new Wallet(KEY_B).address, 3);
    const r = await place(3, { maker: theirs, signer: theirs });
    expect([r.status, error(r)]).toEqual([401, MSG_SIGNER_MISMATCH]);
  });

  it('refuses a deposit-wallet order whose wrapper was signed by another key, or for the other exchange', async () => {
    const wallet = simWalletAddress(me(), 3);
    const other = new OrderSigner(KEY_B, t.sim.venue.dialect);
    const r1 = await place(3, { maker: wallet, signer: wallet }, other);
    expect([r1.status, error(r1)]).toEqual([401, MSG_BAD_ORDER_SIGNATURE]);
    // Wrapped for the neg-risk exchange's domain while the market is not neg-risk (or the reverse).
    const r2 = await place(3, { maker: wallet, signer: wallet }, t.signer, !m.negRisk);
    expect([r2.status, error(r2)]).toEqual([401, MSG_BAD_ORDER_SIGNATURE]);
  });

  it("accepts the official client's deposit-wallet order (POLY_1271)", async () => {
    const w = new Wallet(t.sim.account.privateKey);
    const signer = {
      _signTypedData: (
        d: Record<string, unknown>,
        ty: Record<string, Array<{ name: string; type: string }>>,
        v: Record<string, unknown>,
      ) => w.signTypedData(d as TypedDataDomain, ty as Record<string, TypedDataField[]>, v),
      getAddress: async () => w.address,
    };
    const creds: ApiKeyCreds = {
      key: t.sim.account.apiKey,
      secret: t.sim.account.secret,
      passphrase: t.sim.account.passphrase,
    };
    const c = new ClobClient({
      host: t.sim.url,
      chain: 137,
      signer,
      creds,
      signatureType: SignatureTypeV2.POLY_1271,
      funderAddress: simWalletAddress(me(), 3),
      useServerTime: true,
      throwOnError: true,
    } as never);
    const placed = (await c.createAndPostOrder(
      { tokenID: m.tokenIds[0], price: 0.2, size: 10, side: Side.BUY },
      { tickSize: '0.01', negRisk: m.negRisk },
    )) as unknown as Record<string, unknown>;
    expect(placed['success']).toBe(true);
  });

  describe('with deposit wallets required for new accounts', () => {
    it("refuses every other kind with the exchange's message and accepts the deposit wallet", async () => {
      expect(
        (await raw(t.sim, 'POST', '/_sim/exchange', { body: JSON.stringify({ requireDepositWallet: true }) })).status,
      ).toBe(200);
      try {
        for (const kind of [0, 1, 2] as const) {
          const r = await place(kind, orderParties(kind, me(), kind === 0 ? undefined : simWalletAddress(me(), kind)));
          expect([kind, r.status, error(r)]).toEqual([kind, 400, MSG_DEPOSIT_WALLET_REQUIRED]);
        }
        const ok = await place(3, orderParties(3, me(), simWalletAddress(me(), 3)));
        expect(ok.status).toBe(200);
      } finally {
        await raw(t.sim, 'POST', '/_sim/exchange', { body: JSON.stringify({ requireDepositWallet: false }) });
      }
    });
  });

  describe('on an exchange that moved to another order version', () => {
    it('reports the version and refuses orders with order_version_mismatch', async () => {
      expect((await raw(t.sim, 'GET', '/version')).json).toEqual({ version: 2 });
      await raw(t.sim, 'POST', '/_sim/exchange', { body: JSON.stringify({ orderVersion: 3 }) });
      try {
        expect((await raw(t.sim, 'GET', '/version')).json).toEqual({ version: 3 });
        const r = await place(0, orderParties(0, me()));
        expect([r.status, error(r)]).toEqual([400, MSG_ORDER_VERSION_MISMATCH]);
      } finally {
        await raw(t.sim, 'POST', '/_sim/exchange', { body: JSON.stringify({ orderVersion: 2 }) });
      }
    });
  });
});
