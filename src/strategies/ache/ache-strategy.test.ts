import { describe, expect, it } from 'vitest';
import { ConfigError, createRng } from '../../common/index.js';
import type { Action, DiscoveredLink, Outcome, SelectionContext } from '../../types/index.js';
import type { AcheSettings } from './ache-config.js';
import { AcheStrategy } from './ache-strategy.js';

function link(path: string, anchorText: string): DiscoveredLink {
  return { url: `http://a.test/${path}`, host: 'a.test', domain: 'a.test', anchorText, depth: 1 };
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

function outcome(action: Action, reward: number, probability: number, links: DiscoveredLink[] = []): Outcome {
  return { action, finalUrl: action.url, isPage: true, reward, probability, links };
}

/**
 * A seed whose links alternate "gpu" (relevant targets) and "recipe" (irrelevant ones); after the
 * first four are fetched (5 pages with the seed) the classifier trains. Returns the order in which
 * the three links still queued then come out: 5r and 9g from the seed, 8g from an irrelevant page.
 */
function orderAfterTraining(overrides: AcheSettings): { order: string[]; s: AcheStrategy } {
  const s = new AcheStrategy({ rng: createRng(1), overrides: { learnEveryPages: 5, ...overrides } });
  const ctx = loop();
  const take = () => {
    const a = s.next(ctx);
    if (a) ctx.fetched.add(a.url);
    return a;
  };
  s.seed([{ url: 'http://a.test/', host: 'a.test', domain: 'a.test', anchorText: '', depth: 0 }]);
  s.observe(
    outcome(take()!, 1, 0.9, [
      link('1g', 'gpu'),
      link('2r', 'recipe'),
      link('3g', 'gpu'),
      link('4r', 'recipe'),
      link('5r', 'recipe'),
      link('9g', 'gpu'),
    ]),
  );
  for (const path of ['1g', '2r', '3g', '4r']) {
    const a = take()!;
    expect(a.url).toBe(`http://a.test/${path}`); // best-first: equal parents, ties by URL
    const isRelevant = path.endsWith('g');
    s.observe(
      outcome(a, isRelevant ? 1 : 0, isRelevant ? 0.8 : 0.2, path === '4r' ? [link('8g', 'gpu')] : []),
    );
  }
  const order: string[] = [];
  for (let a = take(); a; a = take()) order.push(a.url.slice('http://a.test/'.length));
  return { order, s };
}

describe('ache', () => {
  it('retrains after learnEvery pages and rescores the queued links with the new classifier', () => {
    const { order, s } = orderAfterTraining({});
    // Best-first alone would give 5r, 9g (equal parents), then 8g; the classifier puts 9g first and
    // hard focus keeps 8g, found on an irrelevant page, behind the links of relevant pages.
    expect(order).toEqual(['9g', '5r', '8g']);
    expect(s.stats()['learn/trainings']).toBe(1);
    expect(s.linkModel()).toBeDefined();
  });

  it('without hard focus ranks the links of irrelevant pages on their score alone', () => {
    expect(orderAfterTraining({ isHardFocus: false }).order).toEqual(['8g', '9g', '5r']);
  });

  it('stays best-first forever with learn=0', () => {
    const { order, s } = orderAfterTraining({ isLearning: false });
    expect(order).toEqual(['5r', '9g', '8g']);
    expect(s.stats()['learn/trainings']).toBe(0);
  });

  it('queues at most maxLinksPerDomain links of one domain', () => {
    const s = new AcheStrategy({ rng: createRng(1), overrides: { maxLinksPerDomain: 2 } });
    const ctx = loop();
    s.seed([{ url: 'http://s.test/', host: 's.test', domain: 's.test', anchorText: '', depth: 0 }]);
    const seed = s.next(ctx)!;
    ctx.fetched.add(seed.url);
    s.observe(outcome(seed, 1, 0.9, [link('1', 'a'), link('2', 'b'), link('3', 'c')]));
    expect(s.stats()['frontier/size']).toBe(2);
  });

  it('rejects settings out of range with a ConfigError naming the field', () => {
    expect(
      () => new AcheStrategy({ rng: createRng(1), overrides: { isLearning: 3 as unknown as boolean } }),
    ).toThrow(ConfigError);
    expect(() => new AcheStrategy({ rng: createRng(1), overrides: { learnEveryPages: 0 } })).toThrow(
      /learnEveryPages/,
    );
  });
});
