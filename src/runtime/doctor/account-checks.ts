// The checks of the account at the exchange:
// - region: GET geoblock → {blocked, ip, country, region} (https://docs.polymarket.com/api-reference/
//   geoblock: on polymarket.com, not the API host; exchange.geoblockUrl, default per dialect);
// - close-only: GET /auth/ban-status/closed-only → {closed_only} (L2; @polymarket/clob-client-v2
//   dist/endpoints.js CLOSED_ONLY and getClosedOnlyMode, types BanStatus);
// - collateral and allowances: GET /balance-allowance?asset_type=COLLATERAL&signature_type=<kind>
//   (the official client adds the signature type: dist/client.js getBalanceAllowance) → balance and
//   one allowance per spender; the exchange and the neg-risk exchange (the dialect's two verifying
//   contracts) must each have one above zero, or every order there is refused;
// - rate-limit tier: GET /v1/user/rate-limit-tier → {tier} (L2; src/ratelimit/signer-tiers.ts),
//   reported for information; an exchange without the route (404) is reported as such.
import { formatMicros } from '../../core/money.js';
import { SIGNER_TIER_ROUTE } from '../../ratelimit/signer-tiers.js';
import { errorText, fail, ok, type CheckOutcome } from './check.js';
import type { DoctorContext } from './context.js';
import { plainGet, signedGet } from './l2-get.js';

const PUBLIC_GEOBLOCK_URL = 'https://polymarket.com/api/geoblock';

export function geoblockUrlOf(ctx: Pick<DoctorContext, 'config' | 'clobUrl'>): string {
  const ex = ctx.config.exchange;
  return (
    ex.geoblockUrl ??
    (ex.dialect === 'polymarket' ? PUBLIC_GEOBLOCK_URL : `${ctx.clobUrl.replace(/\/+$/, '')}/api/geoblock`)
  );
}

export async function checkRegion(ctx: DoctorContext): Promise<CheckOutcome> {
  const name = 'region';
  const url = geoblockUrlOf(ctx);
  try {
    const r = await plainGet(ctx, url);
    const b = r.body as { blocked?: unknown; ip?: unknown; country?: unknown; region?: unknown } | null;
    if (r.status !== 200 || b === null || typeof b.blocked !== 'boolean') {
      return fail(name, `GET ${url} answered ${r.status} without {blocked}`, 'check exchange.geoblockUrl');
    }
    const where = `country ${String(b.country)}, region ${String(b.region)}, ip ${String(b.ip)}`;
    if (b.blocked)
      return fail(
        name,
        `orders from here are refused (${where})`,
        'run from a region the exchange allows (https://docs.polymarket.com/api-reference/geoblock lists the restricted ones)',
      );
    return ok(name, `not blocked (${where})`);
  } catch (e) {
    return fail(name, `GET ${url} failed: ${errorText(e)}`, 'check exchange.geoblockUrl and the network');
  }
}

export async function checkCloseOnly(ctx: DoctorContext): Promise<CheckOutcome> {
  const name = 'close-only mode';
  if (ctx.credentials === null) return fail(name, 'not checked: credentials failed', 'fix credentials first');
  try {
    const r = await signedGet(ctx, '/auth/ban-status/closed-only');
    const b = r.body as { closed_only?: unknown } | null;
    if (r.status !== 200 || b === null || typeof b.closed_only !== 'boolean') {
      return fail(
        name,
        `GET /auth/ban-status/closed-only answered ${r.status} without {closed_only}`,
        'check the credentials and exchange.clobUrl',
      );
    }
    if (b.closed_only)
      return fail(
        name,
        'the account is in close-only mode: it may only reduce positions, new quotes are refused',
        'ask the exchange to lift close-only mode; quote only from an account that is not in it',
      );
    return ok(name, 'not in close-only mode');
  } catch (e) {
    return fail(name, `GET /auth/ban-status/closed-only failed: ${errorText(e)}`, 'check exchange.clobUrl');
  }
}

export async function checkCollateral(ctx: DoctorContext): Promise<CheckOutcome[]> {
  const contracts = [
    { label: 'exchange', address: ctx.dialect.verifyingContract },
    { label: 'neg-risk exchange', address: ctx.dialect.negRiskVerifyingContract },
  ];
  const names = ['collateral balance', ...contracts.map((c) => `allowance ${c.label}`)];
  if (ctx.credentials === null)
    return names.map((n) => fail(n, 'not checked: credentials failed', 'fix credentials first'));
  let ba;
  try {
    ba = await ctx.client.getBalanceAllowance({
      asset_type: 'COLLATERAL',
      signature_type: ctx.config.exchange.signatureType,
    });
  } catch (e) {
    return names.map((n) =>
      fail(n, `GET /balance-allowance failed: ${errorText(e)}`, 'check the credentials and exchange.clobUrl'),
    );
  }
  const maker = ctx.config.exchange.funder ?? ctx.address ?? '(the key)';
  const out: CheckOutcome[] = [];
  out.push(
    ba.balance > 0
      ? ok('collateral balance', `${formatMicros(ba.balance)} at ${maker}`)
      : fail('collateral balance', `no collateral at ${maker}`, `deposit collateral to ${maker}`),
  );
  const byLower = new Map([...ba.allowances].map(([k, v]) => [k.toLowerCase(), v] as const));
  for (const c of contracts) {
    const a = byLower.get(c.address.toLowerCase()) ?? 0n;
    out.push(
      a > 0n
        ? ok(
            `allowance ${c.label}`,
            `${c.address} may spend ${a >= 2n ** 255n ? 'unlimited' : formatMicros(Number(a > BigInt(Number.MAX_SAFE_INTEGER) ? BigInt(Number.MAX_SAFE_INTEGER) : a))}`,
          )
        : fail(
            `allowance ${c.label}`,
            `the ${c.label} contract ${c.address} has no collateral allowance from ${maker}: every order there is refused`,
            `approve ${c.address} to spend ${maker}'s collateral (on-chain approve, then GET /balance-allowance/update so the exchange rereads it)`,
          ),
    );
  }
  return out;
}

export async function checkTier(ctx: DoctorContext): Promise<CheckOutcome> {
  const name = 'rate-limit tier';
  if (ctx.credentials === null) return fail(name, 'not checked: credentials failed', 'fix credentials first');
  try {
    const r = await signedGet(ctx, SIGNER_TIER_ROUTE);
    if (r.status === 404) return ok(name, `not reported by this exchange (GET ${SIGNER_TIER_ROUTE} 404)`);
    const b = r.body as { tier?: unknown } | null;
    if (r.status !== 200 || b === null || typeof b.tier !== 'string')
      return fail(name, `GET ${SIGNER_TIER_ROUTE} answered ${r.status} without {tier}`, 'check the credentials');
    return ok(name, b.tier);
  } catch (e) {
    return fail(name, `GET ${SIGNER_TIER_ROUTE} failed: ${errorText(e)}`, 'check exchange.clobUrl');
  }
}
