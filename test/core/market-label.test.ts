// A market's short name for log lines and notifications: the question (cut at a word when long)
// with the outcome; the slug, else the shortened condition id, when there is no question.
import { describe, expect, it } from 'vitest';
import { LABEL_QUESTION_MAX, marketLabel, shortMarketId } from '../../src/core/market-label.js';

const ID = `0x${'ab'.repeat(32)}`;

describe('marketLabel', () => {
  it('names a market by its question and outcome', () => {
    expect(marketLabel({ question: 'Will it rain in Paris on Friday?', conditionId: ID }, 'Yes')).toBe(
      'Will it rain in Paris on Friday? · Yes',
    );
    expect(marketLabel({ question: '  Will   it rain? ', conditionId: ID }, null)).toBe('Will it rain?');
  });

  it('cuts a long question at a word, within the limit, and marks the cut', () => {
    const q = 'Will the winner of the 2028 United States presidential election be a member of the Democratic Party?';
    const label = marketLabel({ question: q, conditionId: ID }, 'No');
    const name = label.slice(0, label.indexOf(' · No'));
    expect(name.endsWith('…')).toBe(true);
    expect(name.length).toBeLessThanOrEqual(LABEL_QUESTION_MAX);
    expect(q.startsWith(name.slice(0, -1))).toBe(true);
    expect(q[name.length - 1]).toBe(' '); // the cut falls between words
    expect(marketLabel({ question: 'x'.repeat(100), conditionId: ID }, null)).toBe(
      `${'x'.repeat(LABEL_QUESTION_MAX - 1)}…`,
    );
  });

  it('falls back to the slug, then the shortened condition id', () => {
    expect(marketLabel({ question: '', slug: 'rain-in-paris', conditionId: ID }, 'Yes')).toBe('rain-in-paris · Yes');
    expect(marketLabel({ question: '', slug: null, conditionId: ID }, 'Yes')).toBe('0xabab…abab · Yes');
    expect(shortMarketId('m1')).toBe('m1');
  });
});
