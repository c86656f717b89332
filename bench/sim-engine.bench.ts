// Benchmark of the matching engine in-process: `sim_engine_order_rate`, orders submitted and fully
// processed (validated, balance-checked, matched, settled, rested or killed) per second on one core.
// The stream is realistic: two markets (ticks 0.01 and 0.001, taker fee 100 bps), 64 funded
// traders, both outcome tokens, a mid that random-walks; about 60 % of orders are passive (rest one to
// ten ticks behind the touch, some post-only), 40 % cross by up to three ticks; 85 % GTC, 5 % GTD,
// 5 % FAK, 5 % FOK; every order is sent a cancel 50 to 2,000 orders later (quoting traders
// requote), so the book stays a realistic size; a trade listener and an order-update listener are
// attached, as a venue would attach them. The virtual venue clock runs at 1,000 orders a
// second and finished records are kept 60 s. The stream is generated before timing; building each
// input, the cancels and the pruning are inside the timed loop. One warm-up round, then three timed
// rounds on fresh engines; the median is reported. Time is the process's CPU time (user + system,
// GC threads included, so it errs low), because wall time on the shared 2-core machine also
// counts other people's processes; the wall-clock rates are printed beside it.
import { VirtualClock } from '../src/core/clock.js';
import { SCALE, type Micros, type Price, type Shares } from '../src/core/money.js';
import type { OrderType } from '../src/core/order.js';
import { MatchingEngine } from '../src/sim/engine/engine.js';
import type { OrderInput } from '../src/sim/engine/types.js';
import { mulberry32 as rng } from '../src/core/random.js';

const TRADERS = 64;
const MARKETS = [
  { conditionId: 'bench-m1', tokens: ['m1-yes', 'm1-no'] as const, tick: 10_000 },
  { conditionId: 'bench-m2', tokens: ['m2-yes', 'm2-no'] as const, tick: 1_000 },
];

/**
 * The stream is held in typed arrays and each OrderInput is built inside the timed loop, as an
 * HTTP or replay front end would build it: a pre-built array of 400k objects would only measure
 * the garbage collector walking it.
 */
interface Stream {
  readonly n: number;
  readonly prefix: string;
  readonly market: Uint8Array;
  readonly outcome: Uint8Array;
  readonly buy: Uint8Array;
  readonly price: Int32Array;
  readonly size: Float64Array;
  readonly owner: Uint8Array;
  readonly type: Uint8Array; // 0 GTC, 1 GTD, 2 FAK, 3 FOK
  readonly postOnly: Uint8Array;
  readonly expSec: Float64Array;
  // Cancels scheduled after step i: orders cancelHead[i], cancelNext[that], … (−1 ends).
  readonly cancelHead: Int32Array;
  readonly cancelNext: Int32Array;
}

const TYPES: readonly OrderType[] = ['GTC', 'GTD', 'FAK', 'FOK'];

function makeStream(n: number, seed: number, prefix: string): Stream {
  const r = rng(seed);
  const mids = MARKETS.map(() => 500_000);
  const s: Stream = {
    n,
    prefix,
    market: new Uint8Array(n),
    outcome: new Uint8Array(n),
    buy: new Uint8Array(n),
    price: new Int32Array(n),
    size: new Float64Array(n),
    owner: new Uint8Array(n),
    type: new Uint8Array(n),
    postOnly: new Uint8Array(n),
    expSec: new Float64Array(n),
    cancelHead: new Int32Array(n).fill(-1),
    cancelNext: new Int32Array(n).fill(-1),
  };
  for (let i = 0; i < n; i++) {
    const mi = r() < 0.5 ? 0 : 1;
    const m = MARKETS[mi] as (typeof MARKETS)[number];
    const tick = m.tick;
    // Mid random walk, kept inside [0.2, 0.8].
    let mid = (mids[mi] as number) + (r() < 0.5 ? -tick : tick) * (r() < 0.1 ? 1 : 0);
    mid = Math.min(800_000, Math.max(200_000, mid));
    mids[mi] = mid;
    const bidSide = r() < 0.5; // YES-terms bid or ask
    const aggressive = r() < 0.4;
    const ticks = aggressive ? -Math.floor(r() * 4) : 1 + Math.floor(r() * 10);
    // A bid `ticks` below the mid (negative: above, i.e. crossing), an ask `ticks` above it.
    const yesPrice = Math.min(SCALE - tick, Math.max(tick, bidSide ? mid - ticks * tick : mid + ticks * tick));
    const outcome = r() < 0.5 ? 0 : 1;
    const u = r();
    const type = u < 0.85 ? 0 : u < 0.9 ? 1 : u < 0.95 ? 2 : 3;
    s.market[i] = mi;
    s.outcome[i] = outcome;
    s.buy[i] = (outcome === 0 ? bidSide : !bidSide) ? 1 : 0;
    s.price[i] = outcome === 0 ? yesPrice : SCALE - yesPrice;
    s.size[i] = (5 + Math.floor(r() * 96)) * 1_000_000;
    s.owner[i] = Math.floor(r() * TRADERS);
    s.type[i] = type;
    s.postOnly[i] = !aggressive && type === 0 && r() < 0.1 ? 1 : 0;
    s.expSec[i] = type === 1 ? 1_767_225_600 + 30 + Math.floor(r() * 600) : 0;
    // Every order gets a cancel 50 to 2,000 orders later, as quoting traders requote: most find
    // the order already filled or gone, the others take it off the book.
    const at = i + 50 + Math.floor(r() * 1951);
    if (at < n) {
      s.cancelNext[i] = s.cancelHead[at] as number;
      s.cancelHead[at] = i;
    }
  }
  return s;
}

