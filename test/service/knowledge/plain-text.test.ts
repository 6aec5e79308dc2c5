/**
 * Markdown headings and inline markup read in linear time: `# a` + thousands of spaces + `b` took the
 * earlier heading regex 9-30 s; unclosed `[text](` links and long space runs were quadratic too.
 * Each call runs in a worker with a budget far below what the old code took.
 */
import { describe, expect, it } from 'vitest';
import { atxHeading, markdownBlocks } from '../../../src/service/knowledge/extract/plain-text';
import { withinBudget } from '../../budget';

const MODULE = 'src/service/knowledge/extract/plain-text.ts';
const BUDGET_MS = 2_000;
const blocks = '(m, md) => m.markdownBlocks(md).blocks';

describe('markdownBlocks on hostile input', () => {
  it('a heading of "# a", 20,000 spaces and "b"', async () => {
    const out = await withinBudget<{ level: number; text: string }[]>(MODULE, blocks, [`# a${' '.repeat(20_000)}b`], BUDGET_MS);
    expect(out).toEqual([{ level: 1, text: `a${' '.repeat(20_000)}b` }]);
  });

  it('20,000 unclosed links and images in one paragraph', async () => {
    const out = await withinBudget<{ text: string }[]>(MODULE, blocks, [`${'[a]('.repeat(20_000)} ${'!['.repeat(20_000)} [kept](http://x)`], BUDGET_MS);
    expect(out).toHaveLength(1);
    expect(out[0]!.text.endsWith('kept')).toBe(true);
  });
});

describe('atxHeading', () => {
  it.each([
    ['# Title', 1, 'Title'],
    ['###   Title ##  ', 3, 'Title'],
    ['  ## a # b ##', 2, 'a # b'],
    ['# #', 1, ''],
    ['####### seven', null, null],
    ['#no-space', null, null],
    ['# a\rb', null, null],
  ])('%j', (line, level, text) => {
    const h = atxHeading(line);
    expect(h ? [h.level, h.text] : [null, null]).toEqual([level, text]);
  });

  it('keeps links and pipes as before', () => {
    expect(markdownBlocks('# See [the policy](https://x/y_(z)) | now\n\nA ![logo](l.png)b  |c').blocks).toEqual([
      { level: 1, text: 'See the policy) | now' },
      { level: 0, text: 'A logob | c' },
    ]);
  });
});
