// Shared fixtures of the simulator server tests: a simulator on 127.0.0.1:0 driven by a
// VirtualClock (flow off unless asked), the project's own ExchangeClient bound to its test
// account, signed submissions built with src/exchange/signing, and `settle`, which lets real
// loopback I/O and virtual-clock timers (client backoff, server fault delays) make progress
// together without any real sleep.
import { VirtualClock } from '../../../src/core/clock.js';
import { SCALE, type Price, type Shares } from '../../../src/core/money.js';
import type { OrderType } from '../../../src/core/order.js';
import { makeCredentials } from '../../../src/exchange/auth/credentials.js';
import { buildL2Headers } from '../../../src/exchange/auth/l2.js';
import { buildL1Headers } from '../../../src/exchange/auth/l1.js';
import { Wallet } from 'ethers';
import { ExchangeClient, type ExchangeClientOptions } from '../../../src/exchange/client/index.js';
import type { Dialect } from '../../../src/exchange/dialect.js';
import { buildOrder, OrderSigner, toWireSubmission, type SignedOrder } from '../../../src/exchange/signing/index.js';
import type { WireOrderSubmission } from '../../../src/exchange/wire.js';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../../src/sim/server/start.js';
import type { MarketRec } from '../../../src/sim/world/index.js';

export const T0 = Date.UTC(2026, 2, 2, 12, 0, 0);

export interface TestSim {
  sim: RunningSimulator;
  clock: VirtualClock;
  client: ExchangeClient;
  signer: OrderSigner;
  close(): Promise<void>;
}

export async function startTestSim(
  opts: SimulatorOptions = {},
  clientOpts: Partial<ExchangeClientOptions> = {},
): Promise<TestSim> {
  const clock = opts.clock instanceof VirtualClock ? opts.clock : new VirtualClock(T0);
  const sim = await startSimulator({
    seed: 7,
    markets: 30,
    flow: 'none',
    limits: 'off',
    verifier: { workers: 1, windowBits: 8 },
    ...opts,
    clock,
  });
  const client = clientFor(sim, clock, clientOpts);
  const signer = new OrderSigner(sim.account.privateKey, sim.venue.dialect);
  return {
    sim,
    clock,
    client,
    signer,
    async close() {
      await client.close();
      await sim.close();
    },
  };
}

export function clientFor(
  sim: RunningSimulator,
  clock: VirtualClock,
  extra: Partial<ExchangeClientOptions> = {},
): ExchangeClient {
  return new ExchangeClient({
    clobUrl: sim.url,
    dialect: sim.venue.dialect,
    credentials: makeCredentials({
      apiKey: sim.account.apiKey,
      secret: sim.account.secret,
      passphrase: sim.account.passphrase,
    }),
    address: sim.account.address,
    clock,
    random: () => 0,
    ...extra,
  });
}

/** An open market (accepting orders) of the world, the n-th one (optionally of a given tick). */
export function openMarket(sim: RunningSimulator, n = 0, tick?: number): MarketRec {
  const open = sim.venue.world.markets.filter(
    (m) => m.state.acceptingOrders && !m.state.closed && (tick === undefined || m.state.tick === tick),
  );
  const m = open[n];
  if (m === undefined) throw new Error(`no open market #${n}`);
  return m;
}

export function closedMarket(sim: RunningSimulator): MarketRec | undefined {
  return sim.venue.world.markets.find((m) => m.state.closed);
}

export interface OrderSpec {
  market: MarketRec;
  outcome?: 0 | 1;
  side?: 'BUY' | 'SELL';
  /** Decimal price in millionths. */
  price: number;
  /** Shares in millionths. */
  size: number;
  orderType?: OrderType;
  postOnly?: boolean;
  expirationSec?: number;
  salt?: number;
  /** Tick the amounts are built on (default: the market's). */
  tick?: number;
  /** Neg-risk flag the order is signed for (default: the market's; it picks the EIP-712 contract). */
  negRisk?: boolean;
}

let saltSeq = 1000;

export function signOrder(
  t: { sim: RunningSimulator; clock: VirtualClock; signer: OrderSigner },
  o: OrderSpec,
): SignedOrder {
  const m = o.market;
  return t.signer.sign(
    buildOrder(
      {
        tokenId: m.tokenIds[o.outcome ?? 0],
        conditionId: m.conditionId,
        side: o.side ?? 'BUY',
        price: o.price as Price,
        size: o.size as Shares,
        orderType: o.orderType ?? 'GTC',
        tick: (o.tick ?? m.state.tick) as Price,
        negRisk: o.negRisk ?? m.negRisk,
        ...(o.expirationSec === undefined ? {} : { expirationSec: o.expirationSec }),
        ...(o.postOnly === undefined ? {} : { postOnly: o.postOnly }),
      },
      {
        maker: t.signer.address,
        signer: t.signer.address,
        signatureType: 0,
        timestampMs: t.clock.now(),
        salt: o.salt ?? saltSeq++,
      },
    ),
  );
}

