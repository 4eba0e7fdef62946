import { describe, expect, it } from 'vitest';
import { ConfigError, createRng } from '../../common/index.js';
import type { DiscoveredLink, Outcome, SelectionContext } from '../../types/index.js';
import { ApprenticeModel } from './apprentice-model.js';
import { ApprenticeStrategy } from './apprentice-strategy.js';
import { LinkFeatureSpace } from './link-features.js';

/** A link whose context is `tokens` at the given DOM offsets. */
function link(url: string, context: [string, number][] = [], anchorText = ''): DiscoveredLink {
  const host = new URL(url).host;
  const l: DiscoveredLink = { url, host, domain: host, anchorText, depth: 1 };
  if (context.length > 0) {
    l.context = { tokens: context.map(([t]) => t), offsets: Int8Array.from(context.map(([, d]) => d)) };
  }
  return l;
}

function loop(): SelectionContext & { fetched: Set<string> } {
  const fetched = new Set<string>();
  return {
    fetched,
    isHostReady: () => true,
    isDomainOpen: () => true,
    isDomainClosed: () => false,
    isFetched: (url) => fetched.has(url),
    step: 0,
  };
}

function outcome(action: Outcome['action'], probability: number, links: DiscoveredLink[]): Outcome {
  return {
    action,
    finalUrl: action.url,
    isPage: true,
    reward: probability >= 0.5 ? 1 : 0,
    probability,
    links,
  };
}

/** Fetches the next URL the strategy chooses and reports it with `probability` and `links`. */
function step(
  s: ApprenticeStrategy,
  ctx: ReturnType<typeof loop>,
  probability: (url: string) => number,
  links: DiscoveredLink[] = [],
): string {
  const action = s.next(ctx);
  if (!action) throw new Error('empty frontier');
  ctx.fetched.add(action.url);
  s.observe(outcome(action, probability(action.url), links));
  return action.url;
}

describe('apprentice link features', () => {
  it('keeps <token, offset> pairs within dMax, drops stopwords, and adds the critic class of the source page', () => {
    const space = new LinkFeatureSpace(2);
    const a = space.encode(
      link('http://a.test/x', [
        ['gpu', 0],
        ['the', -1],
        ['card', -2],
        ['far', 3],
      ]),
      true,
    );
    const b = space.encode(link('http://a.test/y', [['gpu', 1]]), false);
    // a: critic HIGH, gpu@0, card@-2 (the stopword and the token past dMax are gone).
    expect(a).toHaveLength(3);
    // b: critic LOW and gpu@1 are features a does not have: the offset is part of the feature.
    expect(b).toHaveLength(2);
    expect([...b].some((id) => [...a].includes(id))).toBe(false);
    expect(space.size).toBe(5);
  });

  it('falls back to the anchor text at offset 0 when a link has no context (a replayed outcome)', () => {
    const space = new LinkFeatureSpace(5);
    const withContext = space.encode(link('http://a.test/x', [['graphics', 0]]), true);
    const replayed = space.encode(link('http://a.test/x', [], 'Graphics'), true);
    expect([...replayed]).toEqual([...withContext]);
  });
});

describe('apprentice naive Bayes', () => {
  it('gives the log-odds of a hand-computed multinomial naive Bayes with Laplace smoothing', () => {
    const m = new ApprenticeModel(1, 0, () => 0);
    expect(m.logOdds(Int32Array.of(0))).toBe(0); // not ready: one class only
    m.add(Int32Array.of(0, 0, 1), true);
    m.add(Int32Array.of(1, 2), false);
    m.add(Int32Array.of(2), false);
    // V = 3; HIGH: counts 2,1,0 of 3; LOW: counts 0,1,2 of 3. Priors 1/3 vs 2/3.
    const expected =
      Math.log(1 / 2) + (Math.log(3 / 6) - Math.log(1 / 6)) + (Math.log(2 / 6) - Math.log(2 / 6));
    expect(m.logOdds(Int32Array.of(0, 1, 7))).toBeCloseTo(expected, 12); // feature 7 unseen: ignored
    expect(m.probability(Int32Array.of(0, 1))).toBeCloseTo(1 / (1 + Math.exp(-expected)), 12);
  });
});

