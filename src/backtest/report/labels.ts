// How the report names a token: the market's question and the token's outcome when the input has
// them (ReportMarket.name, from the recording's sidecar), else a shortened id, never a 77-digit
// token id in a table cell. Pure functions; the full id stays in report.json and in the page's
// title attributes for whoever needs it.

/** `1234567…345678` for ids longer than 16 characters; shorter ids as they are. */
export function shortId(id: string): string {
  return id.length > 16 ? `${id.slice(0, 7)}…${id.slice(-6)}` : id;
}

/** The token's display name: the market name the input gives, else its shortened id. */
export function tokenLabel(names: ReadonlyMap<string, string>, tokenId: string): string {
  const n = names.get(tokenId);
  return n !== undefined && n !== '' ? n : shortId(tokenId);
}
