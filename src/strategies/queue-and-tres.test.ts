/**
 * Mechanics of the plain strategies and of the TRES family, driven directly (no crawl loop):
 * the order each frontier gives, stale and waiting URLs, warm-up against the agent's choice,
 * and what a replayed outcome changes.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../common/index.js';
import { KeywordSet } from '../text/index.js';
import type { Action, DiscoveredLink, Outcome, SelectionContext } from '../types/index.js';
import { QueueStrategy } from './queue-strategy.js';
import type { Strategy } from './strategy.js';
import { DomainStats, TresAsyncStrategy, TresStrategy, withNewSiteBonus } from './tres/index.js';

function link(url: string, anchorText = '', depth = 1): DiscoveredLink {
  const host = new URL(url).hostname;
  return { url, host, domain: host, anchorText, depth, anchorProbability: 0 };
}

function loop(overrides: Partial<SelectionContext> = {}): SelectionContext & { fetched: Set<string> } {
  const fetched = new Set<string>();
  return {
    fetched,
    isHostReady: () => true,
    isDomainOpen: () => true,
    isDomainClosed: () => false,
    isFetched: (url) => fetched.has(url),
    step: 0,
    ...overrides,
  };
}

function page(action: Action, probability: number, links: DiscoveredLink[] = []): Outcome {
  return {
    action,
    finalUrl: action.url,
    isPage: true,
    reward: probability >= 0.5 ? 1 : 0,
    probability,
    links,
  };
}

/** Takes the next action and marks it fetched, as the loop does. */
function take(s: Strategy, ctx: ReturnType<typeof loop>): Action | undefined {
  const a = s.next(ctx);
  if (a) ctx.fetched.add(a.url);
  return a;
}

/** Crawls 40 relevant pages of 4 new links each from one seed; the Q-network evaluations made. */
function qEvaluationsOf(s: TresStrategy): number | null {
  const ctx = loop();
  s.seed([link('http://s.test/', '', 0)]);
  for (let step = 0; step < 40; step++) {
    const a = take(s, ctx);
    if (!a) break;
    s.observe(page(a, 0.9, outlinks('t.test', 4, step * 4)));
  }
  return s.stats()['rl/q_evaluations'] ?? null;
}

describe('QueueStrategy', () => {
  it('bfs fetches in discovery order, and never a URL fetched since it was queued', () => {
    const s = new QueueStrategy({ order: 'bfs', rng: createRng(1) });
    const ctx = loop();
    s.seed([link('http://a.test/', '', 0)]);
    s.observe(
      page(take(s, ctx)!, 0.1, [link('http://a.test/2'), link('http://b.test/1'), link('http://a.test/1')]),
    );
    ctx.fetched.add('http://b.test/1'); // fetched through another path meanwhile
    expect([take(s, ctx)?.url, take(s, ctx)?.url, take(s, ctx)]).toEqual([
      'http://a.test/2',
      'http://a.test/1',
      undefined,
    ]);
  });

  it('best-first takes the link of the most relevant parent, and a link found again on a better page moves up', () => {
    const s = new QueueStrategy({ order: 'best-first', rng: createRng(1) });
    const ctx = loop();
    s.seed([link('http://a.test/', '', 0), link('http://b.test/', '', 0)]);
    s.observe(page(take(s, ctx)!, 0.2, [link('http://x.test/low'), link('http://x.test/later')]));
    s.observe(page(take(s, ctx)!, 0.9, [link('http://y.test/high'), link('http://x.test/later')]));
    // `later` moved up to its better parent's priority (ties in discovery order); `low` stays last.
    expect([take(s, ctx)?.url, take(s, ctx)?.url, take(s, ctx)?.url]).toEqual([
      'http://y.test/high',
      'http://x.test/later',
      'http://x.test/low',
    ]);
  });

  it('sets aside hosts that are not ready and drops closed domains', () => {
    const s = new QueueStrategy({ order: 'bfs', rng: createRng(1) });
    const busy = new Set(['a.test']);
    const closed = new Set<string>();
    const ctx = loop({ isHostReady: (h) => !busy.has(h), isDomainClosed: (d) => closed.has(d) });
    s.seed([link('http://a.test/1', '', 0), link('http://b.test/1', '', 0), link('http://c.test/1', '', 0)]);
    closed.add('c.test');
    expect(take(s, ctx)?.url).toBe('http://b.test/1');
    expect(take(s, ctx)).toBeUndefined();
    busy.clear();
    expect(take(s, ctx)?.url).toBe('http://a.test/1');
    expect(take(s, ctx)).toBeUndefined();
  });

  it('random draws the same sequence from the same seed, each URL once', () => {
    const order = (seed: number) => {
      const s = new QueueStrategy({ order: 'random', rng: createRng(seed) });
      const ctx = loop();
      s.seed(Array.from({ length: 20 }, (_, i) => link(`http://h${i}.test/`, '', 0)));
      const out: string[] = [];
      for (let a = take(s, ctx); a; a = take(s, ctx)) out.push(a.url);
      return out;
    };
    expect(order(3)).toEqual(order(3));
    expect(new Set(order(3)).size).toBe(20);
    expect(order(4)).not.toEqual(order(3));
  });
});

