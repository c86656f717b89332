// Recording benchmark (issue 7):
// - recording_bytes_per_update: file bytes (header, chunk framing, periodic snapshots included) /
//   book level updates, on a synthetic but realistic stream: one market's two tokens (YES/NO) on a
//   0.001 tick, 20 levels a side, each update one level change (Polymarket's price_change carries
//   one per token): 70% a size change near the top (sizes in cents of shares, as on the exchange),
//   15% one of the top 3 levels emptied with a new one at the far end, 15% a new best inside the
//   spread with the farthest level removed (so each side keeps 20 levels; 2 updates each); exchange
//   gaps ~exponential with a 200 ms mean, local = exchange + 20–80 ms; a full book of each token
//   every 60 s of exchange time. Deterministic (mulberry32 seed 7). Target ≤ 16.
// - detail lines: the same for brotli chunks, the real ws burst (clob_ws_market_burst_2tokens)
//   replayed 200 times back to back, and write/read rates through the file writer and the
//   streaming reader (with and without materialising a Book per event). The burst is far too
//   short to amortise its two full books, and repeating it would let deflate find the copies, so
//   it is a detail line, not the figure.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Level } from '../src/core/book.js';
import type { Price, Shares } from '../src/core/money.js';
import { mulberry32 } from '../src/core/random.js';
import { encodeHeader, type Codec, type LevelChange } from '../src/marketdata/recording/format.js';
import { MarketStreamImporter } from '../src/marketdata/recording/importers/market-stream.js';
import { Ladder } from '../src/marketdata/recording/ladder.js';
import { RecordingReader } from '../src/marketdata/recording/reader.js';
import { RecordingEncoder, RecordingWriter, type RecordSink } from '../src/marketdata/recording/writer.js';
import { realFixturePath } from '../test/support/fixtures.js';

const UPDATES = 400_000;
const TICK = 1_000;

function line(name: string, value: number, unit: string): void {
  process.stdout.write(`BENCH ${name} ${Number.isInteger(value) ? value : value.toFixed(2)} ${unit}\n`);
}
function note(s: string): void {
  process.stdout.write(`# ${s}\n`);
}

/** Writes the synthetic stream into `sink`; returns the number of level updates. */
function synthetic(sink: RecordSink, updates: number): number {
  const rnd = mulberry32(7);
  const tokens = ['YES', 'NO'];
  const ladders = tokens.map(() => new Ladder());
  const size = (): Shares => ((Math.floor(50 + 5_000 * rnd() * rnd()) * 100 + Math.floor(rnd() * 100)) * 100) as Shares;
  let ts = 1_790_000_000_000;
  const lastSnap = [0, 0];
  tokens.forEach((t, k) => {
    sink.settings(
      {
        tokenId: t,
        conditionId: '0xmarket',
        tickSize: TICK as Price,
        minOrderSize: 5_000_000 as Shares,
        negRisk: false,
        makerFeeBps: 0,
        takerFeeBps: 0,
        rewards: null,
      },
      ts,
      ts + 30,
    );
    const mid = k === 0 ? 450 : 550;
    const bids: Level[] = [];
    const asks: Level[] = [];
    for (let i = 0; i < 20; i++) {
      bids.push({ price: ((mid - 1 - i) * TICK) as Price, size: size() });
      asks.push({ price: ((mid + 1 + i) * TICK) as Price, size: size() });
    }
    sink.book(t, ts, ts + 30, { bids, asks });
    ladders[k]!.replace(bids, asks);
  });
  let n = 0;
  while (n < updates) {
    ts += Math.max(1, Math.round(-200 * Math.log(1 - rnd())));
    const local = ts + 20 + Math.floor(rnd() * 60);
    const k = rnd() < 0.5 ? 0 : 1;
    const t = tokens[k]!;
    const lad = ladders[k]!;
    if (ts - lastSnap[k]! >= 60_000) {
      sink.book(t, ts, local, { bids: lad.bids, asks: lad.asks });
      lastSnap[k] = ts;
      continue;
    }
    const side: 'bids' | 'asks' = rnd() < 0.5 ? 'bids' : 'asks';
    const levels = lad[side];
    const r = rnd();
    const changes: LevelChange[] = [];
    const best = levels[0];
    const other = lad[side === 'bids' ? 'asks' : 'bids'][0];
    if (r < 0.7 || best === undefined || other === undefined || levels.length < 5) {
      const i = Math.min(levels.length - 1, Math.floor(rnd() * rnd() * 8));
      const l = levels[Math.max(0, i)];
      if (l === undefined) continue;
      changes.push({ side, price: l.price, size: size() });
    } else if (r < 0.85) {
      const i = Math.floor(rnd() * 3);
      const l = levels[i]!;
      const far = levels[levels.length - 1]!;
      const next = far.price + (side === 'bids' ? -TICK : TICK);
      changes.push({ side, price: l.price, size: 0 as Shares });
      if (next > 0 && next < 1_000_000) changes.push({ side, price: next as Price, size: size() });
    } else {
      const inside = side === 'bids' ? best.price + TICK : best.price - TICK;
      if (inside === other.price || inside <= 0 || inside >= 1_000_000) continue;
      changes.push({ side, price: inside as Price, size: size() });
      // Keep about 20 levels: the farthest one goes when a new best arrives.
      if (levels.length >= 20) changes.push({ side, price: levels[levels.length - 1]!.price, size: 0 as Shares });
    }
    sink.delta(t, ts, local, changes);
    for (const c of changes) lad.set(c.side, c.price, c.size);
    n += changes.length;
  }
  return n;
}

