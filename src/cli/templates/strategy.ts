// The files `oddsmaker strategies new NAME` writes: a strategy of the user's own as plain ESM
// JavaScript (NAME.mjs: runs as written, no compile step, loaded by config `strategy.module`) and
// its test (NAME.test.mjs: node:test, run with `node --test`, nothing to install). Kept as TS
// strings so the build needs no copy step. Invariants: the strategy imports only the SDK (the
// specifier passed in: `oddsmaker/sdk`, or a relative path to a checkout's built SDK); the test
// exercises quote() through the runner the daemon uses (create → start → quote) on a fixture
// context, so what passes here is what the daemon accepts.

/** The strategy module, NAME.mjs. */
export function strategyTemplate(name: string, sdk: string): string {
  return `// ${name}: a strategy of your own for oddsmaker (written by \`oddsmaker strategies new\`).
//
// Plain ES module JavaScript: runs as it is, no compile step. Point a config at it:
//   "strategy": { "module": "./${name}.mjs", "params": { "spread": 0.03 } }
// (the path is relative to the config file; or put the file in a folder named by
// "strategies": { "dir": "..." } and select it with "strategy": { "name": "${name}" }).
//
// The contract (the SDK, ${sdk}):
// - quote(ctx) is synchronous and pure: it returns every order you want resting now; the daemon
//   places, keeps or cancels orders to match. It is called every cycle (config poll.intervalMs).
// - Money is integer millionths: a price of 0.53 is 530000, 10 shares are 10000000. Use the SDK's
//   helpers (bidPrice/askPrice snap to the tick; toFloat/fromFloat convert) rather than floats.
// - Params are parsed once by parseParams (a zod schema here); a bad value is a config error
//   (exit 2) naming strategy.params.<key>. priceParam/sharesParam accept decimals (0.02, 10) and
//   give millionths.
// - Risk limits, post-only, rate limits and the kill switch are the daemon's: a quote that breaks
//   a limit is dropped, so the strategy need not check them.
// - State, if you need it: return it from onStart(ctx) and the next one from onFill(ctx, fill);
//   read it as ctx.state.
import { askPrice, bidPrice, defineStrategy, fromSchema, midOf, minSizeOf, priceParam, sharesParam, tickOf, z } from '${sdk}';

/** The parameters, with their defaults (what \`oddsmaker strategies show ${name}\` prints). */
const params = z.object({
  /** Distance of each quote from the mid, in price (0.02 = two cents). */
  spread: priceParam({ above: 0, max: 0.5 }).prefault(0.02),
  /** Shares on each bid (raised to the market's minimum order size). */
  size: sharesParam({ above: 0 }).prefault(10),
  /** No bid that could take a token's position above this many shares. */
  maxPosition: sharesParam().prefault(100),
}).strict();

export default defineStrategy({
  name: '${name}',
  summary: 'One bid a spread under each token\\'s mid, and an ask a spread above it for the shares held.',
  paramDocs: [
    { path: 'spread', unit: 'price', money: true, description: 'distance of each quote from the mid' },
    { path: 'size', unit: 'shares', money: true, description: 'shares on each bid (at least the market minimum)' },
    { path: 'maxPosition', unit: 'shares', money: true, description: 'largest position of a token a bid may reach' },
  ],
  parseParams: fromSchema(params),

  /**
   * @param {{ markets: readonly any[], params: { spread: number, size: number, maxPosition: number } }} ctx
   * @returns {Array<{ tokenId: string, side: 'BUY' | 'SELL', price: number, size: number, tag?: string }>}
   */
  quote(ctx) {
    const { spread, size, maxPosition } = ctx.params;
    const out = [];
    for (const market of ctx.markets) {
      if (market.settings.acceptingOrders === false) continue; // closed to orders (a recording may not say: null)
      for (const token of market.tokens) {
        const mid = midOf(token); // null when the book is one-sided or missing: no quote
        if (mid === null) continue;
        const tick = tickOf(market, token);
        const minSize = minSizeOf(market, token);
        const bidSize = Math.max(size, minSize);
        const bid = bidPrice(mid - spread, tick); // null below the tick: not quotable
        if (bid !== null && token.position + bidSize <= maxPosition) {
          out.push({ tokenId: token.tokenId, side: 'BUY', price: bid, size: bidSize, tag: 'bid' });
        }
        // Only shares held can be sold.
        const ask = askPrice(mid + spread, tick);
        if (ask !== null && token.position > 0 && token.position >= minSize) {
          out.push({ tokenId: token.tokenId, side: 'SELL', price: ask, size: token.position, tag: 'ask' });
        }
      }
    }
    return out;
  },
});
`;
}

/** The strategy's test, NAME.test.mjs: node:test on a fixture context. */
export function testTemplate(name: string): string {
  return `// Tests of ${name}.mjs on a fixture context: \`node --test ${name}.test.mjs\` (node:test, nothing to
// install). The strategy runs through the runner the daemon uses (create → start → quote), which
// also checks its output (tokens in context, integer prices and sizes).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import strategy from './${name}.mjs';

const M = 1_000_000; // money is integer millionths: 0.5 is 500000, 10 shares are 10 * M
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const clock = { now: () => 1_700_000_000_000, monotonic: () => 0 };

/** One binary market; the YES token's mid and position as given, the NO token's the mirror. */
function context({ mid = 0.5, position = 0 } = {}) {
  const token = (tokenId, complementTokenId, m, pos) => ({
    tokenId, outcome: tokenId, complementTokenId, book: null, bookAtMs: null,
    mid: Math.round(m * M), recentMids: [], position: pos * M, openOrders: [],
  });
  return {
    nowMs: clock.now(),
    openOrders: [],
    freeCollateral: 1_000 * M,
    markets: [{
      conditionId: 'cond-1',
      settings: {
        conditionId: 'cond-1', question: 'Will it rain tomorrow?', tickSize: 10_000, minOrderSize: 5 * M,
        negRisk: false, acceptingOrders: true, endDateMs: null, rewards: null, makerBaseFeeBps: 0, takerBaseFeeBps: 0,
      },
      tokens: [token('yes', 'no', mid, position), token('no', 'yes', 1 - mid, 0)],
    }],
  };
}

function quotes(params, ctx) {
  const runner = strategy.create(params, { clock, log: silent });
  runner.start(ctx);
  return runner.quote(ctx);
}

test('bids a spread under the mid on each token, and asks nothing without shares', () => {
  const q = quotes({}, context({ mid: 0.5 }));
  assert.deepEqual(q.map((o) => [o.tokenId, o.side, o.price, o.size]), [
    ['yes', 'BUY', 480_000, 10 * M], // 0.50 − 0.02
    ['no', 'BUY', 480_000, 10 * M],
  ]);
});

test('offers the shares held a spread above the mid', () => {
  const q = quotes({ spread: 0.03 }, context({ mid: 0.6, position: 20 }));
  assert.deepEqual(q.find((o) => o.tokenId === 'yes' && o.side === 'SELL'), { tokenId: 'yes', side: 'SELL', price: 630_000, size: 20 * M, tag: 'ask' });
});

test('stops bidding at maxPosition', () => {
  const q = quotes({ maxPosition: 25 }, context({ mid: 0.5, position: 20 }));
  assert.equal(q.some((o) => o.tokenId === 'yes' && o.side === 'BUY'), false);
});

test('refuses a bad parameter, naming it', () => {
  assert.throws(() => strategy.parseParams({ spread: -0.01 }, 'strategy.params'), /strategy\\.params\\.spread/);
});
`;
}
