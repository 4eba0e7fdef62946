import { describe, expect, it } from 'vitest';
import { ConfigError, createRng } from '../../common/index.js';
import { KeywordSet } from '../../text/index.js';
import type { DiscoveredLink, Outcome, SelectionContext } from '../../types/index.js';
import { type HanAsyncConfig, HanAsyncStrategy } from './han-async-strategy.js';

function link(url: string, anchorText = ''): DiscoveredLink {
  const host = new URL(url).host;
  return { url, host, domain: host, anchorText, depth: 1 };
}

/** Every host ready; a URL counts as fetched once chosen. */
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

function make(overrides: Partial<HanAsyncConfig> = {}, seed = 1): HanAsyncStrategy {
  return new HanAsyncStrategy({ rng: createRng(seed), keywords: new KeywordSet(['hardware']), overrides });
}

function outcome(action: Outcome['action'], reward: number, links: DiscoveredLink[], text = ''): Outcome {
  return { action, finalUrl: action.url, isPage: true, reward, probability: reward, text, links };
}

describe('han-async', () => {
  it('completes the SARSA update of a fetched page only when the next action is chosen', () => {
    const s = make({ epsilon: 0 });
    const ctx = loop();
    s.seed([link('http://a.test/')]);
    const first = s.next(ctx)!;
    ctx.fetched.add(first.url);
    s.observe(outcome(first, 1, [link('http://a.test/x', 'hardware')], 'hardware'));
    expect(s.weights().every((w) => w === 0)).toBe(true);
    s.next(ctx);
    // delta = 1 + 0.9 * 0 - 0, spread over 7 features + bias: alpha / 8 each.
    expect(s.weights()[0]).toBeCloseTo(0.1 / 8, 12);
    expect(s.stats()['rl/updates']).toBe(1);
  });

  it('learns nothing with isLearning=false (the untrained crawler)', () => {
    const s = make({ epsilon: 0, isLearning: false });
    const ctx = loop();
    s.seed([link('http://a.test/')]);
    const first = s.next(ctx)!;
    ctx.fetched.add(first.url);
    s.observe(outcome(first, 1, [link('http://a.test/x')]));
    s.next(ctx);
    expect(s.weights().every((w) => w === 0)).toBe(true);
    expect(s.config.isLearning).toBe(false);
  });

  it('fetches greedily the outlink whose Q was highest when it was queued', () => {
    const s = make({ epsilon: 0 });
    const ctx = loop();
    s.seed([link('http://a.test/')]);
    // Teach it that relevant pages follow: reward 1 on three steps along a chain.
    let action = s.next(ctx)!;
    for (const next of ['http://a.test/1', 'http://a.test/2', 'http://a.test/3']) {
      ctx.fetched.add(action.url);
      s.observe(outcome(action, 1, [link(next, 'hardware')], 'hardware'));
      action = s.next(ctx)!;
    }
    ctx.fetched.add(action.url);
    // Now a page with an anchor on topic and one off topic: the first gets the higher Q, even though
    // its URL sorts last (ties would go by URL).
    s.observe(
      outcome(action, 1, [link('http://a.test/z', 'hardware'), link('http://a.test/b', 'gardening')]),
    );
    expect(s.next(ctx)!.url).toBe('http://a.test/z');
  });

  it('with epsilon=1 draws uniformly at random, the same draws for the same seed', () => {
    const run = (seed: number) => {
      const s = make({ epsilon: 1 }, seed);
      const ctx = loop();
      s.seed(Array.from({ length: 20 }, (_, i) => link(`http://h${i}.test/`)));
      const urls: string[] = [];
      for (let i = 0; i < 10; i++) {
        const a = s.next(ctx)!;
        ctx.fetched.add(a.url);
        urls.push(a.url);
      }
      return { urls, explored: s.stats()['rl/explore_steps'] };
    };
    const a = run(3);
    expect(a.explored).toBe(10);
    expect(new Set(a.urls).size).toBe(10);
    expect(run(3).urls).toEqual(a.urls);
    expect(a.urls).not.toEqual([...a.urls].sort());
  });

  it('rejects settings out of range with a ConfigError naming the field', () => {
    expect(() => make({ isLearning: 2 as unknown as boolean })).toThrow(ConfigError);
    expect(() => make({ epsilon: 1.5 })).toThrow(/epsilon/);
    expect(() => make({ gamma: 1 })).toThrow(/gamma/);
  });
});
