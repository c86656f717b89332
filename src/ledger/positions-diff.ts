// Compares the ledger's positions with the exchange's (GET /positions), for the scheduled position
// check. Pure: the caller fetches both sides and logs what comes back. Invariants kept:
// - the exchange's sizes are float shares (portfolio resources carry numbers); they are turned
//   into millionths once, through microsFromNumber (shortest decimal form, ties to even), and all
//   comparison is on integers; a difference is reported when |exchange − ledger| exceeds the
//   tolerance (default 1 millionth = 0.000001 share);
// - the interface names a position's token as `asset` = `<condition_id>:<outcome_index>` (§2.11),
//   the public exchange as the token id itself; both are understood (the first needs the markets'
//   token lists, see tokenResolver). A position that cannot be tied to a token is reported, never
//   dropped;
// - a redeemable exchange position of a token the ledger holds none of is not a difference: the
//   ledger settles a position when its market resolves, the exchange lists it until redeemed;
// - GET /positions leaves out positions under `sizeThreshold` (default 1 share): pass the
//   threshold used so a small ledger position missing from the answer is not called a difference
//   (or query with sizeThreshold=0, the better choice for this check).
import { microsFromNumber, type Micros, type Shares } from '../core/money.js';

export interface LedgerPositionLike {
  readonly tokenId: string;
  /** Shares in millionths. */
  readonly size: number;
}

export interface ExchangePositionLike {
  readonly tokenId?: string;
  /** `<condition_id>:<outcome_index>` per the interface, or a token id. */
  readonly asset?: string;
  readonly conditionId?: string;
  readonly outcomeIndex?: number;
  /** Shares, as the float the portfolio API sends. */
  readonly size: number;
  /** Resolved and not yet redeemed: the ledger settles these at resolution. */
  readonly redeemable?: boolean;
}

export type PositionDiffKind =
  | 'size_mismatch' // both sides hold the token, sizes differ
  | 'missing_on_exchange' // the ledger holds it, the exchange does not list it
  | 'missing_in_ledger' // the exchange lists it, the ledger holds none
  | 'unresolved_asset' // an exchange position whose token could not be determined
  | 'invalid_size'; // an exchange size that is not a finite number

export interface PositionDiff {
  readonly kind: PositionDiffKind;
  readonly tokenId: string | null;
  /** The exchange's own name for the position, when it had one. */
  readonly asset: string | null;
  readonly ledgerSize: Shares;
  /** null when the exchange has no usable size for it. */
  readonly exchangeSize: Shares | null;
  /** exchange − ledger, millionths of a share (0 when not computable). */
  readonly diff: Micros;
}

export type TokenResolver = (p: ExchangePositionLike) => string | null;

export interface DiffOptions {
  /** Largest |difference| that is not reported, in millionths of a share (default 1). */
  readonly toleranceMicros?: number;
  /** Maps an exchange position to a token id (default: its tokenId, or an `asset` without ':'). */
  readonly resolveToken?: TokenResolver;
  /** The sizeThreshold the exchange was queried with, in millionths of a share (default 0). */
  readonly exchangeSizeThreshold?: number;
}

/** tokenId, else an `asset` that is a plain token id; a `<condition>:<index>` asset needs tokenResolver. */
export const defaultTokenResolver: TokenResolver = (p) => {
  if (p.tokenId !== undefined && p.tokenId !== '') return p.tokenId;
  if (p.asset !== undefined && p.asset !== '' && !p.asset.includes(':')) return p.asset;
  return null;
};

/**
 * A resolver that also understands `<condition_id>:<outcome_index>` (and conditionId +
 * outcomeIndex fields) from the markets' token lists in outcome order (a market record's `tokens`).
 */