/** A page with `n` outlinks on `host`, half of them with a keyword in the anchor text. */
function outlinks(host: string, n: number, from: number): DiscoveredLink[] {
  return Array.from({ length: n }, (_, i) =>
    link(`http://${host}/p${from + i}`, (from + i) % 2 === 0 ? 'gpu driver' : 'recipes'),
  );
}

describe('TresStrategy', () => {
  const keywords = new KeywordSet(['gpu', 'driver'], []);

  it('records every hyperparameter in its config, with overrides', () => {
    const s = new TresStrategy({
      variant: 'tres',
      keywords,
      rng: createRng(1),
      ddqn: { gamma: 0.5 },
      tree: { maxDepth: 4 },
    });
    expect(s.config).toMatchObject({ variant: 'tres', warmupSteps: 300, withDomainFeatures: true });
    expect(s.config.ddqn).toMatchObject({ gamma: 0.5, featureCount: 9 });
    expect(s.config.tree.maxDepth).toBe(4);
    expect(
      new TresStrategy({ variant: 'tres-nh', keywords, rng: createRng(1) }).config.ddqn.featureCount,
    ).toBe(7);
  });

  it('evaluates Q on one representative per ready leaf after the warm-up, and on every sample when synchronous', () => {
    const run = (variant: 'tres' | 'synchronous') => {
      const s = new TresStrategy({
        variant,
        keywords,
        rng: createRng(2),
        warmupSteps: 20,
        ddqn: { warmupSteps: 20 },
      });
      const ctx = loop();
      s.seed([link('http://s.test/', '', 0)]);
      for (let step = 0; step < 60; step++) {
        const a = take(s, ctx);
        if (!a) break;
        s.observe(
          page(
            a,
            a.url.endsWith('0') || a.url.endsWith('2') ? 0.9 : 0.1,
            outlinks(`h${step % 7}.test`, 6, step * 6),
          ),
        );
      }
      return s.stats();
    };
    const tres = run('tres');
    const sync = run('synchronous');
    expect(tres['rl/q_evaluations_last_step']).toBeLessThanOrEqual(
      tres['frontier/nonempty_leaves'] as number,
    );
    expect(tres['frontier/leaves']).toBeGreaterThan(1);
    // The synchronous method scores the whole frontier: the last step's, before its take (+1) and
    // before the 6 outlinks of the page it chose.
    expect(sync['rl/q_evaluations_last_step']).toBe((sync['frontier/size'] as number) + 1 - 6);
    expect(sync['frontier/leaves']).toBe(1);
  });

  it('warms up by prior by default: representatives whose links look relevant first, so more relevant pages than random', () => {
    // Links alternate between anchors the classifier likes (0.9) and dislikes (0.1); a link's
    // page is relevant exactly when its anchor was liked.
    const relevantPages = (warmupPolicy: 'random' | 'prior') => {
      const s = new TresStrategy({ variant: 'tres', keywords, rng: createRng(5), warmupPolicy });
      const ctx = loop();
      s.seed([link('http://s.test/', '', 0)]);
      let relevant = 0;
      for (let step = 0; step < 80; step++) {
        const a = take(s, ctx);
        if (!a) break;
        const p = step === 0 ? 0.9 : ((a.data as { x: Float32Array }).x[8] as number);
        if (p >= 0.5) relevant++;
        const links = Array.from({ length: 4 }, (_, i) => ({
          ...link(`http://h${(step * 4 + i) % 11}.test/p${step * 4 + i}`, 'page'),
          anchorProbability: i % 2 === 0 ? 0.9 : 0.1,
        }));
        s.observe(page(a, p, links));
      }
      return relevant;
    };
    expect(new TresStrategy({ variant: 'tres', keywords, rng: createRng(5) }).config.warmupPolicy).toBe(
      'prior',
    );
    const random = relevantPages('random');
    const prior = relevantPages('prior');
    expect(prior).toBeGreaterThan(random + 15);
  });

  it('adds the new-site bonus to the first relevant page of each domain only, and is off by default', () => {
    const domains = new DomainStats();
    expect(withNewSiteBonus(1, 'a.test', domains, 0.5)).toBe(1.5);
    expect(withNewSiteBonus(0, 'a.test', domains, 0.5)).toBe(0);
    domains.record('a.test', 0);
    // Fetched but never relevant: the next relevant page is still the site's first.
    expect(withNewSiteBonus(1, 'a.test', domains, 0.5)).toBe(1.5);
    domains.record('a.test', 1);
    expect(withNewSiteBonus(1, 'a.test', domains, 0.5)).toBe(1);
    expect(withNewSiteBonus(1, 'b.test', domains, 0)).toBe(1);
    expect(new TresStrategy({ variant: 'tres', keywords, rng: createRng(5) }).config.newDomainBonus).toBe(0);
  });

  it('with epsilon = 1 after the warm-up takes random candidates without asking the network', () => {
    const qEvaluations = (epsilon: number) =>
      qEvaluationsOf(
        new TresStrategy({ variant: 'tres', keywords, rng: createRng(3), ddqn: { warmupSteps: 5 }, epsilon }),
      );
    expect(qEvaluations(1)).toBe(0);
    expect(qEvaluations(0)).toBeGreaterThan(0);
  });

  it('with parentProbability the warm-up ranks links of a nearly relevant page above those of a clearly irrelevant one', () => {
    const firstAfterTwoIrrelevantPages = (parentFeature: 'reward' | 'probability', seed: number) => {
      // synchronous: the warm-up prior sees every sample (a young tree has one leaf, one representative).
      const s = new TresStrategy({ variant: 'synchronous', keywords, rng: createRng(seed), parentFeature });
      const ctx = loop();
      s.seed([link('http://s.test/', '', 0)]);
      s.observe(page(take(s, ctx)!, 0.9, [link('http://a.test/'), link('http://b.test/')]));
      for (let i = 0; i < 2; i++) {
        const a = take(s, ctx)!;
        const p = a.url.startsWith('http://a.test') ? 0.45 : 0.05;
        s.observe(page(a, p, [link(`http://${a.host}/next`)]));
      }
      return take(s, ctx)?.url;
    };
    for (const seed of [1, 2, 3, 4, 5])
      expect(firstAfterTwoIrrelevantPages('probability', seed)).toBe('http://a.test/next');
    // With the 0/1 reward both pages pass 0: the choice is a tie, broken at random.
    const byReward = new Set(
      [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => firstAfterTwoIrrelevantPages('reward', seed)),
    );
    expect(byReward).toEqual(new Set(['http://a.test/next', 'http://b.test/next']));
  });

  it('pays limitSiteBonus only while the loop says a domain limit is set', () => {
    const bonuses = (domainLimit: number | undefined) => {
      const s = new TresStrategy({ variant: 'tres', keywords, rng: createRng(6), limitSiteBonus: 2 });
      const ctx = loop(domainLimit === undefined ? {} : { domainLimit });
      s.seed([link('http://s.test/', '', 0)]);
      for (let step = 0; step < 12; step++) {
        const a = take(s, ctx);
        if (!a) break;
        s.observe(page(a, 0.9, [link(`http://d${step}.test/`), link(`http://e${step}.test/`)]));
      }
      return s.stats()['tres/site_bonuses'];
    };
    expect(bonuses(undefined)).toBe(0);
    expect(bonuses(Number.POSITIVE_INFINITY)).toBe(0);
    expect(bonuses(10)).toBeGreaterThan(5); // every relevant page here opens a new site
  });

  it('tree-random never trains its network', () => {
    const s = new TresStrategy({
      variant: 'tree-random',
      keywords,
      rng: createRng(3),
      ddqn: { warmupSteps: 5 },
    });
    expect(qEvaluationsOf(s)).toBe(0);
  });

  it('rebuilds its frontier from replayed outcomes without counting steps', () => {
    const s = new TresStrategy({ variant: 'tres', keywords, rng: createRng(4) });
    s.seed([link('http://s.test/', '', 0)]);
    const action: Action = { url: 'http://s.test/', host: 's.test', domain: 's.test', depth: 0 };
    s.observe({ ...page(action, 0.9, outlinks('r.test', 5, 0)), isReplay: true });
    expect(s.stats()['frontier/size']).toBe(5);
    const ctx = loop();
    ctx.fetched.add('http://s.test/');
    expect(s.next(ctx)?.url).toMatch(/^http:\/\/r\.test\/p\d$/);
  });
});

describe('TresAsyncStrategy', () => {
  it('scores each outlink once, when it is queued, and fetches the best stored score first', () => {
    const s = new TresAsyncStrategy({ keywords: new KeywordSet(['gpu'], []), rng: createRng(5) });
    const ctx = loop();
    s.seed([link('http://s.test/', '', 0)]);
    s.observe(page(take(s, ctx)!, 0.9, outlinks('q.test', 10, 0)));
    expect(s.stats()['rl/q_evaluations']).toBe(10);
    const order: string[] = [];
    for (let a = take(s, ctx); a; a = take(s, ctx)) {
      order.push(a.url);
      s.observe(page(a, 0.1));
    }
    expect(order).toHaveLength(10);
    expect(s.stats()['rl/q_evaluations']).toBe(10); // never rescored
  });
});
