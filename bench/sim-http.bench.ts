// Order entry through the simulator's HTTP server: POST /orders with 15 signed orders per call,
// every L2 header and every order signature verified by the server, limits off, over loopback with
// a few concurrent keep-alive connections, for several seconds. Orders are signed before timing
// (with the worker signing pool) and never cross (BUY YES and BUY NO at low prices), so each one
// rests: the figure is order entry, not matching.
// Prints `BENCH sim_http_order_rate <orders/s>` (accepted orders per second; target ≥ 3,600/s, the
// interface's burst ceiling of 240 calls/s × 15) and `#` lines with p50/p99 request latency.
import { Pool } from 'undici';
import { SystemClock } from '../src/core/clock.js';
import type { Price, Shares } from '../src/core/money.js';
import { buildL2Headers } from '../src/exchange/auth/l2.js';
import { makeCredentials } from '../src/exchange/auth/credentials.js';
import { buildOrder, SigningPool, toWireSubmission, type UnsignedOrder } from '../src/exchange/signing/index.js';
import { startSimulator } from '../src/sim/server/start.js';

const PER_CALL = 15;
const CONNECTIONS = 8;
const SECONDS = 6;
const WARMUP_CALLS = 40;

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

export async function run(): Promise<void> {
  const clock = new SystemClock();
  const sim = await startSimulator({ seed: 'bench', markets: 50, flow: 'none', limits: 'off', clock });
  const dialect = sim.venue.dialect;
  const credentials = makeCredentials({
    apiKey: sim.account.apiKey,
    secret: sim.account.secret,
    passphrase: sim.account.passphrase,
  });
  const markets = sim.venue.world.markets.filter((m) => m.state.acceptingOrders && !m.state.closed);
  const rnd = lcg(42);
  // Enough calls for the whole run at twice the target rate.
  const calls = Math.ceil((3600 * 1.6 * SECONDS) / PER_CALL) + WARMUP_CALLS;
  const unsigned: UnsignedOrder[] = [];
  for (let i = 0; i < calls * PER_CALL; i++) {
    const m = markets[i % markets.length]!;
    const tick = m.state.tick;
    // 0.01 to 0.30 on the market's tick: BUY YES rests as a bid, BUY NO as an ask at ≥ 0.70.
    const steps = Math.max(1, Math.floor(300_000 / tick) - Math.ceil(10_000 / tick));
    const price = (Math.ceil(10_000 / tick) + Math.floor(rnd() * steps)) * tick;
    const size = Math.max(m.state.minOrderSize, 5_000_000);
    unsigned.push(
      buildOrder(
        {
          tokenId: m.tokenIds[i % 2]!,
          conditionId: m.conditionId,
          side: 'BUY',
          price: price as Price,
          size: size as Shares,
          orderType: 'GTC',
          tick,
          negRisk: m.negRisk,
        },
        {
          maker: sim.account.address,
          signer: sim.account.address,
          signatureType: 0,
          timestampMs: clock.now(),
          salt: i + 1,
        },
      ),
    );
  }
  const t0 = performance.now();
  const pool = new SigningPool({ privateKey: sim.account.privateKey, dialect });
  const signed = [];
  for (let i = 0; i < unsigned.length; i += 150) signed.push(pool.signBatch(unsigned.slice(i, i + 150)));
  const all = (await Promise.all(signed)).flat();
  await pool.close();
  process.stdout.write(`# pre-signed ${all.length} orders in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  const bodies: string[] = [];
  for (let c = 0; c < calls; c++) {
    const batch = all
      .slice(c * PER_CALL, (c + 1) * PER_CALL)
      .map((o) => toWireSubmission(o, { orderType: 'GTC', owner: sim.account.apiKey, dialect }));
    bodies.push(JSON.stringify(batch));
  }

  const http = new Pool(sim.url, { connections: CONNECTIONS, pipelining: 1 });
  let next = 0;
  const send = async (body: string): Promise<{ accepted: number; ms: number }> => {
    const headers = buildL2Headers({
      dialect,
      credentials,
      address: sim.account.address,
      method: 'POST',
      path: '/orders',
      body,
      timestampSec: Math.floor(clock.now() / 1000),
    });
    const start = performance.now();
    const res = await http.request({
      method: 'POST',
      path: '/orders',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
    });
    const text = await res.body.text();
    const ms = performance.now() - start;
    if (res.statusCode !== 200) throw new Error(`POST /orders answered ${res.statusCode}: ${text.slice(0, 200)}`);
    const results = JSON.parse(text) as { success: boolean }[];
    return { accepted: results.filter((r) => r.success).length, ms };
  };

  // Warm-up (also builds the server's key tables on the first order).
  for (let i = 0; i < WARMUP_CALLS; i++) await send(bodies[next++]!);

  let accepted = 0;
  let sent = 0;
  const latencies: number[] = [];
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline && next < bodies.length) {
      const r = await send(bodies[next++]!);
      accepted += r.accepted;
      sent += PER_CALL;
      latencies.push(r.ms);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  await http.close();
  const stats = sim.ctx.verifier.counts;
  await sim.close();
  latencies.sort((a, b) => a - b);
  const rate = accepted / elapsed;
  process.stdout.write(`BENCH sim_http_order_rate ${Math.round(rate)} orders/s\n`);
  process.stdout.write(
    `# ${accepted}/${sent} orders accepted in ${elapsed.toFixed(2)} s over ${CONNECTIONS} connections, ${PER_CALL} per call\n`,
  );
  process.stdout.write(
    `# request latency p50 ${percentile(latencies, 0.5).toFixed(2)} ms, p99 ${percentile(latencies, 0.99).toFixed(2)} ms\n`,
  );
  process.stdout.write(`# signatures: ${stats.recovered} by recovery, ${stats.fast} by the cached-key equation\n`);
  // CPU of every thread of this process (server, verification workers and the client), per order:
  // a figure that depends less than the rate on what else the machine is running.
  const cpuUs = cpu.user + cpu.system;
  process.stdout.write(
    `# CPU ${(cpuUs / 1e6).toFixed(2)} s over ${elapsed.toFixed(2)} s wall (${(cpuUs / 1e6 / elapsed).toFixed(2)} cores busy), ${Math.round(cpuUs / Math.max(1, accepted))} µs per order\n`,
  );
}
