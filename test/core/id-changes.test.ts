// IdChanges: the ids changed between a reader's takes, 'all' when the reader cannot know.
import { describe, expect, it } from 'vitest';
import { IdChanges } from '../../src/core/id-changes.js';

describe('IdChanges', () => {
  it("records nothing before the reader's first take, which answers 'all'", () => {
    const c = new IdChanges();
    c.note('a');
    c.noteAll();
    expect(c.take()).toBe('all');
    // nothing noted before the first take is kept
    expect([...(c.take() as ReadonlySet<string>)]).toEqual([]);
  });

  it('hands each change once, in the take after it', () => {
    const c = new IdChanges();
    c.take();
    c.note('a');
    c.note('b');
    c.note('a');
    const first = c.take();
    expect(first === 'all' ? first : [...first]).toEqual(['a', 'b']);
    c.note('c');
    const second = c.take();
    expect(second === 'all' ? second : [...second]).toEqual(['c']);
    expect([...(c.take() as ReadonlySet<string>)]).toEqual([]);
  });

  it("answers 'all' once after noteAll, then ids again", () => {
    const c = new IdChanges();
    c.take();
    c.note('a');
    c.noteAll();
    c.note('b');
    expect(c.take()).toBe('all');
    c.note('d');
    const next = c.take();
    expect(next === 'all' ? next : [...next]).toEqual(['d']);
  });
});
