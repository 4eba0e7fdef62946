import { describe, expect, it } from 'vitest';
import { ConfigError } from '../common/errors.js';
import { expandKeywords } from './keyword-expansion.js';
import { keywordStatistics, shortcutWidth } from './keyword-stats.js';
import { tokenize } from './tokenizer.js';
import { loadWordVectors } from './vector-cache.js';
import { WordVectors } from './word-vectors.js';

// [5 words, 2 dims]; seeds a and b are 90 degrees apart, so the threshold is cos 90 = 0.
const v = new WordVectors(
  ['a', 'b', 'mid', 'far', 'edge'],
  2,
  Float32Array.from([1, 0, 0, 1, 1, 1, -1, -1, 1, -0.99]),
);

describe('expandKeywords (Algorithm 1)', () => {
  it('keeps candidates whose mean similarity to the seeds exceeds the mean pairwise seed similarity', () => {
    const r = expandKeywords(
      ['a', 'b'],
      [
        ['mid', 'far', 'a'],
        ['edge', 'unknown', 'mid'],
      ],
      v,
    );
    expect(r.threshold).toBeCloseTo(0);
    // mid: mean(cos45, cos45) = 0.707 > 0; far: -0.707; edge: mean(0.71, -0.70) = 0.0036 > 0.
    expect(r.discovered.map((d) => d.word)).toEqual(['mid', 'edge']);
    expect(r.discovered[0]?.score).toBeCloseTo(Math.SQRT1_2);
    expect(r.keywords).toEqual(['a', 'b', 'edge', 'mid']);
    expect(r.candidates).toBe(3);
  });
  it('needs two seeds with vectors', () => {
    expect(() => expandKeywords(['a', 'zzz'], [], v)).toThrow(ConfigError);
  });
  it('discovers sport words and not cooking words with the real vectors', async () => {
    const vectors = await loadWordVectors();
    const corpus = ['The hockey league and the basketball playoffs', 'A recipe for tomato soup'].map((t) =>
      tokenize(t),
    );
    const r = expandKeywords(['football', 'soccer', 'baseball'], corpus, vectors);
    const found = r.discovered.map((d) => d.word);
    expect(found).toContain('basketball');
    expect(found).not.toContain('soup');
    expect(found).not.toContain('tomato');
  }, 120_000);
});

describe('keywordStatistics (Table 2)', () => {
  it('gives mean counts per relevant and irrelevant document and SHORTCUT1', () => {
    const rel = [tokenize('hockey hockey league'), tokenize('league puck')];
    const irr = [tokenize('soup'), tokenize('hockey soup'), tokenize('')];
    const s = keywordStatistics(['hockey'], ['league', 'puck'], rel, irr);
    expect(s.meanDiscoveredPerRelevant).toBe(1.5);
    expect(s.meanDiscoveredPerIrrelevant).toBe(0);
    expect(s.meanKeywordsPerRelevant).toBe(2.5);
    expect(s.meanKeywordsPerIrrelevant).toBeCloseTo(1 / 3);
    expect(s.initialKeywords).toBe(1);
    expect(s.discoveredKeywords).toBe(2);
    expect(s.shortcut1).toBe(3);
  });
  it('never gives a thermometer narrower than one', () => {
    expect(shortcutWidth(0)).toBe(1);
    expect(shortcutWidth(Number.NaN)).toBe(1);
    expect(shortcutWidth(3.01)).toBe(4);
  });
});