export function tokenResolver(
  markets: Iterable<{ readonly conditionId: string; readonly tokenIds: readonly string[] }>,
): TokenResolver {
  const byCondition = new Map<string, readonly string[]>();
  for (const m of markets) byCondition.set(m.conditionId.toLowerCase(), m.tokenIds);
  const lookup = (conditionId: string, index: number): string | null => {
    if (!Number.isSafeInteger(index) || index < 0) return null;
    return byCondition.get(conditionId.toLowerCase())?.[index] ?? null;
  };
  return (p) => {
    const direct = defaultTokenResolver(p);
    if (direct !== null) return direct;
    if (p.asset !== undefined) {
      const m = /^(.+):(\d+)$/.exec(p.asset);
      if (m !== null) {
        const t = lookup(m[1] ?? '', Number(m[2]));
        if (t !== null) return t;
      }
    }
    if (p.conditionId !== undefined && p.outcomeIndex !== undefined) return lookup(p.conditionId, p.outcomeIndex);
    return null;
  };
}

/** Differences between ledger and exchange positions, sorted by token id. */
export function diffPositions(
  ledger: Iterable<LedgerPositionLike>,
  exchange: Iterable<ExchangePositionLike>,
  opts: DiffOptions = {},
): PositionDiff[] {
  const tolerance = opts.toleranceMicros ?? 1;
  const threshold = opts.exchangeSizeThreshold ?? 0;
  const resolve = opts.resolveToken ?? defaultTokenResolver;

  const ours = new Map<string, number>();
  for (const p of ledger) {
    if (p.size !== 0) ours.set(p.tokenId, (ours.get(p.tokenId) ?? 0) + p.size);
  }

  const out: PositionDiff[] = [];
  const theirs = new Map<string, { size: number; asset: string | null }>();
  for (const p of exchange) {
    const asset = p.asset ?? null;
    const tokenId = resolve(p);
    let size: number;
    try {
      size = microsFromNumber(p.size, 'half-even', 'position size');
    } catch {
      out.push({
        kind: 'invalid_size',
        tokenId,
        asset,
        ledgerSize: (tokenId === null ? 0 : (ours.get(tokenId) ?? 0)) as Shares,
        exchangeSize: null,
        diff: 0 as Micros,
      });
      if (tokenId !== null) ours.delete(tokenId);
      continue;
    }
    if (tokenId === null) {
      out.push({
        kind: 'unresolved_asset',
        tokenId: null,
        asset,
        ledgerSize: 0 as Shares,
        exchangeSize: size as Shares,
        diff: size as Micros,
      });
      continue;
    }
    // The ledger settles a position when its market resolves; the exchange lists it (redeemable)
    // until it is redeemed. Not a difference as long as the ledger holds none of it.
    if (p.redeemable === true && (ours.get(tokenId) ?? 0) === 0) continue;
    const prev = theirs.get(tokenId);
    theirs.set(tokenId, { size: (prev?.size ?? 0) + size, asset: prev?.asset ?? asset });
  }

  for (const [tokenId, t] of theirs) {
    const mine = ours.get(tokenId) ?? 0;
    const diff = t.size - mine;
    if (Math.abs(diff) > tolerance) {
      out.push({
        kind: mine === 0 ? 'missing_in_ledger' : 'size_mismatch',
        tokenId,
        asset: t.asset,
        ledgerSize: mine as Shares,
        exchangeSize: t.size as Shares,
        diff: diff as Micros,
      });
    }
  }
  for (const [tokenId, mine] of ours) {
    if (theirs.has(tokenId)) continue;
    if (Math.abs(mine) <= tolerance) continue;
    if (mine < threshold) continue; // the exchange does not list positions under its threshold
    out.push({
      kind: 'missing_on_exchange',
      tokenId,
      asset: null,
      ledgerSize: mine as Shares,
      exchangeSize: 0 as Shares,
      diff: -mine as Micros,
    });
  }
  // Ledger positions whose exchange entry had an invalid size were reported already.
  return out.sort((a, b) => cmp(a.tokenId ?? a.asset ?? '', b.tokenId ?? b.asset ?? ''));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
