import { describe, expect, it } from 'vitest';
import { ConfigError, createRng } from '../../common/index.js';
import type { DiscoveredLink, Outcome, SelectionContext } from '../../types/index.js';
import { ClassifierPool, POOL_ACTIONS, TermSpace } from './classifier-pool.js';
import type { RlwcsConfig } from './rlwcs-config.js';
import { RlwcsStrategy } from './rlwcs-strategy.js';

function link(url: string, anchorText = ''): DiscoveredLink {
  const host = new URL(url).host;
  return { url, host, domain: host, anchorText, depth: 1 };
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

const RELEVANT_TEXT = 'gpu graphics card memory chipset';
const OTHER_TEXT = 'soup recipe kitchen garlic onion';

/** Fetches the next URL; pages whose URL says "gpu" are relevant and read like hardware. */
function step(s: RlwcsStrategy, ctx: ReturnType<typeof loop>, links: DiscoveredLink[] = []): string {
  const action = s.next(ctx);
  if (!action) throw new Error('empty frontier');
  ctx.fetched.add(action.url);
  const isRelevant = action.url.includes('gpu');
  const outcome: Outcome = {
    action,
    finalUrl: action.url,
    isPage: true,
    reward: isRelevant ? 1 : 0,
    probability: isRelevant ? 0.9 : 0.1,
    title: '',
    text: isRelevant ? RELEVANT_TEXT : OTHER_TEXT,
    links,
  };
  s.observe(outcome);
  return action.url;
}

/** Four pages (two relevant) train the pool; then one page links to a hardware and a soup link. */
function crawl(variant: 'rlwcs' | 'svm-links', overrides: Partial<Omit<RlwcsConfig, 'variant'>> = {}) {
  const s = new RlwcsStrategy({
    variant,
    rng: createRng(3),
    overrides: { trainAfterPages: 4, ...overrides },
  });
  const ctx = loop();
  s.seed([link('http://a.test/gpu-0')]);
  const beforeTraining = [
    step(s, ctx, [link('http://a.test/gpu-1'), link('http://b.test/soup-1')]),
    step(s, ctx, [link('http://a.test/gpu-2')]),
    step(s, ctx, [link('http://b.test/soup-2')]),
    step(s, ctx, []),
  ];
  const trainings = s.stats()['rlwcs/trainings'];
  s.seed([link('http://c.test/gpu-hub')]);
  step(s, ctx, [
    link('http://d.test/zz-gpu-3', 'graphics card'),
    link('http://d.test/aa-soup-3', 'soup recipe'),
  ]);
  const after = [step(s, ctx), step(s, ctx), step(s, ctx)].filter((url) => url.startsWith('http://d.test/'));
  return { s, beforeTraining, trainings, after };
}

describe('rlwcs and svm-links', () => {
  it('order outlinks by their page relevance until trainAfterPages pages train the pool', () => {
    const { beforeTraining, trainings } = crawl('svm-links');
    // gpu-1 and gpu-2 come from relevant pages; soup-1 waits behind them although found first.
    expect(beforeTraining).toEqual([
      'http://a.test/gpu-0',
      'http://a.test/gpu-1',
      'http://a.test/gpu-2',
      'http://b.test/soup-1',
    ]);
    expect(trainings).toBe(1);
  });

  it('svm-links with shouldScoreLinks=true then ranks the links of one page by the SVM score of their text', () => {
    const { s, after } = crawl('svm-links', { shouldScoreLinks: true });
    expect(after).toEqual(['http://d.test/zz-gpu-3', 'http://d.test/aa-soup-3']);
    expect(s.stats()['rlwcs/chose_svm']).toBe(4);
    expect(s.stats()['rl/updates']).toBe(0);
  });

  it('by default (shouldScoreLinks=false) the outlinks of a page share the classifier\u2019s score of the page (ties by URL)', () => {
    const { after, s } = crawl('svm-links');
    expect(s.needsLinkContext).toBe(false);
    expect(after).toEqual(['http://d.test/aa-soup-3', 'http://d.test/zz-gpu-3']);
  });

  it('rlwcs learns the classifier choice with Q(lambda); with isLearning=false it chooses at random and learns nothing', () => {
    const learning = crawl('rlwcs', { epsilon: 0 }).s.stats();
    // One choice per page with text after the training: the hub and the three pages after it.
    expect(POOL_ACTIONS.reduce((n, a) => n + (learning[`rlwcs/chose_${a}`] as number), 0)).toBe(4);
    expect(learning['rl/updates']).toBe(3);
    const frozen = crawl('rlwcs', { isLearning: false }).s.stats();
    expect(frozen['rl/updates']).toBe(0);
    expect(frozen['rl/td_error']).toBe(0);
  });

  it('rlwcs with fixedClassifier scores every page with that classifier and runs no agent', () => {
    const { s } = crawl('rlwcs', { fixedClassifier: 2 });
    const stats = s.stats();
    expect(stats['rlwcs/chose_nb']).toBe(4);
    expect(POOL_ACTIONS.reduce((n, a) => n + (stats[`rlwcs/chose_${a}`] as number), 0)).toBe(4);
    expect(stats['rl/updates']).toBe(0);
  });

  it('rlwcs gives the last choice reward 0 when the next fetch fails (no page, so the episode ends)', () => {
    const { s } = crawl('rlwcs', { epsilon: 0 });
    const ctx = loop();
    s.seed([link('http://e.test/missing')]);
    const action = s.next(ctx)!;
    s.observe({
      action,
      finalUrl: action.url,
      isPage: false,
      reward: 0,
      probability: 0,
      links: [],
      errorCode: 'TRES_HTTP_404',
    });
    expect(s.stats()['rl/updates']).toBe(4);
  });

  it('rejects settings out of range with a ConfigError naming the field', () => {
    const make = (o: Partial<Omit<RlwcsConfig, 'variant'>>) =>
      new RlwcsStrategy({ variant: 'rlwcs', rng: createRng(1), overrides: o });
    expect(() => make({ gamma: 1 })).toThrow(ConfigError);
    expect(() => make({ trainAfterPages: 1 })).toThrow(/trainAfterPages/);
    expect(() => make({ fixedClassifier: 5 })).toThrow(
      /fixedClassifier must be an integer in \[0, 4\] or false/,
    );
  });
});

describe('classifier pool', () => {
  const docs = [
    ['gpu', 'card', 'memory'],
    ['gpu', 'chipset', 'card'],
    ['soup', 'garlic', 'kitchen'],
    ['soup', 'onion', 'kitchen'],
    ['gpu', 'memory', 'chipset'],
    ['soup', 'garlic', 'onion'],
  ];
  const labels = Uint8Array.of(1, 1, 0, 0, 1, 0);

  it('keeps the terms of highest information gain and gives cosine-normalised ltc vectors', () => {
    const terms = TermSpace.select(docs, labels, 2);
    expect(terms.size).toBe(2);
    const x = terms.vector(['gpu', 'gpu', 'soup', 'other']);
    // gpu and soup split the classes perfectly (gain 1 bit); both occur in 3 of 6 documents.
    const w = 1 + Math.log(2);
    expect(Math.hypot(...x)).toBeCloseTo(1, 6);
    expect(Math.max(...x) / Math.min(...x)).toBeCloseTo(w, 4);
  });

  it('every action scores a hardware text above a cooking text, the vote being the mean of the four', () => {
    const pool = ClassifierPool.train(docs, labels, 10, createRng(7));
    const hardware = pool.terms.vector(['gpu', 'card']);
    const cooking = pool.terms.vector(['soup', 'kitchen']);
    for (let a = 0; a < POOL_ACTIONS.length; a++) {
      expect(pool.score(a, hardware)).toBeGreaterThan(pool.score(a, cooking));
    }
    const mean = [0, 1, 2, 3].reduce((s, a) => s + pool.score(a, hardware), 0) / 4;
    expect(pool.score(4, hardware)).toBeCloseTo(mean, 12);
  });
});