describe('apprentice DOM window', () => {
  it('predicts with the features within a window as a model trained on those features alone', () => {
    const distance = [0, 0, 1, 2];
    const full = new ApprenticeModel(1, 2, (id) => distance[id] as number);
    const near = new ApprenticeModel(1, 0, () => 0);
    const instances: [number[], boolean][] = [
      [[0, 2, 3, 3], true],
      [[0, 1, 2], true],
      [[1, 3], false],
      [[1, 2, 2], false],
    ];
    for (const [features, isHigh] of instances) {
      full.add(Int32Array.from(features), isHigh);
      near.add(Int32Array.from(features.filter((id) => distance[id] === 0)), isHigh);
    }
    const x = Int32Array.of(0, 2, 3);
    expect(full.logOdds(x, 0)).toBeCloseTo(near.logOdds(Int32Array.of(0)), 12);
    expect(full.logOdds(x, 2)).toBe(full.logOdds(x)); // the default window is the widest
    expect(full.logOdds(x, 1)).not.toBeCloseTo(full.logOdds(x, 0), 6);
  });

  /**
   * Every page links to 4 new pages. A link's anchor (offset 0) says "gpu" or "misc"; a "gpu"
   * target is relevant 80% of the time, a "misc" one 20%. At offset 1 each link carries ten
   * copies of a word that says whether its source page was relevant ("hot", "cold"), which
   * predicts the target only weakly (60% of a hot page's links say "gpu", 40% of a cold one's):
   * naive Bayes counts that word ten times, so with the wide window the source outweighs the
   * anchor, as the paragraph words around inline links do on the generated web.
   */
  function noisyCrawl(selectWindow: 0 | 1): ApprenticeStrategy {
    const s = new ApprenticeStrategy({
      overrides: { batchPages: 20, dMax: 3, shouldSelectWindow: selectWindow === 1 },
    });
    const rng = createRng('apprentice-window');
    const ctx = loop();
    let n = 0;
    const isRelevant = (url: string) => url.endsWith('/seed') || url.includes('/yes-');
    const newLinks = (sourceRelevant: boolean) =>
      Array.from({ length: 4 }, () => {
        const isGpu = rng.next() < (sourceRelevant ? 0.6 : 0.4);
        const relevant = rng.next() < (isGpu ? 0.8 : 0.2);
        const url = `http://a.test/${relevant ? 'yes' : 'no'}-${isGpu ? 'gpu' : 'misc'}${n++}`;
        const source = Array.from(
          { length: 10 },
          () => [sourceRelevant ? 'hot' : 'cold', 1] as [string, number],
        );
        return link(url, [[isGpu ? 'gpu' : 'misc', 0], ...source]);
      });
    s.seed([link('http://a.test/seed')]);
    for (let i = 0; i < 200; i++) {
      const action = s.next(ctx);
      if (!action) throw new Error('empty frontier');
      ctx.fetched.add(action.url);
      const relevant = isRelevant(action.url);
      s.observe(outcome(action, relevant ? 0.9 : 0.1, newLinks(relevant)));
    }
    return s;
  }

  it('narrows the window to the offsets that rank its past instances best', () => {
    expect(noisyCrawl(1).stats()['apprentice/window']).toBe(0);
    expect(noisyCrawl(0).stats()['apprentice/window']).toBe(3);
  });

  it('predicts with the window it chose: the anchor decides the order, not the source', () => {
    const pick = (s: ApprenticeStrategy) => {
      const ctx = loop();
      return Array.from({ length: 20 }, () => s.next(ctx)?.url ?? '').filter((u) => u.includes('gpu')).length;
    };
    expect(pick(noisyCrawl(1))).toBe(20);
    expect(pick(noisyCrawl(0))).toBeLessThan(20);
  });
});

