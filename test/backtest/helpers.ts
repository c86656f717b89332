// Synthetic recordings for the backtest tests, written with the project's RecordingWriter on a
// VirtualClock: one binary market (YES and NO books, 20 levels a side, the NO book the exact mirror
// of the YES book), a book pair every 500 ms. The YES book sits at bid 0.49 / ask 0.51 until
// `lockAtMs`, then the asks come down to 0.49 (the book is locked at 0.49, the bid level there
// unchanged): a recorded ask reaches a resting 0.49 bid without any size trading at the bid.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import type { Level } from '../../src/core/book.js';
import { VirtualClock } from '../../src/core/clock.js';
import { SCALE, type Price, type Shares } from '../../src/core/money.js';
import { RecordingWriter } from '../../src/marketdata/recording/writer.js';

export const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
export const COND = `0x${'ab'.repeat(32)}`;
export const YES = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
export const NO = '52114319501245915516055106046884209969926127482827954674443846427813813222426';

const u = (x: number): number => Math.round(x * SCALE);

export interface SyntheticOptions {
  readonly durationMs?: number;
  readonly lockAtMs?: number;
  readonly tick?: number;
  readonly makerFeeBps?: number;
  readonly takerFeeBps?: number;
  readonly minOrderSize?: number;
  /**
   * Instead of the lock: from `lockAtMs` the YES bid at 0.49 grows to 150 (orders joining behind
   * ours), 2 s later the level is gone (150 shares left it: traded or cancelled), 2 s after that it
   * is back at 100. The asks never move.
   */
  readonly drain?: boolean;
}

function ladder(best: number, step: number, dir: 1 | -1, size: number): Level[] {
  const out: Level[] = [];
  for (let i = 0; i < 20; i++) {
    const p = u(best) + dir * i * u(step);
    if (p <= 0 || p >= SCALE) break;
    out.push({ price: p as Price, size: u(size) as Shares });
  }
  return out;
}

const mirror = (ls: readonly Level[]): Level[] => ls.map((l) => ({ price: (SCALE - l.price) as Price, size: l.size }));

export async function writeSynthetic(opts: SyntheticOptions = {}): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'om-backtest-'));
  const path = join(dir, 'synthetic.omrc');
  const clock = new VirtualClock(T0);
  const w = await RecordingWriter.open(path);
  const tick = opts.tick ?? 0.01;
  for (const tokenId of [YES, NO]) {
    w.settings(
      {
        tokenId,
        conditionId: COND,
        tickSize: u(tick) as Price,
        minOrderSize: u(opts.minOrderSize ?? 5) as Shares,
        negRisk: false,
        makerFeeBps: opts.makerFeeBps ?? 0,
        takerFeeBps: opts.takerFeeBps ?? 0,
        rewards: null,
      },
      clock.now(),
      clock.now(),
    );
  }
  const duration = opts.durationMs ?? 30_000;
  const lockAt = opts.lockAtMs ?? 10_000;
  while (clock.now() - T0 <= duration) {
    const since = clock.now() - T0 - lockAt;
    const locked = since >= 0 && opts.drain !== true;
    let bids = ladder(0.49, 0.01, -1, 100);
    if (opts.drain === true && since >= 0 && since < 4_000) {
      bids = since < 2_000 ? [{ ...(bids[0] as Level), size: u(150) as Shares }, ...bids.slice(1)] : bids.slice(1);
    }
    const asks = ladder(locked ? 0.49 : 0.51, 0.01, 1, 100);
    const t = clock.now();
    w.book(YES, t, t, { bids, asks });
    w.book(NO, t, t, { bids: mirror(asks), asks: mirror(bids) });
    clock.advance(500);
  }
  await w.close();
  return path;
}

export function testConfig(extra: Record<string, unknown> = {}): Readonly<Config> {
  return validateConfig({
    poll: { intervalMs: 1_000, maxBookAgeMs: 5_000, orderLookupIntervalMs: 1_000 },
    risk: { capital: '1000', dailyLossLimit: '100' },
    strategy: { name: 'bands', params: { levels: [{ margin: 0.01, size: 10 }] } },
    ...extra,
  });
}
