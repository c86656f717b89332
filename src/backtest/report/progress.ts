// A terminal progress bar for long runs (backtests, sweeps), driven by (done, total). Invariants:
// - it writes only when the stream is a TTY (`isTTY === true`); piped or redirected output, logs and
//   CI stay clean: every call is then a no-op;
// - it redraws only when the visible line changes (whole percent or bar cell), so calling update()
//   on every book update costs a comparison, not a write;
// - each redraw is one `\r`-prefixed line padded to the previous line's length; finish() ends it
//   with a newline, once. No clock: a caller that shows a rate or the time left computes it and
//   hands it in as the line's detail (it then replaces the done/total counts).
export interface ProgressStream {
  readonly isTTY?: boolean;
  /** Terminal width, when known. */
  readonly columns?: number;
  write(s: string): unknown;
}

export interface ProgressOptions {
  readonly label?: string;
  /** Bar cells (default: fits the terminal, at most 40). */
  readonly width?: number;
}

export class ProgressBar {
  private readonly on: boolean;
  private readonly width: number;
  private readonly label: string;
  private last = '';
  private finished = false;

  constructor(
    private readonly stream: ProgressStream,
    opts: ProgressOptions = {},
  ) {
    this.on = stream.isTTY === true;
    this.label = opts.label ?? '';
    const cols = stream.columns ?? 80;
    this.width = Math.max(5, opts.width ?? Math.min(40, cols - this.label.length - 30));
  }

  /** The line for (done, total), without the carriage return; `detail` replaces the counts. */
  render(done: number, total: number, detail?: string): string {
    const frac = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0;
    const cells = Math.floor(frac * this.width);
    const pct = Math.floor(frac * 100);
    const bar = `${'#'.repeat(cells)}${'.'.repeat(this.width - cells)}`;
    const head = this.label === '' ? '' : `${this.label} `;
    return `${head}[${bar}] ${String(pct).padStart(3)}% ${detail ?? `${done}/${total}`}`;
  }

  update(done: number, total: number, detail?: string): void {
    if (!this.on || this.finished) return;
    const line = this.render(done, total, detail);
    if (line === this.last) return;
    // Counts change every call; redraw only when the bar or the percentage moved (or at the end).
    if (
      this.last !== '' &&
      done < total &&
      line.slice(0, line.lastIndexOf('%')) === this.last.slice(0, this.last.lastIndexOf('%'))
    )
      return;
    const pad = this.last.length > line.length ? ' '.repeat(this.last.length - line.length) : '';
    this.stream.write(`\r${line}${pad}`);
    this.last = line;
  }

  /** Draws the final state and ends the line. Idempotent. */
  finish(done: number, total: number, detail?: string): void {
    if (!this.on || this.finished) return;
    this.update(done, total, detail);
    this.finished = true;
    this.stream.write('\n');
  }
}