describe('apprentice strategy', () => {
  /**
   * Seed page (relevant) links to 4 pages: those whose anchor says "gpu" are relevant. Every
   * fetched page then links to two new pages: one with "gpu" found on an irrelevant page and
   * one without it found on a relevant page.
   */
  function crawl(learn: 0 | 1): {
    order: string[];
    s: ApprenticeStrategy;
    afterBatch: Record<string, number>;
  } {
    const s = new ApprenticeStrategy({ overrides: { batchPages: 5, isLearning: learn === 1 } });
    const ctx = loop();
    const relevant = (url: string) => (url.includes('gpu') || url.endsWith('/seed') ? 0.9 : 0.1);
    s.seed([link('http://a.test/seed')]);
    step(s, ctx, relevant, [
      link('http://a.test/gpu1', [['gpu', 0]]),
      link('http://a.test/gpu2', [['gpu', 0]]),
      link('http://a.test/misc1', [['misc', 0]]),
      link('http://a.test/misc2', [['misc', 0]]),
      link('http://d.test/later', [['misc', 0]]), // still waiting when the batch ends
    ]);
    for (let i = 0; i < 4; i++) step(s, ctx, relevant);
    // The batch of 5 pages has ended: the apprentice has 4 instances.
    const afterBatch = { ...s.stats() };
    const order: string[] = [];
    s.observe(
      outcome({ url: 'http://b.test/hub', host: 'b.test', domain: 'b.test', depth: 1 }, 0.1, [
        link('http://c.test/gpu-low', [['gpu', 0]]),
      ]),
    );
    s.observe(
      outcome({ url: 'http://b.test/good', host: 'b.test', domain: 'b.test', depth: 1 }, 0.9, [
        link('http://c.test/other-high', [['misc', 0]]),
      ]),
    );
    for (let i = 0; i < 3; i++) order.push(step(s, ctx, relevant));
    return { order: order.filter((url) => url.startsWith('http://c.test/')), s, afterBatch };
  }

  it('orders by the source page relevance until a batch trains the apprentice (learn=0 stays there)', () => {
    const { order, s } = crawl(0);
    expect(order).toEqual(['http://c.test/other-high', 'http://c.test/gpu-low']);
    expect(s.isApprenticeActive).toBe(false);
    expect(s.stats()['apprentice/batches']).toBe(0);
  });

  it('after a batch, links whose <token, offset> features led to relevant pages come first, and the frontier is rescored', () => {
    const { order, s, afterBatch } = crawl(1);
    expect(s.isApprenticeActive).toBe(true);
    expect(order).toEqual(['http://c.test/gpu-low', 'http://c.test/other-high']);
    expect(afterBatch['apprentice/instances_high']).toBe(2);
    expect(afterBatch['apprentice/instances_low']).toBe(2);
    expect(afterBatch['apprentice/rescored_urls']).toBe(1); // d.test/later
  });

  it('counts a failed fetch through a link as a LOW instance, as a fetch the critic would throw away', () => {
    const s = new ApprenticeStrategy({ overrides: { batchPages: 3 } });
    const ctx = loop();
    s.seed([link('http://a.test/seed')]);
    step(s, ctx, () => 0.9, [
      link('http://a.test/fine', [['fine', 0]]),
      link('http://b.test/broken', [['broken', 0]]),
    ]);
    const fine = s.next(ctx)!;
    ctx.fetched.add(fine.url);
    s.observe(outcome(fine, 0.9, []));
    const broken = s.next(ctx)!;
    ctx.fetched.add(broken.url);
    s.observe({ ...outcome(broken, 0, []), isPage: false, errorCode: 'TRES_HTTP_404' });
    expect(s.stats()['apprentice/instances_low']).toBe(1);
    expect(s.isApprenticeActive).toBe(true);
  });

  it('rejects settings out of range with a ConfigError naming the field', () => {
    expect(() => new ApprenticeStrategy({ overrides: { batchPages: 0 } })).toThrow(ConfigError);
    expect(() => new ApprenticeStrategy({ overrides: { isLearning: 2 as unknown as boolean } })).toThrow(
      /isLearning/,
    );
  });
});
