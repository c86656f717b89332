// The progress bar writes \r lines only to a TTY, redraws only on visible change, ends with \n once.
import { describe, expect, it } from 'vitest';
import { ProgressBar } from '../../../src/backtest/report/progress.js';

function stream(isTTY: boolean): { isTTY: boolean; columns: number; out: string[]; write(s: string): boolean } {
  const out: string[] = [];
  return {
    isTTY,
    columns: 80,
    out,
    write(s: string) {
      out.push(s);
      return true;
    },
  };
}

describe('ProgressBar', () => {
  it('draws on a TTY, only when the bar or percentage moves', () => {
    const tty = stream(true);
    const bar = new ProgressBar(tty, { label: 'replay', width: 10 });
    for (let i = 0; i <= 1000; i++) bar.update(i, 1000);
    bar.finish(1000, 1000);
    // 0..100 %: 101 distinct percentages, each one redraw; then one newline.
    expect(tty.out.length).toBe(102);
    expect(tty.out.every((s, i) => (i < 101 ? s.startsWith('\r') : s === '\n'))).toBe(true);
    expect(tty.out[0]).toBe('\rreplay [..........]   0% 0/1000');
    expect(tty.out[50]).toBe('\rreplay [#####.....]  50% 500/1000');
    expect(tty.out[100]).toBe('\rreplay [##########] 100% 1000/1000');
    bar.finish(1000, 1000);
    bar.update(5, 10);
    expect(tty.out.length).toBe(102);
  });

  it('is silent when the stream is not a TTY', () => {
    const pipe = stream(false);
    const bar = new ProgressBar(pipe);
    for (let i = 0; i <= 10; i++) bar.update(i, 10);
    bar.finish(10, 10);
    expect(pipe.out).toEqual([]);
  });

  it('clamps and pads: a shorter line overwrites a longer one', () => {
    const tty = stream(true);
    const bar = new ProgressBar(tty, { width: 5 });
    bar.update(99_999, 100_000);
    bar.update(5, 0);
    expect(tty.out[1]).toBe(`\r[.....]   0% 5/0${' '.repeat(tty.out[0]!.length - 1 - '[.....]   0% 5/0'.length)}`);
    expect(bar.render(20, 10)).toBe('[#####] 100% 20/10');
  });
});
