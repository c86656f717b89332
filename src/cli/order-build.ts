// `oddsmaker order build`: builds and signs one order offline and prints the body of POST /order
// with the order id (the EIP-712 digest). The key comes from ODDSMAKER_PRIVATE_KEY or the keystore
// (ODDSMAKER_KEYSTORE + ODDSMAKER_KEYSTORE_PASSWORD); `--random-key` uses a throwaway one. Invariants:
// - every flag is parsed strictly (prices and sizes as exact decimals, never floats); a bad value
//   is a UsageError (exit 2) naming the flag; missing credentials are a config error (exit 2);
// - the key is never printed, the throwaway one included (its address is the order's signer);
// - time comes from the injected Clock unless --timestamp pins it.
import type { Command } from 'commander';
import { Wallet } from 'ethers';
import type { OrderType } from '../core/order.js';
import { isOnTick, isKnownTick, TICKS } from '../core/tick.js';
import { MoneyError, formatMicros, parsePrice, parseShares, SCALE, type Price } from '../core/money.js';
import { SystemClock, type Clock } from '../core/clock.js';
import { truncateSize } from '../core/amounts.js';
import { ENV_API_KEY, loadWallet, type Env } from '../exchange/auth/credentials.js';
import { getDialect } from '../exchange/dialect.js';
import { buildOrder, normaliseSalt, type OrderIntent } from '../exchange/signing/order.js';
import { accountKindProblem, isSignatureType, orderParties } from '../exchange/signing/account-kind.js';
import { OrderSigner } from '../exchange/signing/signer.js';
import type { SignatureType } from '../exchange/signing/types.js';
import { toWireSubmission } from '../exchange/signing/wire-order.js';
import type { WireOrderSubmission } from '../exchange/wire.js';
import { UsageError } from './exit-codes.js';

export interface OrderBuildOptions {
  token: string;
  condition: string;
  side: string;
  price: string;
  size: string;
  type?: string;
  tick?: string;
  negRisk?: boolean;
  dialect?: string;
  salt?: string;
  timestamp?: string;
  randomKey?: boolean;
  owner?: string;
  expiration?: string;
  postOnly?: boolean;
  maker?: string;
  signatureType?: string;
}

export interface CliDeps {
  env: Env;
  out: { write(text: string): unknown };
  clock: Clock;
}

export interface OrderBuildResult {
  id: string;
  body: WireOrderSubmission;
}

const ORDER_TYPES: readonly OrderType[] = ['GTC', 'GTD', 'FOK', 'FAK'];

function money<T>(flag: string, f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof MoneyError) throw new UsageError(`${flag}: ${err.message}`);
    throw err;
  }
}

function integerFlag(flag: string, text: string): number {
  if (!/^\d{1,16}$/.test(text) || !Number.isSafeInteger(Number(text)))
    throw new UsageError(`${flag} must be a non-negative integer, got ${JSON.stringify(text)}`);
  return Number(text);
}

function parseIntent(o: OrderBuildOptions): OrderIntent {
  if (!/^(0|[1-9]\d{0,77})$/.test(o.token) || BigInt(o.token) >= 2n ** 256n)
    throw new UsageError(`--token must be a decimal token id, got ${JSON.stringify(o.token)}`);
  if (!/^0x[0-9a-fA-F]{64}$/.test(o.condition))
    throw new UsageError(`--condition must be 0x + 64 hex, got ${JSON.stringify(o.condition)}`);
  const side = o.side.toUpperCase();
  if (side !== 'BUY' && side !== 'SELL')
    throw new UsageError(`--side must be BUY or SELL, got ${JSON.stringify(o.side)}`);
  const type = (o.type ?? 'GTC').toUpperCase();
  if (!(ORDER_TYPES as readonly string[]).includes(type))
    throw new UsageError(`--type must be one of ${ORDER_TYPES.join(', ')}, got ${JSON.stringify(o.type)}`);
  const tick = money('--tick', () => parsePrice(o.tick ?? '0.01', 'tick'));
  if (!isKnownTick(tick))
    throw new UsageError(`--tick must be one of ${TICKS.map(formatMicros).join(', ')}, got ${JSON.stringify(o.tick)}`);
  const price = money('--price', () => parsePrice(o.price));
  if (!isOnTick(price, tick) || price < tick || price > SCALE - tick) {
    throw new UsageError(
      `--price ${o.price} must be a multiple of the tick ${formatMicros(tick)} within [${formatMicros(tick)}, ${formatMicros(SCALE - tick)}]`,
    );
  }
  const size = money('--size', () => parseShares(o.size));
  if (truncateSize(size) === 0) throw new UsageError(`--size ${o.size} is below 0.01 share (sizes carry 2 decimals)`);
  const intent: OrderIntent = {
    tokenId: o.token,
    conditionId: o.condition,
    side,
    price: price as Price,
    size,
    orderType: type as OrderType,
    tick,
    negRisk: o.negRisk === true,
  };
  if (o.expiration !== undefined) intent.expirationSec = integerFlag('--expiration', o.expiration);
  if (o.postOnly === true) intent.postOnly = true;
  if (type === 'GTD' && intent.expirationSec === undefined)
    throw new UsageError('--type GTD needs --expiration (Unix seconds)');
  if (type !== 'GTD' && intent.expirationSec !== undefined) throw new UsageError('--expiration is only for --type GTD');
  if (intent.postOnly === true && type !== 'GTC' && type !== 'GTD')
    throw new UsageError('--post-only is only for GTC and GTD orders');
  return intent;
}

