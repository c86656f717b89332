// `oddsmaker order build` through its action function and through commander: output, key sources,
// reproducibility with --salt/--timestamp, and usage errors naming the flag.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { encryptKeystoreJsonSync, Wallet } from 'ethers';
import { VirtualClock } from '../../src/core/clock.js';
import { UsageError } from '../../src/cli/exit-codes.js';
import { orderBuild, register, type OrderBuildOptions } from '../../src/cli/order-build.js';
import { CredentialsError } from '../../src/exchange/auth/errors.js';
import { DIALECTS } from '../../src/exchange/dialect.js';
import { recoverOrderSigner, parseWireOrder, wireOrderId } from '../../src/exchange/signing/wire-order.js';

const KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const ADDRESS = new Wallet(KEY).address;
const TOKEN = '16040015440196279900485035793550429453516625694844857319147506590755961451627';
const CONDITION = `0x${'6b'.repeat(32)}`;
const base: OrderBuildOptions = { token: TOKEN, condition: CONDITION, side: 'BUY', price: '0.50', size: '21.04' };

function deps(env: Record<string, string> = { ODDSMAKER_PRIVATE_KEY: KEY }) {
  const chunks: string[] = [];
  return {
    env,
    out: { write: (s: string) => chunks.push(s) },
    clock: new VirtualClock(Date.UTC(2026, 8, 1)),
    text: () => chunks.join(''),
  };
}

