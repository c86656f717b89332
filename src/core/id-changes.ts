// The ids of records changed since their one reader last asked: how a reader that remembers
// "nothing changed here" (the backtest executor's read skip) learns what to forget, in the work of
// the changes rather than of every record. It records nothing until the reader first asks, so a
// store nobody reads this way (a paper venue under the daemon, for weeks) keeps no set.

export class IdChanges {
  private ids: Set<string> | null = null;
  private spare = new Set<string>();
  private everything = false;

  /** Record `id` changed. */
  note(id: string): void {
    this.ids?.add(id);
  }

  /** Every record may have changed (a store rebuilt). */
  noteAll(): void {
    if (this.ids !== null) this.everything = true;
  }

  /**
   * The ids changed since the last take, valid until the next one; 'all' at the first take (the
   * reader knew nothing before) and after noteAll.
   */
  take(): ReadonlySet<string> | 'all' {
    const ids = this.ids;
    if (ids === null) {
      this.ids = new Set();
      return 'all';
    }
    this.spare.clear();
    this.ids = this.spare;
    this.spare = ids;
    if (this.everything) {
      this.everything = false;
      return 'all';
    }
    return ids;
  }
}
