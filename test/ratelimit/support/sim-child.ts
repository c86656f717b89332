// One daemon-like process of the Redis + simulator test (redis-simulator.test.ts): it places real
// signed orders on the exchange simulator, POST /orders with 15 orders per call, through the
// project's own HttpGateway (ExchangeClient + undici transport, L2-signed) whose gate is a
// RedisRateLimiter, for a fixed time, in real time (SystemClock), then prints its counts.
//
// Protocol over stdio (so the account's secrets never appear in argv, a file or a log line):
//   stdin line 1: the ChildInput JSON;  stdout: `READY` once its first batches are signed;
//   stdin line 2: `GO` (the parent sends it to every child at once);  stdout: one ChildResult JSON.
// At the deadline the limiter is closed: queued calls fail with RATE_LIMIT_CLOSED (never sent),
// calls already admitted finish and are counted, so the counts match what the server saw.
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { SystemClock } from '../../../src/core/clock.js';
import type { Price, Shares } from '../../../src/core/money.js';
import { makeCredentials } from '../../../src/exchange/auth/credentials.js';
import { getDialect } from '../../../src/exchange/dialect.js';
import { buildOrder, OrderSigner, toWireSubmission } from '../../../src/exchange/signing/index.js';
import type { WireOrderSubmission } from '../../../src/exchange/wire.js';
import { RedisRateLimiter } from '../../../src/ratelimit/redis-limiter.js';
import { HttpGateway } from '../../../src/runtime/http-gateway.js';

export interface ChildMarket {
  readonly tokenIds: readonly [string, string];
  readonly conditionId: string;
  /** Micros. */
  readonly tick: number;
  readonly negRisk: boolean;
  /** Micros of shares. */
  readonly minOrderSize: number;
}

export interface ChildInput {
  readonly name: string;
  readonly redisUrl: string;
  readonly keyPrefix: string;
  readonly simUrl: string;
  readonly dialect: string;
  readonly account: { privateKey: string; address: string; apiKey: string; secret: string; passphrase: string };
  /** RateLimitConfigInput, as JSON. */
  readonly rateLimit: unknown;
  readonly markets: readonly ChildMarket[];
  readonly durationMs: number;
  readonly workers: number;
  readonly ordersPerCall: number;
  /** Batches signed before READY; more are signed on demand. */
  readonly presignedCalls: number;
}

export interface ChildResult {
  readonly name: string;
  /** POST /orders calls answered 200. */
  ok: number;
  /** Orders those calls placed (accepted) and rejected. */
  accepted: number;
  rejected: number;
  /** Calls answered 429. */
  throttled: number;
  /** Calls that failed otherwise. */
  failed: number;
  /** Calls still queued at the limiter at the deadline (never sent). */
  stopped: number;
  /** First few distinct failure and rejection messages (no secrets: errors never carry them). */
  errors: string[];
}

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const first = await lines.next();
if (first.done === true) throw new Error('no input');
const input = JSON.parse(first.value) as ChildInput;

const clock = new SystemClock();
const dialect = getDialect(input.dialect);
const signer = new OrderSigner(input.account.privateKey, dialect);
const redis = new Redis(input.redisUrl, { maxRetriesPerRequest: 2 });
const limiter = new RedisRateLimiter({ clock, redis, config: input.rateLimit, keyPrefix: input.keyPrefix });
const gateway = new HttpGateway({
  limiter,
  client: {
    clobUrl: input.simUrl,
    dialect,
    credentials: makeCredentials({
      apiKey: input.account.apiKey,
      secret: input.account.secret,
      passphrase: input.account.passphrase,
    }),
    address: input.account.address,
    clock,
    connections: input.workers,
    // The server tells the two processes apart by this.
    userAgent: `oddsmaker-test-${input.name}`,
  },
});

const result: ChildResult = {
  name: input.name,
  ok: 0,
  accepted: 0,
  rejected: 0,
  throttled: 0,
  failed: 0,
  stopped: 0,
  errors: [],
};
const note = (msg: string): void => {
  if (result.errors.length < 5 && !result.errors.includes(msg)) result.errors.push(msg);
};

// Resting bids: BUY at 0.01 to 0.30 on the market's tick, YES and NO alternately, so nothing
// crosses and every order is simply placed (the figure here is the budget, not matching).
let seq = 0;
function signBatch(): WireOrderSubmission[] {
  const out: WireOrderSubmission[] = [];
  for (let i = 0; i < input.ordersPerCall; i++, seq++) {
    const m = input.markets[seq % input.markets.length] as ChildMarket;
    const lo = Math.ceil(10_000 / m.tick);
    const hi = Math.max(lo, Math.floor(300_000 / m.tick));
    const price = (lo + (Math.floor(seq / input.markets.length) % (hi - lo + 1))) * m.tick;
    const signed = signer.sign(
      buildOrder(
        {
          tokenId: m.tokenIds[seq % 2] as string,
          conditionId: m.conditionId,
          side: 'BUY',
          price: price as Price,
          size: Math.max(m.minOrderSize, 5_000_000) as Shares,
          orderType: 'GTC',
          tick: m.tick as Price,
          negRisk: m.negRisk,
        },
        // Random salt: the two processes sign for one wallet and must never produce the same order.
        { maker: signer.address, signer: signer.address, signatureType: 0, timestampMs: clock.now() },
      ),
    );
    out.push(toWireSubmission(signed, { orderType: 'GTC', owner: input.account.apiKey, dialect }));
  }
  return out;
}

const stock: WireOrderSubmission[][] = [];
for (let i = 0; i < input.presignedCalls; i++) stock.push(signBatch());
process.stdout.write('READY\n');
const go = await lines.next();
if (go.done === true || go.value.trim() !== 'GO') throw new Error('expected GO');
process.stdin.destroy();

let stopping = false;
clock.setTimeout(() => {
  stopping = true;
  void limiter.close();
}, input.durationMs);

function codeOf(e: unknown): string {
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string'
    ? (e as { code: string }).code
    : 'UNKNOWN';
}

async function worker(): Promise<void> {
  while (!stopping) {
    const batch = stock.pop() ?? signBatch();
    try {
      const results = await gateway.postOrders(batch, 'new');
      result.ok++;
      for (const r of results) {
        if (r.accepted) result.accepted++;
        else {
          result.rejected++;
          note(`rejected: ${r.errorMsg}`);
        }
      }
    } catch (e) {
      const code = codeOf(e);
      if (code === 'RATE_LIMIT_CLOSED') {
        result.stopped++;
        return;
      }
      if (code === 'EXCHANGE_THROTTLED') result.throttled++;
      else {
        result.failed++;
        note(`${code}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
}

await Promise.all(Array.from({ length: input.workers }, () => worker()));
await limiter.close();
await gateway.close();
await redis.quit().catch(() => undefined);
process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
