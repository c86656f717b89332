// Labels of a live recording: the recorder of `oddsmaker record` and of the daemon (`record.enabled`)
// writes the sidecar of importers/sidecar.ts next to its recording, so the backtest report names
// its markets by question and outcome instead of 77-digit token ids. Invariants: labels only grow
// (a market that left the universe keeps its label, and an appended recording keeps the labels of
// earlier runs); the sidecar says `full` depth and backtestable, as a recording of polled books is.
import type { UniverseMarket } from '../types.js';
import { readSidecar, writeSidecar, type TokenLabel } from './importers/sidecar.js';

export async function writeUniverseLabels(recording: string, markets: readonly UniverseMarket[]): Promise<void> {
  const labels: Record<string, TokenLabel> = { ...(readSidecar(recording)?.labels ?? {}) };
  for (const m of markets) {
    for (const t of m.tokens) labels[t.tokenId] = { question: m.settings.question, outcome: t.outcome };
  }
  await writeSidecar(recording, { version: 1, source: 'record', depth: 'full', backtestable: true, note: '', labels });
}
