import { describe, expect, it } from 'vitest';
import { ConfigError } from '../common/index.js';
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
  it('turns away candidates about as frequent in irrelevant documents as in relevant ones', () => {
    // Relevant: mid in 2 of 2 documents, edge in 1; irrelevant: edge in 4 of 4, mid in none.
    // Smoothed ratios: mid (3/4) / (1/6) = 4.5 >= 3; edge (2/4) / (5/6) = 0.6 < 3.
    const relevant = [['mid', 'edge'], ['mid']];
    const irrelevant = [['edge'], ['edge'], ['edge', 'far'], ['edge']];
    const r = expandKeywords(['a', 'b'], relevant, v, { irrelevant });
    expect(r.minDocFreqRatio).toBe(3);
    expect(r.discovered.map((d) => d.word)).toEqual(['mid']);
    expect(r.rejected.map((d) => d.word)).toEqual(['edge']);
    expect(r.keywords).toEqual(['a', 'b', 'mid']);
    const plain = expandKeywords(['a', 'b'], relevant, v, { irrelevant, minDocFreqRatio: false });
    expect(plain.discovered.map((d) => d.word)).toEqual(['mid', 'edge']);
    expect(plain.minDocFreqRatio).toBe(false);
    expect(expandKeywords(['a', 'b'], relevant, v).minDocFreqRatio).toBe(false);
  });
  it('rejects a ratio that is not a positive number', () => {
    expect(() => expandKeywords(['a', 'b'], [], v, { irrelevant: [['a']], minDocFreqRatio: 0 })).toThrow(
      ConfigError,
    );
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
  it('keeps hardware words and drops the generic ones of the DocWeb sample with an irrelevant corpus', async () => {
    // Words found in the expanded hardware set that are similar enough to the seeds, but
    // as common on pages about anything else.
    const vectors = await loadWordVectors();
    // The seeds of data/topics/hardware.yaml.
    const seeds = tokenize(
      'hardware computer processor cpu chipset motherboard memory bus pci usb firmware bios peripheral ' +
        'printer scanner keyboard mouse display monitor storage disk drive controller device driver sensor ' +
        'embedded microcontroller jtag ups gpu interface',
    );
    const relevant = [
      'The chip allows the application to drive the peripherals through the browser',
      'Laptop adapter chips: the firmware enables the peripherals',
      'Microprocessors and chips of the laptop, and an application that allows it',
      'Peripherals for every laptop and the chips inside',
    ].map((t) => tokenize(t));
    const irrelevant = [
      'The application allows you to edit text in the browser',
      'This option enables the application to open the browser',
      'Scheme allows macros; the browser application enables them',
    ].map((t) => tokenize(t));
    const plain = expandKeywords(seeds, relevant, vectors, { irrelevant, minDocFreqRatio: false });
    const contrasted = expandKeywords(seeds, relevant, vectors, { irrelevant });
    const generic = ['allows', 'application', 'browser', 'enables'];
    expect(plain.discovered.map((d) => d.word)).toEqual(expect.arrayContaining(generic));
    expect(contrasted.rejected.map((d) => d.word)).toEqual(expect.arrayContaining(generic));
    expect(contrasted.discovered.map((d) => d.word)).toEqual(
      expect.arrayContaining(['chips', 'laptop', 'peripherals']),
    );
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