function makeEngine(clock: VirtualClock, retainFinishedMs: number): MatchingEngine {
  const e = new MatchingEngine({ clock, retainFinishedMs });
  for (const m of MARKETS) {
    e.addMarket({
      conditionId: m.conditionId,
      tokens: [m.tokens[0], m.tokens[1]],
      tick: m.tick as Price,
      minSize: 5_000_000 as Shares,
      makerFeeBps: 0,
      takerFeeBps: 100,
      negRisk: false,
      acceptingOrders: true,
    });
  }
  for (let t = 0; t < TRADERS; t++) {
    e.deposit(`t${t}`, 1e15 as Micros);
    for (const m of MARKETS) e.mint(`t${t}`, m.conditionId, 1e13 as Shares);
  }
  return e;
}

interface RoundResult {
  rate: number;
  wallRate: number;
  trades: number;
  accepted: number;
  rested: number;
  canceled: number;
  depth: number;
  updates: number;
  volume: number;
}

const OWNER_IDS = Array.from({ length: TRADERS }, (_, t) => `t${t}`);

function round(s: Stream, retainFinishedMs: number): RoundResult {
  const clock = new VirtualClock(Date.UTC(2026, 0, 1));
  const engine = makeEngine(clock, retainFinishedMs);
  let trades = 0;
  let accepted = 0;
  let rested = 0;
  let canceled = 0;
  // A venue listens to both event streams (positions, last trade, order status): so does this one.
  let volume = 0;
  let updates = 0;
  engine.onTrade((t) => {
    volume += t.size;
  });
  engine.onOrderUpdate(() => {
    updates++;
  });
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (let i = 0; i < s.n; i++) {
    const type = TYPES[s.type[i] as number] as OrderType;
    const m = MARKETS[s.market[i] as number] as (typeof MARKETS)[number];
    const input: OrderInput = {
      id: s.prefix + String(i),
      owner: OWNER_IDS[s.owner[i] as number] as string,
      tokenId: m.tokens[s.outcome[i] as 0 | 1],
      side: s.buy[i] === 1 ? 'BUY' : 'SELL',
      price: s.price[i] as Price,
      size: s.size[i] as Shares,
      orderType: type,
      postOnly: s.postOnly[i] === 1,
      expirationSec: s.expSec[i] as number,
    };
    const r = engine.submit(input);
    if (r.ok) {
      accepted++;
      trades += r.trades.length;
      if (r.orderStatus === 'LIVE') rested++;
    }
    for (let c = s.cancelHead[i] as number; c >= 0; c = s.cancelNext[c] as number) {
      if (engine.cancel(s.prefix + String(c)).canceled) canceled++;
    }
    // The virtual venue takes 1,000 orders per second of its clock.
    if ((i & 63) === 63) clock.advance(64);
  }
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  const secs = (cpu.user + cpu.system) / 1e6;
  let depth = 0;
  for (const m of MARKETS) {
    const v = engine.bookView(m.tokens[0]);
    depth += (v?.bids.length ?? 0) + (v?.asks.length ?? 0);
  }
  return { rate: s.n / secs, wallRate: s.n / wall, trades, accepted, rested, canceled, depth, updates, volume };
}

export async function run(): Promise<void> {
  const N = 400_000;
  const RETAIN_MS = 60_000;
  round(makeStream(100_000, 7, 'w'), RETAIN_MS); // warm-up: let the JIT settle
  const results: RoundResult[] = [];
  for (let k = 0; k < 3; k++) results.push(round(makeStream(N, 11 + k, `r${k}-`), RETAIN_MS));
  const med = [...results].sort((a, b) => a.rate - b.rate)[1] as RoundResult;
  const all = round(makeStream(N, 21, 'k-'), Number.POSITIVE_INFINITY);
  const fmt = (xs: number[]): string => xs.map((x) => Math.round(x)).join(', ');
  process.stdout.write(
    `# ${N} orders per round at 1,000 orders per virtual second, finished records kept ${RETAIN_MS / 1000} s (about ${RETAIN_MS} records)\n`,
  );
  process.stdout.write(
    `# per CPU-second ${fmt(results.map((r) => r.rate))}; per wall-second ${fmt(results.map((r) => r.wallRate))} (wall time also counts other processes on a shared machine)\n`,
  );
  process.stdout.write(
    `# median round: ${med.accepted} accepted, ${med.trades} trades (${(med.trades / N).toFixed(2)}/order), ${med.rested} rested, ${med.canceled} cancelled, ${med.updates} order-update and ${med.trades} trade events delivered, ${med.depth} price levels left on the YES books\n`,
  );
  process.stdout.write(
    `# keeping every finished record (no pruning): ${Math.round(all.rate)} orders per CPU-second, ${Math.round(all.wallRate)} per wall-second\n`,
  );
  process.stdout.write(`BENCH sim_engine_order_rate ${Math.round(med.rate)} orders/s\n`);
}
