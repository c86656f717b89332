// Bounded labels for order rejections. An exchange's `errorMsg` is free text carrying order ids,
// prices and sizes (docs/protocol.md §4), so it can never be a metric label as it stands: it is mapped
// here to one of a fixed set of reasons. Invariant: the result is always one of REJECTION_REASONS
// (anything unrecognised is `other`), so the number of label values cannot grow with traffic.

export const REJECTION_REASONS = [
  'tick-size',
  'min-size',
  'duplicated',
  'balance',
  'post-only-cross',
  'fok-unfilled',
  'fak-unmatched',
  'market-not-ready',
  'invalid-payload',
  'too-many-orders',
  'owner-mismatch',
  'unauthorized',
  'request-failed',
  'other',
] as const;

export type RejectionReason = (typeof REJECTION_REASONS)[number];

// Order matters: the first pattern that matches names the reason.
const PATTERNS: ReadonlyArray<readonly [RegExp, RejectionReason]> = [
  [/minimum tick size/i, 'tick-size'],
  [/lower than the minimum/i, 'min-size'],
  [/duplicated/i, 'duplicated'],
  [/not enough balance|allowance/i, 'balance'],
  [/post-only/i, 'post-only-cross'],
  [/\bFOK\b/, 'fok-unfilled'],
  [/\bFAK\b/, 'fak-unmatched'],
  [/not yet ready/i, 'market-not-ready'],
  [/too many orders in payload/i, 'too-many-orders'],
  [/invalid order payload/i, 'invalid-payload'],
  [/owner of the api key/i, 'owner-mismatch'],
  [/unauthori[sz]ed|invalid api key/i, 'unauthorized'],
  // The order manager's own wording for a failure certain not to have reached the book.
  [/request failed before reaching the book/i, 'request-failed'],
];

/** The bounded reason of a rejection's errorMsg. */
export function rejectionReason(errorMsg: string): RejectionReason {
  for (const [re, reason] of PATTERNS) if (re.test(errorMsg)) return reason;
  return 'other';
}
