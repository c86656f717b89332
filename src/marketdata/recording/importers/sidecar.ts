// The recording's sidecar, `<recording>.meta.json`: what an import knows about a recording that the
// binary format (format.ts, versioned, another owner's) does not hold: the source kind, the book
// depth it has (`full` ladders or `L1`, top of book only with synthetic sizes), whether it can back
// a book-level backtest and why not, and a label per token (question and outcome) for reports.
// Invariants: written next to the recording (same path + ".meta.json") by `oddsmaker import` and by
// `oddsmaker record` (universe-labels.ts); read leniently (a missing or unreadable sidecar is null,
// never an error: older recordings and the daemon's own have none); JSON with sorted token keys,
// so equal imports write equal bytes.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';

export type RecordingDepth = 'full' | 'L1' | 'none';

export interface TokenLabel {
  /** The market's question (or the source's name for it, e.g. an L1 slug). */
  readonly question: string;
  /** The token's outcome ("Yes", "No", …); "" when unknown. */
  readonly outcome: string;
}

export interface RecordingSidecar {
  readonly version: 1;
  /** The importer kind (`oddsmaker import <kind>`). */
  readonly source: string;
  readonly depth: RecordingDepth;
  readonly backtestable: boolean;
  /** Why a backtest on it is refused or approximate; "" when it is neither. */
  readonly note: string;
  readonly labels: Readonly<Record<string, TokenLabel>>;
}

export function sidecarPath(recording: string): string {
  return `${recording}.meta.json`;
}

export async function writeSidecar(recording: string, s: RecordingSidecar): Promise<void> {
  const labels: Record<string, TokenLabel> = {};
  for (const k of Object.keys(s.labels).sort()) labels[k] = s.labels[k] as TokenLabel;
  await writeFile(sidecarPath(recording), `${JSON.stringify({ ...s, labels }, null, 2)}\n`);
}

/** The sidecar of a recording, or null when there is none or it is not one. */
export function readSidecar(recording: string): RecordingSidecar | null {
  let text: string;
  try {
    text = readFileSync(sidecarPath(recording), 'utf8');
  } catch {
    return null;
  }
  try {
    const o = JSON.parse(text) as Partial<RecordingSidecar>;
    if (o.version !== 1 || typeof o.labels !== 'object' || o.labels === null) return null;
    return o as RecordingSidecar;
  } catch {
    return null;
  }
}
