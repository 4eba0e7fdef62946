import { describe, expect, it } from 'vitest';
import { KeywordSet } from '../../text/index.js';
import { childPathState, DomainStats, SEED_LINK_STATE, StateFeatures } from './state-features.js';

const keywords = new KeywordSet(['hardware', 'motherboard'], ['graphics card']);

describe('state-action features', () => {
  it('passes [1, 1, 1] from a relevant seed and counts the distance to the last relevant page', () => {
    const seedOut = childPathState(SEED_LINK_STATE, 1);
    expect(seedOut).toEqual({ parentReward: 1, distance: 1, pathRelevant: 1, pathLength: 1 });
    // The paper's Figure 1: seed and A relevant, C (the parent) not: d = 2, ratio 2/3.
    const a = childPathState(seedOut, 1);
    const c = childPathState(a, 0);
    expect(c).toEqual({ parentReward: 0, distance: 2, pathRelevant: 2, pathLength: 3 });
    const irrelevantSeedOut = childPathState(SEED_LINK_STATE, 0);
    expect(irrelevantSeedOut.distance).toBe(Number.POSITIVE_INFINITY);
  });

  it('encodes the nine TRES features in the authors\u2019 order, expanded keywords in URLs included', () => {
    const domains = new DomainStats();
    domains.record('shop.test', 1);
    domains.record('shop.test', 0);
    domains.record('shop.test', 1);
    const f = new StateFeatures({ keywords });
    const path = { parentReward: 0, distance: 2, pathRelevant: 2, pathLength: 3 };
    const x = f.encode(
      path,
      {
        url: 'http://shop.test/motherboards/x.html',
        domain: 'shop.test',
        anchorText: 'Best graphics card',
        anchorProbability: 0.75,
      },
      domains,
    );
    expect(Array.from(x)).toEqual([0, 0.5, Math.fround(2 / 3), 1, 0, 1, Math.fround(2 / 3), 0, 0.75]);
    const unseen = f.encode(
      path,
      { url: 'http://new.test/a', domain: 'new.test', anchorText: 'motherboard', anchorProbability: 0 },
      domains,
    );
    expect(Array.from(unseen.subarray(3, 9))).toEqual([0, 1, 0, 0.5, 1, 0]);
  });

  it('drops the hub features for TRES_NH and refreshes them for TRES', () => {
    const domains = new DomainStats();
    const nh = new StateFeatures({ keywords, withDomainFeatures: false });
    expect(nh.size).toBe(7);
    const f = new StateFeatures({ keywords });
    const x = f.encode(
      SEED_LINK_STATE,
      { url: 'http://a.test/', domain: 'a.test', anchorText: '', anchorProbability: 0.2 },
      domains,
    );
    expect([x[6], x[7]]).toEqual([0.5, 1]);
    domains.record('a.test', 0);
    expect(f.refreshDomainFeatures(x, 'a.test', domains)).toBe(true);
    expect([x[6], x[7]]).toEqual([0, 0]);
    expect(f.refreshDomainFeatures(x, 'a.test', domains)).toBe(false);
  });

  it('buckets continuous features when asked', () => {
    const f = new StateFeatures({ keywords, buckets: 4 });
    const x = f.encode(
      { parentReward: 1, distance: 3, pathRelevant: 2, pathLength: 3 },
      { url: 'http://a.test/', domain: 'a.test', anchorText: '', anchorProbability: 0.7 },
      new DomainStats(),
    );
    expect([x[1], x[2], x[8]]).toEqual([0.25, 0.5, 0.5]);
  });
});
