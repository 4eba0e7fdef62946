import { describe, expect, it } from 'vitest';
import { ConfigError, createRng } from '../../common/index.js';
import { KeywordSet, WordVectors } from '../../text/index.js';
import type { DiscoveredLink, Outcome, SelectionContext } from '../../types/index.js';
import { createStrategy, strategyNeedsWordVectors } from '../registry.js';
import type { Strategy } from '../strategy.js';
import { type LimSettings, resolveLimConfig } from './lim-config.js';
import { LimStrategy, rewardOfDecision } from './lim-strategy.js';

const fetched = new Set<string>();
const ctx: SelectionContext = {
  isHostReady: () => true,
  isDomainOpen: () => true,
  isDomainClosed: () => false,
  isFetched: (url) => fetched.has(url),
  step: 0,
};

function link(url: string): DiscoveredLink {
  const host = new URL(url).hostname;
  return { url, host, domain: host, anchorText: '', depth: 1 };
}

function make(overrides: LimSettings = {}, learner: 'q-learning' | 'policy-iteration' = 'q-learning') {
  fetched.clear();
  return new LimStrategy({ learner, rng: createRng(1), keywords: new KeywordSet(['computer']), overrides });
}

/** Takes the next URL and reports it fetched with `links` and `text`. */
function step(s: Strategy, links: string[], text = 'nothing here', reward = 0): string {
  const action = s.next(ctx);
  if (action === undefined) throw new Error('frontier empty');
  fetched.add(action.url);
  const outcome: Outcome = {
    action,
    finalUrl: action.url,
    isPage: true,
    reward,
    probability: reward,
    title: '',
    text,
    links: links.map(link),
  };
  s.observe(outcome);
  return action.url;
}

describe('LimStrategy', () => {
  it('fetches the most recently pushed link first (a stack)', () => {
    const s = make({ shouldLearn: false });
    s.seed([link('http://a.test/')]);
    expect(step(s, ['http://b.test/1', 'http://c.test/1'])).toBe('http://a.test/');
    expect(step(s, ['http://d.test/1'])).toBe('http://c.test/1');
    expect(step(s, [])).toBe('http://d.test/1');
    expect(step(s, [])).toBe('http://b.test/1');
  });
  it('does not push the links of a fourth page in a row of one host until the stack runs empty', () => {
    const s = make({ shouldLearn: false });
    s.seed([link('http://a.test/')]);
    step(s, ['http://x.test/1', 'http://a.test/1']);
    step(s, ['http://a.test/2']);
    step(s, ['http://a.test/3']);
    expect(step(s, ['http://y.test/1'])).toBe('http://a.test/3');
    expect(s.stats()['lim/cap_skips']).toBe(1);
    // The stack holds x.test/1 only; y.test/1 comes back once it is empty, so both are frontier.
    expect(s.stats()).toMatchObject({ 'frontier/size': 2, 'lim/stack': 1, 'lim/kept_links': 1 });
    expect(step(s, [])).toBe('http://x.test/1');
    expect(step(s, [])).toBe('http://y.test/1');
    expect(s.stats()['lim/unkept']).toBe(1);
    expect(s.next(ctx)).toBeUndefined();
  });
  it('resumes with the skipped pages the stack had parsed after all before the checkpoint', () => {
    // The cap-skip crawl above, stopped after the stack ran empty once and y.test/1's page was
    // parsed after all; replayed from its outcomes (no text), it goes on as the live one does.
    const live = make({ shouldLearn: false });
    const observed: Outcome[] = [];
    const observe = live.observe.bind(live);
    live.observe = (o) => {
      observed.push({ ...o, text: undefined, isReplay: true, isLearned: true });
      observe(o);
    };
    live.seed([link('http://a.test/')]);
    step(live, ['http://x.test/1', 'http://a.test/1']);
    step(live, ['http://a.test/2']);
    step(live, ['http://a.test/3']);
    step(live, ['http://y.test/1']);
    step(live, []);
    expect(step(live, ['http://z.test/1', 'http://w.test/1'])).toBe('http://y.test/1');
    expect(live.stats()['lim/unkept']).toBe(1);
    const saved = live.checkpoint();

    const resumed = new LimStrategy({
      learner: 'q-learning',
      rng: createRng(1),
      keywords: new KeywordSet(['computer']),
      overrides: { shouldLearn: false },
    });
    resumed.restore(saved);
    resumed.seed([link('http://a.test/')]);
    for (const o of observed) resumed.observe(o);
    // The stack itself still holds the fetched URLs' entries (dropped as they are drawn).
    const kept = (x: Strategy) => {
      const { 'frontier/size': _, 'lim/stack': __, ...rest } = x.stats();
      return rest;
    };
    expect(kept(resumed)).toEqual(kept(live));
    const rest = (s: Strategy) => Array.from({ length: 2 }, () => step(s, []));
    const after = new Set(fetched);
    const liveRest = rest(live);
    fetched.clear();
    for (const url of after) fetched.add(url);
    expect(rest(resumed)).toEqual(liveRest);
  });
  it('parses every page with learning off', () => {
    const s = make({ shouldLearn: false });
    s.seed([link('http://a.test/')]);
    for (let i = 0; i < 3; i++) step(s, [`http://h${i}.test/1`, `http://h${i}.test/2`]);
    expect(s.stats()).toMatchObject({ 'lim/parses': 3, 'lim/skips': 0, 'lim/explorations': 0 });
    expect(s.stats()['rl/updates']).toBeUndefined();
  });
  it('learns from each decision once the next page is observed, with the page reward for lim-q', () => {
    const s = make({ epsilon: 0 });
    s.seed([link('http://a.test/')]);
    step(s, ['http://b.test/1']);
    step(s, ['http://c.test/1'], 'computer', 1);
    expect(s.stats()['rl/updates']).toBe(1);
    expect(s.config).toMatchObject({ learner: 'q-learning', reward: 'page', shouldLearn: true });
  });
  it('with parseAbove parses exactly the pages whose own relevance reaches it, and learns nothing', () => {
    const s = make({ parseAbove: 0.5 });
    s.seed([link('http://a.test/')]);
    step(s, ['http://b.test/1'], 'computer parts', 1); // relevance 1: parse
    step(s, ['http://c.test/1'], 'zorbax nothing', 0); // the pushed b.test link; relevance 0: skip
    expect(s.stats()).toMatchObject({ 'lim/parses': 1, 'lim/skips': 1, 'lim/explorations': 0 });
    expect(s.stats()['rl/updates']).toBeUndefined();
  });
  it('with reward=decision rewards parsing a relevant page and skipping an irrelevant one', () => {
    expect([
      rewardOfDecision(true, true),
      rewardOfDecision(false, false),
      rewardOfDecision(true, false),
      rewardOfDecision(false, true),
    ]).toEqual([1, 1, 0, 0]);
    // Pages judged relevant, then not, not, not; every decision parses (ties go to parse and the
    // rewards keep Q(parse) >= Q(skip) = 0). Each decision is credited when the next page comes.
    const verdicts = [1, 0, 0, 0];
    const creditedMean = (reward: LimSettings) => {
      const s = make({ ...reward, epsilon: 0 });
      s.seed([link('http://a.test/')]);
      for (const [i, v] of verdicts.entries()) {
        step(s, [`http://h${i}.test/1`], v === 1 ? 'computer' : 'zorbax', v);
      }
      expect(s.stats()).toMatchObject({ 'lim/parses': 4, 'rl/updates': 3 });
      return s.stats()['lim/mean_reward'];
    };
    // Decision reward: the verdicts of pages 1-3 decided on (parse relevant 1, parse irrelevant 0).
    expect(creditedMean({ reward: 'decision' })).toBeCloseTo(1 / 3, 12);
    // Page reward (lim-q's default): the verdicts of the next pages, 2-4.
    expect(creditedMean({})).toBe(0);
  });
  it('with shouldUseRealState=true learns a linear Q over the real-valued state, one update per observed next page', () => {
    const s = make({ shouldUseRealState: true, epsilon: 0 });
    s.seed([link('http://a.test/')]);
    step(s, ['http://b.test/1']);
    step(s, ['http://c.test/1'], 'computer', 1);
    step(s, ['http://d.test/1']);
    expect(s.stats()).toMatchObject({ 'rl/updates': 2, 'lim/greedy_parse_share': 1 });
  });
  it('scores page relevance with RAKE keywords and keyword matching when no vectors are given', () => {
    const s = make({ shouldLearn: false });
    s.seed([link('http://a.test/')]);
    step(s, [], 'computer parts. zorbax');
    expect(s.stats()['lim/mean_relevance']).toBe(1);
  });
});

