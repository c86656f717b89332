// What the backtest executor's tests share: one binary market (tick 0.01, minimum 5 shares, fees
// as given), its recorded settings and the executor's market map.
import { RecordedMarketData } from '../../../src/backtest/market-data.js';
import { SCALE, type Price, type Shares } from '../../../src/core/money.js';
import type { MarketInfo, MarketsByToken } from '../../../src/execution/order-manager-types.js';
import { paperMarketFromSettings, type PaperMarket } from '../../../src/sim/paper/index.js';

export const COND = `0x${'5e'.repeat(32)}`;
export const YES = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
export const NO = '52114319501245915516055106046884209969926127482827954674443846427813813222426';
export const TICK = 10_000;

export interface TestMarket {
  readonly md: RecordedMarketData;
  /** The venue's market. */
  readonly paper: PaperMarket;
  /** The executor's market map. */
  readonly markets: MarketsByToken;
}

export function testMarket(fees: { readonly makerBps: number; readonly takerBps: number }): TestMarket {
  const md = new RecordedMarketData();
  for (const tokenId of [YES, NO])
    md.applySettings({
      tokenId,
      conditionId: COND,
      tickSize: TICK as Price,
      minOrderSize: (5 * SCALE) as Shares,
      negRisk: false,
      makerFeeBps: fees.makerBps,
      takerFeeBps: fees.takerBps,
      rewards: null,
    });
  const settings = md.settingsOf(COND);
  if (settings === null) throw new Error('test market without settings');
  const info: MarketInfo = {
    conditionId: COND,
    tickSize: TICK as Price,
    negRisk: false,
    makerBaseFeeBps: fees.makerBps,
    takerBaseFeeBps: fees.takerBps,
  };
  return {
    md,
    paper: paperMarketFromSettings(settings),
    markets: new Map([
      [YES, info],
      [NO, info],
    ]),
  };
}