function inMemory(
  codec: Codec,
  fill: (sink: RecordSink) => number,
): { bytes: number; updates: number; chunks: number } {
  let bytes = encodeHeader(codec).length;
  const enc = new RecordingEncoder(
    (c) => {
      bytes += c.length;
    },
    { codec },
  );
  const updates = fill(enc);
  enc.flush();
  return { bytes, updates, chunks: enc.stats.chunks };
}

function burstRepeated(sink: RecordSink, times: number): number {
  const path = realFixturePath('clob_ws_market_burst_2tokens.jsonl');
  const msgs = readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const span = 170_000;
  let shift = 0;
  let updates = 0;
  const imp = new MarketStreamImporter({
    settingsOf: (t) => sink.settingsOf(t),
    settings: (s, e, l) => sink.settings(s, e + shift, l + shift),
    book: (t, e, l, b) => sink.book(t, e + shift, l + shift + 35, b),
    delta: (t, e, l, c) => {
      updates += c.length;
      sink.delta(t, e + shift, l + shift + 35, c);
    },
    mid: (t, e, l, m) => sink.mid(t, e + shift, l + shift, m),
  });
  for (let i = 0; i < times; i++) {
    shift = i * span;
    for (const m of msgs) imp.message(m);
  }
  return updates;
}

export async function run(): Promise<void> {
  const d = inMemory('deflate-raw', (s) => synthetic(s, UPDATES));
  line('recording_bytes_per_update', d.bytes / d.updates, 'bytes');
  note(
    `synthetic 2-token 20-level stream: ${d.updates} level updates, ${d.bytes} bytes in ${d.chunks} deflate-raw chunks (snapshots every 60 s included)`,
  );
  const b = inMemory('brotli', (s) => synthetic(s, UPDATES));
  note(`same stream, brotli chunks: ${(b.bytes / b.updates).toFixed(2)} bytes/update`);
  const w = inMemory('deflate-raw', (s) => burstRepeated(s, 1));
  note(
    `real ws burst, once (2 full books of 46 levels + 98 deltas, all bytes over the 98 delta updates): ${(w.bytes / w.updates).toFixed(2)} bytes/update (${w.bytes} bytes)`,
  );

  const dir = await mkdtemp(join(tmpdir(), 'omrec-bench-'));
  try {
    const path = join(dir, 'bench.omrec');
    const t0 = performance.now();
    const writer = await RecordingWriter.open(path);
    const n = synthetic(writer, UPDATES);
    await writer.close();
    const t1 = performance.now();
    const fileBytes = (await stat(path)).size;
    note(
      `write: ${Math.round(n / ((t1 - t0) / 1000))} updates/s through RecordingWriter to a file (${fileBytes} bytes, ${(t1 - t0).toFixed(0)} ms incl. stream generation)`,
    );
    let events = 0;
    const t2 = performance.now();
    for await (const _ of RecordingReader.fromFile(path)) events++;
    const t3 = performance.now();
    note(
      `read: ${Math.round(events / ((t3 - t2) / 1000))} events/s streaming (${events} events, ${(t3 - t2).toFixed(0)} ms); ${(fileBytes / events).toFixed(2)} bytes per recorded event (a delta event carries 1 or 2 level updates)`,
    );
    let levels = 0;
    let books = 0;
    const t4 = performance.now();
    for await (const e of RecordingReader.fromFile(path))
      if (e.kind === 'delta' || e.kind === 'book') {
        levels += e.book().bids.length;
        books++;
      }
    const t5 = performance.now();
    note(
      `read + Book materialised per event: ${Math.round(events / ((t5 - t4) / 1000))} events/s (mean ${(levels / books).toFixed(1)} bid levels per book)`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
