import { describe, expect, it } from 'vitest';
import { crawlStrategy, KeywordJudge } from '../index.js';
import type { PageJudge } from './judge.js';

/** A judge that is not the keyword judge (a trained model, as far as the strategy can tell). */
const MODEL: PageJudge = {
  name: 'model',
  scorePages: async (pages) => new Float32Array(pages.length),
  scoreAnchors: async (anchors) => new Float32Array(anchors.length),
};

describe('crawlStrategy', () => {
  it("tells the strategy whether the crawl is judged by keywords alone: coverage's gain=auto follows", () => {
    const gain = (o: Parameters<typeof crawlStrategy>[0]) =>
      (crawlStrategy(o).config as { gain?: string } | undefined)?.gain;
    expect(gain({ keywords: ['x'] })).toBe('probability');
    expect(gain({ keywords: ['x'], judge: new KeywordJudge({ keywords: ['x'] }) })).toBe('probability');
    expect(gain({ keywords: ['x'], judge: MODEL })).toBe('verdict');
    // A resume or `tres repair` names the judge by its source, the object not yet loaded.
    expect(gain({ keywords: ['x'], judgeSource: '/models/svm' })).toBe('verdict');
    expect(gain({ keywords: ['x'], examplesSource: 'examples.txt' })).toBe('verdict');
    expect(gain({ keywords: ['x'], strategy: 'coverage:gain=verdict' })).toBe('verdict');
  });
});
