// The synthetic world's markets as flow markets: every market still open (not closed, not
// resolved) with the latent probability the world generated for it. The venue adds the same
// markets to the engine first; the flow only needs their condition ids and latents.
import type { World } from '../world/world.js';
import type { FlowMarket } from './market-flow.js';

export function flowMarketsFromWorld(world: World): FlowMarket[] {
  const out: FlowMarket[] = [];
  for (const m of world.markets) {
    if (m.state.closed || m.state.winner !== null) continue;
    out.push({ conditionId: m.conditionId, probability: m.latentProbability });
  }
  return out;
}
