// TradeLog: the public trade history behind GET /trades (docs/protocol.md §8), fed with the same fills
// as the PositionBook. Invariants kept here:
// - bounded memory: the newest `capacity` fills are kept (oldest dropped first); the world's past
//   trades (`preload`, standings.ts) are kept apart and never dropped, so a leaderboard wallet's
//   history stays listed however long the venue runs;
// - a fill is validated against the world (known token, matching condition id) before it is kept;
// - a fill without a transaction hash gets a deterministic one (SHA-256 of its sequence number and
//   fields, computed when first listed), so the same sequence of fills always lists the same hashes;
// - query: user (wallet, any case), market (comma-separated condition ids), limit 1–500 (default
//   100), offset 0–10000 (default 0); newest first, ties by arrival (latest first); data error
//   shape (`unknown_field`, `invalid_field`), status 400;
// - takerOnly (the public Data API's filter): true lists only the taker's row of each match (its
//   side is the aggressor's); the default here stays false (both rows, as this log always listed).
import { createHash } from 'node:crypto';
import type { WireTrade } from '../../exchange/wire.js';
import type { Fill } from './portfolio.js';
import { PortfolioError } from './portfolio.js';
import { microsToNumber } from './numbers.js';
import {
  DATA_STYLE,
  fail,
  isAddress,
  isConditionId,
  page,
  Params,
  runQuery,
  type QueryResult,
  type RawQuery,
} from './query.js';
import type { World } from './world.js';
import { OptionError, InvariantError } from '../../core/errors.js';

interface Logged {
  readonly seq: number;
  readonly fill: Fill;
  readonly user: string;
  /** The fill's hash, or the derived one once computed (null until first listed). */
  hash: string | null;
}

export class TradeLog {
  private readonly log: Logged[] = [];
  private readonly past: Logged[] = [];
  private seq = 0;

  constructor(
    private readonly world: World,
    private readonly capacity = 100_000,
  ) {
    if (!Number.isSafeInteger(capacity) || capacity < 1)
      throw new OptionError('SIM_OPTION', `bad capacity: ${String(capacity)}`);
  }

  get size(): number {
    return this.past.length + this.log.length;
  }

  private logged(f: Fill): Logged {
    const ref = this.world.token(f.tokenId);
    if (ref === undefined) throw new PortfolioError('PORTFOLIO_UNKNOWN_TOKEN', `unknown token ${f.tokenId}`);
    if (ref.market.conditionId !== f.conditionId.toLowerCase()) {
      throw new PortfolioError('PORTFOLIO_BAD_FILL', `token ${f.tokenId} is not in market ${f.conditionId}`);
    }
    if (!isAddress(f.user)) throw new PortfolioError('PORTFOLIO_BAD_FILL', `bad wallet address: ${f.user}`);
    return { seq: this.seq++, fill: f, user: f.user.toLowerCase(), hash: f.transactionHash ?? null };
  }

  append(f: Fill): void {
    this.log.push(this.logged(f));
    if (this.log.length > this.capacity) this.log.splice(0, this.log.length - this.capacity);
  }

  /** Keeps the world's past trades (in time order, before any append), never dropped. */
  preload(fills: readonly Fill[]): void {
    if (this.seq !== 0) throw new InvariantError('preload must come before the first fill');
    for (const f of fills) this.past.push(this.logged(f));
  }

  private hashOf(l: Logged): string {
    if (l.hash === null) {
      const f = l.fill;
      l.hash =
        '0x' +
        createHash('sha256')
          .update(`${l.seq}|${l.user}|${f.tokenId}|${f.side}|${f.price}|${f.size}|${f.timeMs}`)
          .digest('hex');
    }
    return l.hash;
  }

  query(q: RawQuery): QueryResult<WireTrade[]> {
    return runQuery(() => {
      const p = new Params(q, DATA_STYLE).only(['user', 'market', 'limit', 'offset', 'takerOnly']);
      const takerOnly = p.bool('takerOnly', false);
      const user = p.text('user', 42);
      if (user !== undefined && !isAddress(user)) fail(DATA_STYLE.invalid('user', 'must be a wallet address'));
      const list = p.list('market');
      if (list !== undefined && !list.every(isConditionId)) fail(DATA_STYLE.invalid('market', 'must be condition ids'));
      const markets = list === undefined ? undefined : new Set(list.map((s) => s.toLowerCase()));
      const limit = p.int('limit', { min: 1, max: 500 }, 100);
      const offset = p.int('offset', { min: 0, max: 10_000 }, 0);
      const wallet = user?.toLowerCase();
      const keep = (l: Logged): boolean =>
        (wallet === undefined || l.user === wallet) &&
        (markets === undefined || markets.has(l.fill.conditionId.toLowerCase())) &&
        (!takerOnly || l.fill.role === 'taker');
      const rows = [...this.past.filter(keep), ...this.log.filter(keep)].sort(
        (a, b) => b.fill.timeMs - a.fill.timeMs || b.seq - a.seq,
      );
      return page(rows, offset, limit).map((l) => this.render(l));
    });
  }

  private render(l: Logged): WireTrade {
    const ref = this.world.token(l.fill.tokenId);
    if (ref === undefined) throw new PortfolioError('PORTFOLIO_UNKNOWN_TOKEN', `unknown token ${l.fill.tokenId}`);
    const m = ref.market;
    return {
      proxyWallet: l.user,
      side: l.fill.side,
      asset: l.fill.tokenId,
      conditionId: m.conditionId,
      size: microsToNumber(l.fill.size),
      price: microsToNumber(l.fill.price),
      timestamp: Math.floor(l.fill.timeMs / 1000),
      title: m.question,
      slug: m.slug,
      outcome: m.outcomes[ref.outcomeIndex],
      outcomeIndex: ref.outcomeIndex,
      transactionHash: this.hashOf(l),
    };
  }
}