describe('lim strategies in the registry', () => {
  it('say they use word vectors (the loop loads them only then)', () => {
    expect(strategyNeedsWordVectors('lim-dfs')).toBe(true);
    expect(strategyNeedsWordVectors('lim-q:learn=0')).toBe(true);
    expect(strategyNeedsWordVectors('bfs')).toBe(false);
  });
  it('score relevance with the word vectors of the strategy context', () => {
    const vectors = new WordVectors(['computer', 'laptop'], 2, new Float32Array([1, 0, 0.8, 0.6]));
    const context = { rng: createRng(1), keywords: new KeywordSet(['computer']) };
    for (const [wordVectors, expected] of [
      [vectors, 0.8],
      [undefined, 0],
    ] as const) {
      fetched.clear();
      const s = createStrategy('lim-q:learn=0', { ...context, ...(wordVectors ? { wordVectors } : {}) });
      s.seed([link('http://a.test/')]);
      step(s, [], 'laptop');
      expect(s.stats()['lim/mean_relevance']).toBeCloseTo(expected, 5);
    }
  });
});

describe('resolveLimConfig', () => {
  it('uses the thesis reward for policy iteration and the page reward for Q-learning', () => {
    expect(resolveLimConfig('policy-iteration').reward).toBe('state');
    expect(resolveLimConfig('q-learning').reward).toBe('page');
    expect(resolveLimConfig('q-learning', { reward: 'state' }).reward).toBe('state');
    expect(resolveLimConfig('policy-iteration', { shouldLearn: false }).shouldLearn).toBe(false);
  });
  it('refuses values out of range, naming the field', () => {
    expect(() => resolveLimConfig('q-learning', { gamma: 1 })).toThrow(ConfigError);
    expect(() => resolveLimConfig('q-learning', { gamma: 1 })).toThrow(/gamma/);
    expect(() => resolveLimConfig('q-learning', { reward: 'x' as 'page' })).toThrow(
      /reward must be state or page or decision/,
    );
    expect(() => resolveLimConfig('q-learning', { maxConsecutivePerHost: 0 })).toThrow(
      /maxConsecutivePerHost/,
    );
    expect(() => resolveLimConfig('policy-iteration', { shouldUseRealState: true })).toThrow(
      /shouldUseRealState.*lim-dfs/,
    );
    expect(() => resolveLimConfig('q-learning', { parseAbove: 2 })).toThrow(/parseAbove/);
    expect(resolveLimConfig('q-learning', { shouldUseRealState: true }).shouldUseRealState).toBe(true);
    expect(resolveLimConfig('q-learning', { parseAbove: false }).parseAbove).toBe(false);
  });
});
