// An in-process sandbox daemon for end-to-end tests on the virtual clock: buildRuntime (the
// simulator on loopback, the HTTP gateway, the real order manager, trade feed and ledger) with its
// log lines captured as parsed JSON, the universe refreshed on the virtual clock, and the moves
// these tests share: start the daemon, find our best resting bid, and have another trader sell
// into it (minted shares, a FAK at our price, big enough to get through any synthetic bid at or
// above ours). Real loopback I/O and virtual time advance together (drive.ts), never a real sleep.
import type { Config } from '../../src/config/schema.js';
import type { VirtualClock } from '../../src/core/clock.js';
import type { Shares } from '../../src/core/money.js';
import { ClockRefreshScheduler } from '../../src/marketdata/refresh-scheduler.js';
import { buildRuntime } from '../../src/runtime/modes.js';
import { Venue } from '../../src/sim/venue/index.js';
import { driveUntil } from './drive.js';

export type LogLine = Record<string, unknown> & { msg: string };
type Runtime = Awaited<ReturnType<typeof buildRuntime>>;
type Simulator = NonNullable<Runtime['simulator']>;
type RestingOrder = ReturnType<Simulator['venue']['ordersOf']>[number];

export interface SandboxRuntime {
  readonly rt: Runtime;
  readonly sim: Simulator;
  /** Every log line, parsed, in order. */
  readonly lines: LogLine[];
  /** Every log line as written (what a log file would hold). */
  readonly raw: string[];
}

export async function startSandboxRuntime(config: Readonly<Config>, clock: VirtualClock): Promise<SandboxRuntime> {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const rt = await buildRuntime({
    config,
    clock,
    env: {},
    prettyLogs: false,
    logDestination: {
      write: (l: string) => {
        raw.push(l);
        lines.push(JSON.parse(l) as LogLine);
      },
    },
    refreshScheduler: new ClockRefreshScheduler(clock, 30_000),
  });
  const sim = rt.simulator;
  if (sim === null) throw new Error('sandbox mode starts the simulator');
  return { rt, sim, lines, raw };
}

/** Starts the daemon and drives until it runs and one of our bids rests; that best bid. */
export async function startQuoting(s: SandboxRuntime, clock: VirtualClock): Promise<RestingOrder> {
  let started = false;
  void s.rt.daemon.start().then(() => {
    started = true;
  });
  await driveUntil(clock, () => started, 'start');
  await driveUntil(clock, () => ourBids(s.sim).length > 0, 'resting bids');
  return ourBids(s.sim)[0]!;
}

/** Our resting bids, best first. */
export function ourBids(sim: Simulator): RestingOrder[] {
  return sim.venue
    .ordersOf(Venue.ownerOf(sim.account.address), 'LIVE')
    .filter((o) => o.record.side === 'BUY')
    .sort((a, b) => b.record.price - a.record.price);
}

/** Another trader (`taker`) sells 500 shares into `bid` at its price, as order `id`; synchronous. */
export function sellInto(sim: Simulator, bid: RestingOrder, taker: string, id: string): void {
  const { tokenId, conditionId, price } = bid.record;
  const SH = 1_000_000;
  sim.venue.engine.mint(Venue.ownerOf(taker), conditionId, (500 * SH) as Shares);
  const r = sim.venue.place({
    id,
    owner: Venue.ownerOf(taker),
    tokenId,
    side: 'SELL',
    price,
    size: (500 * SH) as Shares,
    orderType: 'FAK',
    postOnly: false,
    expirationSec: null,
    maker: taker,
    apiKey: 'taker',
  });
  if (!r.ok) throw new Error(`the taker's sale was refused: ${JSON.stringify(r)}`);
}