export function submission(
  t: { sim: RunningSimulator; clock: VirtualClock; signer: OrderSigner },
  o: OrderSpec,
  owner?: string,
): WireOrderSubmission {
  const signed = signOrder(t, o);
  return toWireSubmission(signed, {
    orderType: o.orderType ?? 'GTC',
    owner: owner ?? t.sim.account.apiKey,
    dialect: t.sim.venue.dialect,
    ...(o.expirationSec === undefined ? {} : { expirationSec: o.expirationSec }),
    ...(o.postOnly === undefined ? {} : { postOnly: o.postOnly }),
  });
}

export const px = (p: number): number => Math.round(p * SCALE);

/**
 * Awaits a promise whose progress needs both real loopback I/O and virtual timers: between real
 * event-loop turns (setImmediate, not a sleep) the virtual clock fires what is due and moves on by
 * `stepMs`, at most `maxSteps` times.
 */
export async function settle<T>(clock: VirtualClock, p: Promise<T>, stepMs = 50, maxSteps = 2000): Promise<T> {
  let done = false;
  const tracked = p.finally(() => {
    done = true;
  });
  for (let i = 0; i < maxSteps && !done; i++) {
    await new Promise<void>((r) => setImmediate(r));
    if (!done) clock.advance(i % 20 === 19 ? stepMs : 0);
  }
  return tracked;
}

/** A raw request to the simulator (for malformed bodies and headers the client never sends). */
export async function raw(
  sim: RunningSimulator,
  method: string,
  path: string,
  init: { body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; text: string; json: unknown }> {
  const res = await fetch(sim.url + path, {
    method,
    headers: { 'content-type': 'application/json', ...init.headers },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, text, json };
}

export type { Dialect };

/** A raw request signed with the test account's L2 credentials (for bodies the client refuses to send). */
export async function signedRaw(
  t: { sim: RunningSimulator; clock: VirtualClock },
  method: string,
  path: string,
  body?: string,
  over: {
    timestampSec?: number;
    headers?: Record<string, string>;
    credentials?: { apiKey: string; secret: string; passphrase: string };
    address?: string;
  } = {},
): Promise<{ status: number; headers: Headers; text: string; json: unknown }> {
  const a = t.sim.account;
  const c = over.credentials ?? a;
  const headers = buildL2Headers({
    dialect: t.sim.venue.dialect,
    credentials: makeCredentials({ apiKey: c.apiKey, secret: c.secret, passphrase: c.passphrase }),
    address: over.address ?? a.address,
    method,
    path: path.split('?')[0] as string,
    body,
    timestampSec: over.timestampSec ?? Math.floor(t.clock.now() / 1000),
  });
  return raw(t.sim, method, path, {
    ...(body === undefined ? {} : { body }),
    headers: { ...headers, ...over.headers },
  });
}

/** A second wallet with its own API key (derived over L1 through the client) and a client. */
export async function secondAccount(
  t: TestSim,
  key: string,
  fund: string | null = '10000',
): Promise<{
  address: string;
  privateKey: string;
  creds: { apiKey: string; secret: string; passphrase: string };
  client: ExchangeClient;
  signer: OrderSigner;
}> {
  const wallet = new Wallet(key);
  const headers = await buildL1Headers({
    dialect: t.sim.venue.dialect,
    wallet,
    timestampSec: Math.floor(t.clock.now() / 1000),
    nonce: 0,
  });
  const creds = await t.client.deriveApiKey(headers);
  if (fund !== null) {
    const r = await raw(t.sim, 'POST', '/_sim/fund', {
      body: JSON.stringify({ address: wallet.address, amount: fund }),
    });
    if (r.status !== 200) throw new Error(`fund failed: ${r.text}`);
  }
  const client = new ExchangeClient({
    clobUrl: t.sim.url,
    dialect: t.sim.venue.dialect,
    credentials: makeCredentials(creds),
    address: wallet.address,
    clock: t.clock,
    random: () => 0,
  });
  return {
    address: wallet.address,
    privateKey: wallet.privateKey,
    creds,
    client,
    signer: new OrderSigner(wallet.privateKey, t.sim.venue.dialect),
  };
}
