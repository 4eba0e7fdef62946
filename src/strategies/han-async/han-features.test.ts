import { describe, expect, it } from 'vitest';
import { KeywordSet } from '../../text/index.js';
import {
  encodeHan,
  HAN_ACTIVE_FEATURES,
  HAN_FEATURE_SIZE,
  pageStateOf,
  relevanceBucket,
  SEED_PARENT_STATE,
  TopicCosine,
} from './han-features.js';

describe('Han et al. state-action features', () => {
  it('puts a cosine of exactly 0 alone in the first bucket and finer buckets near 0', () => {
    expect(relevanceBucket(0)).toBe(0);
    expect(relevanceBucket(0.01)).toBe(1);
    expect(relevanceBucket(0.05)).toBe(1);
    expect(relevanceBucket(0.07)).toBe(2);
    expect(relevanceBucket(0.15)).toBe(3);
    expect(relevanceBucket(0.3)).toBe(4);
    expect(relevanceBucket(0.9)).toBe(5);
  });

  it('computes the cosine of a bag of words to the keyword vector', () => {
    const cos = new TopicCosine(new KeywordSet(['computer', 'hardware']));
    // counts: computer 2, disk 1 -> dot 2, |text| sqrt(5), |topic| sqrt(2)
    expect(cos.of(['computer', 'disk', 'computer'])).toBeCloseTo(2 / (Math.sqrt(5) * Math.sqrt(2)), 12);
    expect(cos.of(['garden'])).toBe(0);
    expect(cos.of([])).toBe(0);
    expect(new TopicCosine(new KeywordSet([])).of(['computer'])).toBe(0);
  });

  it('reads the text around a link from its context tokens off the anchor (offset != 0)', () => {
    const cos = new TopicCosine(new KeywordSet(['hardware']));
    const [anchor, url, around] = cos.ofLink({
      url: 'http://shop.test/hardware/disks.html',
      anchorText: 'disks',
      context: { tokens: ['disks', 'hardware', 'the'], offsets: Int8Array.from([0, -1, 2]) },
    });
    expect(anchor).toBe(0);
    expect(url).toBeGreaterThan(0);
    expect(around).toBe(1); // "the" is a stopword: only "hardware" is left
  });

  it('counts the distance from the last relevant page and the relevant share of the path', () => {
    const seed = pageStateOf(undefined, 1, 0.3);
    expect(seed).toMatchObject({ distance: 0, pathRelevant: 1, pathLength: 1, parentRelevance: 0 });
    const child = pageStateOf(seed, 0, 0.1);
    expect(child).toMatchObject({ distance: 1, pathRelevant: 1, pathLength: 2, parentRelevance: 0.3 });
    expect(pageStateOf(child, 0, 0).distance).toBe(2);
    expect(pageStateOf(child, 1, 0).distance).toBe(0);
  });

  it('encodes a state-action as one active index per feature block, all distinct and in range', () => {
    const x = encodeHan(pageStateOf(undefined, 1, 0.3), [0.5, 0, 0.07]);
    expect(x).toHaveLength(HAN_ACTIVE_FEATURES);
    expect(new Set(x).size).toBe(HAN_ACTIVE_FEATURES);
    for (let i = 1; i < x.length; i++) expect(x[i]).toBeGreaterThan(x[i - 1] as number);
    expect(Math.max(...x)).toBeLessThan(HAN_FEATURE_SIZE);
    // A falling relevance and a rising one land in different buckets of feature 1.
    const down = encodeHan({ ...SEED_PARENT_STATE, relevance: 0, parentRelevance: 0.5 }, [0, 0, 0]);
    const up = encodeHan({ ...SEED_PARENT_STATE, relevance: 0.5, parentRelevance: 0 }, [0, 0, 0]);
    expect(down[1]).not.toBe(up[1]);
  });
});
