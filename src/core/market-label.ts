// A market's short name for people (log lines, notifications): its question, shortened at a word,
// with the outcome the token stands for ("Will it rain in Paris on Friday? · Yes"). A market
// without a question (an explicit market of /clob-markets) is named by its slug, else its
// shortened condition id. Pure; no I/O.

/** Longest question kept whole; a longer one is cut at a word and ends with "…". */
export const LABEL_QUESTION_MAX = 48;

function shorten(q: string, max: number): string {
  if (q.length <= max) return q;
  const cut = q.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  // Cut at a word unless that throws away most of it (one very long word).
  return `${(space >= max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:–-]+$/, '')}…`;
}

/** `0x1234…cdef` for a long hex id; shorter ids as they are. */
export function shortMarketId(id: string): string {
  return id.length > 14 ? `${id.slice(0, 6)}…${id.slice(-4)}` : id;
}

export interface LabelSource {
  readonly question: string;
  readonly slug?: string | null;
  readonly conditionId: string;
}

export function marketLabel(m: LabelSource, outcome: string | null): string {
  const q = m.question.trim().replace(/\s+/g, ' ');
  const name =
    q !== '' ? shorten(q, LABEL_QUESTION_MAX) : m.slug != null && m.slug !== '' ? m.slug : shortMarketId(m.conditionId);
  return outcome === null || outcome === '' ? name : `${name} · ${outcome}`;
}
