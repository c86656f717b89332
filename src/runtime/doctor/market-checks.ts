// The checks of the universe (config `markets`), resolved as the daemon resolves it
// (src/marketdata/universe.ts resolveUniverse, over the exchange client): one line per market with
// its tick, minimum size, fees and rewards; FAIL for a market that does not accept orders or that
// the exchange does not know (an explicit condition id is resolved on its own, so one unknown id
// names itself), or a selector that matches nothing.
import { RATE_SCALE, type FeeCurve } from '../../core/fees.js';
import { formatMicros } from '../../core/money.js';
import type { MarketSettings } from '../../core/market-settings.js';
import type { ExchangeClient } from '../../exchange/client/index.js';
import { resolveUniverse, type UniversePort, type UniverseSpec } from '../../marketdata/universe.js';
import { errorText, fail, ok, type CheckOutcome } from './check.js';
import type { DoctorContext } from './context.js';

function portOf(client: ExchangeClient): UniversePort {
  return {
    getBooks: (ids) => client.getBooks(ids),
    getMarketSettings: (id) => client.getClobMarket(id),
    async *samplingMarkets() {
      for await (const page of client.iterateSamplingMarketPages()) yield* page.data;
    },
  };
}

function describe(s: MarketSettings): string {
  const curve = (c: FeeCurve): string => (c.kind === 'min-price' ? 'x min(p, 1-p)' : `x (p(1-p))^${c.exponent}`);
  const fees =
    s.fees !== undefined && s.fees !== null
      ? `fees maker ${s.fees.makerRate / RATE_SCALE}, taker ${s.fees.takerRate / RATE_SCALE} ${curve(s.fees.curve)}`
      : s.fees === null
        ? 'fees unknown'
        : `fees maker ${s.makerBaseFeeBps} bps, taker ${s.takerBaseFeeBps} bps`;
  const rewards =
    s.rewards === null
      ? 'no rewards'
      : `rewards ${formatMicros(s.rewards.dailyRate)}/day, min size ${formatMicros(s.rewards.minSize)}, max spread ${s.rewards.maxSpreadCents} c`;
  return `tick ${formatMicros(s.tickSize)}, min size ${formatMicros(s.minOrderSize)}, ${fees}, ${rewards}${s.negRisk ? ', neg-risk' : ''}`;
}

function marketLine(s: MarketSettings): CheckOutcome {
  const name = `market ${s.conditionId}`;
  if (!s.acceptingOrders)
    return fail(
      name,
      'not accepting orders',
      'take it out of markets.conditions / markets.tokens (or let the selector pick another)',
    );
  return ok(name, describe(s));
}

export async function checkMarkets(ctx: DoctorContext): Promise<CheckOutcome[]> {
  const m = ctx.config.markets;
  const port = portOf(ctx.client);
  const fees = ctx.dialect.fees;
  const out: CheckOutcome[] = [];
  const spec = (over: Partial<UniverseSpec>): UniverseSpec => ({
    tokens: [],
    conditions: [],
    selector: m.selector,
    ...over,
  });
  const explicit = m.conditions.length > 0 || m.tokens.length > 0;
  if (!explicit) {
    try {
      const u = await resolveUniverse(port, spec({}), undefined, fees);
      if (u.length === 0)
        return [fail('markets', 'the selector matches no market', 'widen markets.selector or name markets.conditions')];
      for (const x of u) out.push(marketLine(x.settings));
    } catch (e) {
      out.push(fail('markets', `the universe does not resolve: ${errorText(e)}`, 'check markets in the config'));
    }
    return out;
  }
  for (const c of m.conditions) {
    try {
      const [x] = await resolveUniverse(port, spec({ conditions: [c] }), undefined, fees);
      if (x !== undefined) out.push(marketLine(x.settings));
    } catch (e) {
      out.push(
        fail(`market ${c}`, `unknown to the exchange: ${errorText(e)}`, 'correct or remove it in markets.conditions'),
      );
    }
  }
  if (m.tokens.length > 0) {
    try {
      for (const x of await resolveUniverse(port, spec({ tokens: m.tokens }), undefined, fees))
        out.push(marketLine(x.settings));
    } catch (e) {
      out.push(
        fail('markets.tokens', `a token does not resolve: ${errorText(e)}`, 'correct or remove it in markets.tokens'),
      );
    }
  }
  return out;
}