const tmp = mkdtempSync(join(tmpdir(), 'oddsmaker-order-build-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('order build', () => {
  it('prints the POST /order body and its id; the signature recovers to the key', async () => {
    const d = deps({ ODDSMAKER_PRIVATE_KEY: KEY, ODDSMAKER_API_KEY: '2f1b7d3e-8c4a-4e6b-9d2f-1a3b5c7d9e0f' });
    const r = await orderBuild({ ...base, salt: '42' }, d);
    const printed = JSON.parse(d.text()) as typeof r;
    expect(printed).toEqual(r);
    expect(r.body).toMatchObject({
      orderType: 'GTC',
      owner: '2f1b7d3e-8c4a-4e6b-9d2f-1a3b5c7d9e0f',
      order: {
        tokenId: TOKEN,
        conditionId: CONDITION,
        maker: ADDRESS,
        signer: ADDRESS,
        makerAmount: '10520000',
        takerAmount: '21040000',
        side: 'BUY',
        salt: '42',
        signatureType: 0,
        timestamp: String(Date.UTC(2026, 8, 1)),
      },
    });
    expect(recoverOrderSigner(r.body.order, DIALECTS.spec, false)).toBe(ADDRESS);
    expect(wireOrderId(parseWireOrder(r.body.order, DIALECTS.spec), DIALECTS.spec, false)).toBe(r.id);
    expect(d.text()).not.toContain(KEY.slice(2));
  });

  it('is reproducible with --salt and --timestamp, and honours dialect, tick, neg-risk, GTD and post-only', async () => {
    const opts = {
      ...base,
      side: 'sell',
      price: '0.123',
      size: '33.337',
      tick: '0.001',
      negRisk: true,
      dialect: 'polymarket',
      salt: '7',
      timestamp: '1790000000000',
      type: 'GTD',
      expiration: '1790000600',
      postOnly: true,
    };
    const a = await orderBuild(opts, deps());
    const b = await orderBuild(opts, deps());
    expect(a).toEqual(b);
    expect(a.body.order).toMatchObject({
      makerAmount: '33330000',
      takerAmount: '4099590',
      side: 'SELL',
      salt: 7,
      timestamp: '1790000000000',
      expiration: '1790000600',
    });
    expect(a.body.postOnly).toBe(true);
    expect(recoverOrderSigner(a.body.order, DIALECTS.polymarket, true)).toBe(ADDRESS);
    expect(recoverOrderSigner(a.body.order, DIALECTS.polymarket, false)).not.toBe(ADDRESS);
  });

  it('signs with a throwaway key under --random-key, without any environment', async () => {
    const d = deps({});
    const r = await orderBuild({ ...base, randomKey: true }, d);
    expect(r.body.order.maker).not.toBe(ADDRESS);
    expect(recoverOrderSigner(r.body.order, DIALECTS.spec, false)).toBe(r.body.order.signer);
    expect(r.body.owner).toBe('');
  });

  it('loads the key from an encrypted keystore file', async () => {
    const w = new Wallet(KEY);
    const file = join(tmp, 'key.json');
    writeFileSync(
      file,
      encryptKeystoreJsonSync({ address: w.address, privateKey: w.privateKey }, 'pw', { scrypt: { N: 16 } }),
    );
    const r = await orderBuild(base, deps({ ODDSMAKER_KEYSTORE: file, ODDSMAKER_KEYSTORE_PASSWORD: 'pw' }));
    expect(r.body.order.signer).toBe(ADDRESS);
  });

  it('supports a funder with signature type 2', async () => {
    const maker = '0x00000000000000000000000000000000DeaDBeef';
    const r = await orderBuild({ ...base, maker, signatureType: '2' }, deps());
    expect(r.body.order).toMatchObject({ maker, signer: ADDRESS, signatureType: 2 });
    await expect(orderBuild({ ...base, maker }, deps())).rejects.toThrow(/signature-type/);
  });

  it('a deposit wallet (signature type 3) both makes and signs its order, as the official client sets it', async () => {
    const maker = '0x00000000000000000000000000000000DeaDBeef';
    const r = await orderBuild({ ...base, maker, signatureType: '3' }, deps());
    expect(r.body.order).toMatchObject({ maker, signer: maker, signatureType: 3 });
  });

  it('turns bad flags into usage errors naming the flag', async () => {
    const bad: Array<[Partial<OrderBuildOptions>, RegExp]> = [
      [{ side: 'HOLD' }, /--side/],
      [{ price: '0.505' }, /--price 0\.505 must be a multiple of the tick 0\.01/],
      [{ price: '1' }, /--price/],
      [{ price: '5e-1' }, /--price/],
      [{ size: '0.009' }, /--size/],
      [{ size: '-1' }, /--size/],
      [{ tick: '0.02' }, /--tick must be one of 0\.1, 0\.01/],
      [{ type: 'IOC' }, /--type/],
      [{ type: 'GTD' }, /--expiration/],
      [{ expiration: '100' }, /only for --type GTD/],
      [{ type: 'FOK', postOnly: true }, /--post-only/],
      [{ token: '0x12' }, /--token/],
      [{ condition: '0x12' }, /--condition/],
      [{ salt: '-3' }, /--salt/],
      [{ salt: String(2 ** 60), dialect: 'polymarket' }, /--salt must be below 2\^53/],
      [{ timestamp: 'now' }, /--timestamp/],
      [{ signatureType: '4' }, /--signature-type/],
      [{ signatureType: '1' }, /--maker is not set/],
      [{ maker: 'me' }, /--maker/],
    ];
    for (const [o, re] of bad) {
      const err = await orderBuild({ ...base, ...o }, deps()).catch((e: unknown) => e);
      expect(err, String(re)).toBeInstanceOf(UsageError);
      expect((err as Error).message).toMatch(re);
    }
    await expect(orderBuild({ ...base, dialect: 'kalshi' }, deps())).rejects.toMatchObject({ code: 'CONFIG_DIALECT' });
  });

  it('reports a missing key as a credentials (config) error', async () => {
    const err = await orderBuild(base, deps({})).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CredentialsError);
    expect((err as CredentialsError).code).toMatch(/^CONFIG/);
  });

  it('registers under commander as `order build`, next to an existing `order` command', async () => {
    const d = deps();
    const program = new Command().exitOverride();
    program
      .command('order')
      .command('list')
      .action(() => undefined);
    register(program, d);
    expect(program.commands.filter((c) => c.name() === 'order')).toHaveLength(1);
    await program.parseAsync(
      [
        'order',
        'build',
        '--token',
        TOKEN,
        '--condition',
        CONDITION,
        '--side',
        'SELL',
        '--price',
        '0.52',
        '--size',
        '10',
        '--neg-risk',
        '--salt',
        '9',
        '--timestamp',
        '1790000000000',
      ],
      { from: 'user' },
    );
    const printed = JSON.parse(d.text()) as {
      id: string;
      body: { order: { side: string; makerAmount: string; takerAmount: string; salt: string } };
    };
    expect(printed.body.order).toMatchObject({
      side: 'SELL',
      makerAmount: '10000000',
      takerAmount: '5200000',
      salt: '9',
    });
    expect(recoverOrderSigner(printed.body.order, DIALECTS.spec, true)).toBe(ADDRESS);
    const p2 = new Command().exitOverride();
    register(p2, deps());
    await expect(p2.parseAsync(['order', 'build', '--token', TOKEN], { from: 'user' })).rejects.toMatchObject({
      code: 'commander.missingMandatoryOptionValue',
    });
  });
});