/** Builds, signs and prints one order; returns what it printed. */
export async function orderBuild(o: OrderBuildOptions, deps: CliDeps): Promise<OrderBuildResult> {
  const dialect = getDialect(o.dialect ?? 'spec');
  const intent = parseIntent(o);
  let salt: string | undefined;
  if (o.salt !== undefined) {
    if (!/^\d{1,78}$/.test(o.salt))
      throw new UsageError(`--salt must be a decimal integer, got ${JSON.stringify(o.salt)}`);
    salt = normaliseSalt(o.salt);
    if (dialect.saltOnWire === 'number' && !Number.isSafeInteger(Number(salt))) {
      throw new UsageError(`--salt must be below 2^53 in the ${dialect.name} dialect (it travels as a JSON number)`);
    }
  }
  const timestampMs = o.timestamp === undefined ? deps.clock.now() : integerFlag('--timestamp', o.timestamp);
  let signatureType: SignatureType = 0;
  if (o.signatureType !== undefined) {
    const n = /^[0-9]$/.test(o.signatureType) ? Number(o.signatureType) : NaN;
    if (!isSignatureType(n))
      throw new UsageError(`--signature-type must be 0, 1, 2 or 3, got ${JSON.stringify(o.signatureType)}`);
    signatureType = n;
  }
  const wallet = o.randomKey === true ? Wallet.createRandom() : await loadWallet(deps.env);
  const signer = new OrderSigner(wallet.privateKey, dialect);
  if (o.maker !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(o.maker))
    throw new UsageError(`--maker must be an address, got ${JSON.stringify(o.maker)}`);
  // Maker and signer per account kind, as the official client sets them (src/exchange/signing/account-kind.ts).
  const problem = accountKindProblem(signatureType, signer.address, o.maker);
  if (problem !== null)
    throw new UsageError(`--signature-type and --maker: ${problem.replace('exchange.funder', '--maker')}`);
  const parties = orderParties(signatureType, signer.address, o.maker);
  const unsigned = buildOrder(intent, {
    maker: parties.maker,
    signer: parties.signer,
    signatureType,
    timestampMs,
    ...(salt === undefined ? {} : { salt }),
  });
  const signed = signer.sign(unsigned);
  const owner = o.owner ?? deps.env[ENV_API_KEY] ?? '';
  const body = toWireSubmission(signed, {
    orderType: intent.orderType,
    owner,
    dialect,
    ...(intent.postOnly === undefined ? {} : { postOnly: intent.postOnly }),
    ...(intent.expirationSec === undefined ? {} : { expirationSec: intent.expirationSec }),
  });
  const result = { id: signed.id, body };
  deps.out.write(`${JSON.stringify(result, null, 2)}\n`);
  return result;
}

function parentCommand(program: Command, name: string, description: string): Command {
  return program.commands.find((c) => c.name() === name) ?? program.command(name).description(description);
}

/** Registers `order build` (under an existing `order` command if there is one). */
export function register(program: Command, deps?: Partial<CliDeps>): void {
  parentCommand(program, 'order', 'Build and sign orders')
    .command('build')
    .description('Build and sign one order; print the body of POST /order and the order id')
    .requiredOption('--token <id>', 'outcome token id (decimal)')
    .requiredOption('--condition <id>', 'market condition id (0x + 64 hex)')
    .requiredOption('--side <side>', 'BUY or SELL')
    .requiredOption('--price <price>', 'limit price, a multiple of the tick')
    .requiredOption('--size <shares>', 'size in shares (truncated to 2 decimals)')
    .option('--type <type>', 'GTC, GTD, FOK or FAK', 'GTC')
    .option('--tick <tick>', "the market's tick size", '0.01')
    .option('--neg-risk', 'the market is neg-risk (signs against the neg-risk exchange)')
    .option('--dialect <name>', 'spec or polymarket', 'spec')
    .option('--salt <n>', 'salt (default: random)')
    .option('--timestamp <ms>', 'timestamp in epoch milliseconds (default: now)')
    .option('--expiration <sec>', 'GTD expiration, Unix seconds')
    .option('--post-only', 'reject instead of crossing (GTC/GTD)')
    .option('--owner <apiKey>', `owner API key (default: $${ENV_API_KEY}, else empty)`)
    .option('--maker <address>', 'funder address (with --signature-type 1, 2 or 3)')
    .option('--signature-type <n>', '0 EOA, 1 proxy, 2 safe', '0')
    .option('--random-key', 'sign with a throwaway key instead of ODDSMAKER_PRIVATE_KEY / the keystore')
    .action(async (opts: OrderBuildOptions) => {
      await orderBuild(opts, {
        env: deps?.env ?? process.env,
        out: deps?.out ?? process.stdout,
        clock: deps?.clock ?? new SystemClock(),
      });
    });
}
