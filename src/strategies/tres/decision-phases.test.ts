import { describe, expect, it } from 'vitest';
import { createRng } from '../../common/index.js';
import { KeywordSet } from '../../text/index.js';
import type { Action, DiscoveredLink, Outcome, SelectionContext } from '../../types/index.js';
import { type PhaseTimer, TRES_PHASES, type TresPhase } from './decision-phases.js';
import { TresStrategy } from './tres-strategy.js';

function link(url: string): DiscoveredLink {
  const host = new URL(url).hostname;
  return { url, host, domain: host, anchorText: 'gpu card', depth: 1, anchorProbability: 0.5 };
}

/** A small deterministic web: page i of host h links to 4 pages of 3 hosts; every third is relevant. */
function outlinks(url: string): DiscoveredLink[] {
  const n = Number(new URL(url).pathname.slice(1)) || 0;
  return [1, 2, 3, 4].map((k) => link(`http://h${(n + k) % 3}.test/${n * 4 + k}`));
}

/** Crawls `steps` pages with `s` and returns the URLs it chose. */
function crawl(s: TresStrategy, steps: number): string[] {
  const fetched = new Set<string>();
  const ctx: SelectionContext = {
    isHostReady: () => true,
    isDomainOpen: () => true,
    isDomainClosed: () => false,
    isFetched: (url) => fetched.has(url),
    step: 0,
  };
  s.seed([link('http://h0.test/0')]);
  const urls: string[] = [];
  for (let i = 0; i < steps; i++) {
    const action = s.next(ctx) as Action;
    fetched.add(action.url);
    urls.push(action.url);
    const reward = urls.length % 3 === 0 ? 1 : 0;
    const outcome: Outcome = {
      action,
      finalUrl: action.url,
      isPage: true,
      reward,
      probability: reward,
      links: outlinks(action.url),
    };
    s.observe(outcome);
  }
  return urls;
}

function tres(phaseTimer?: PhaseTimer): TresStrategy {
  return new TresStrategy({
    variant: 'tres',
    rng: createRng('phases'),
    keywords: new KeywordSet(['gpu']),
    // Train from step 10 on, every other step, so the run covers warm-up, training and target copies.
    ddqn: { warmupSteps: 10, trainEvery: 2, batchSize: 8, targetUpdateEvery: 15 },
    ...(phaseTimer ? { phaseTimer } : {}),
  });
}

describe('TRES decision phases', () => {
  it('a crawl timed phase by phase chooses the same pages as one not timed', () => {
    let clock = 0;
    const timer: PhaseTimer = { now: () => clock++, add: () => {} };
    expect(crawl(tres(timer), 60)).toEqual(crawl(tres(), 60));
  });

  it('charges each decision to every phase once, in the order the decision runs them', () => {
    let clock = 0;
    const calls: [TresPhase, number][] = [];
    const timer: PhaseTimer = {
      // Each read of the clock advances it by one: every lap is exactly one tick.
      now: () => clock++,
      add: (phase, ms) => calls.push([phase, ms]),
    };
    const s = tres(timer);
    crawl(s, 30);
    expect(calls).toHaveLength(30 * TRES_PHASES.length);
    expect(calls.slice(0, TRES_PHASES.length).map(([p]) => p)).toEqual([...TRES_PHASES]);
    expect(calls.slice(-TRES_PHASES.length).map(([p]) => p)).toEqual([...TRES_PHASES]);
    expect(calls.every(([, ms]) => ms === 1)).toBe(true);
    expect(s.stats()['rl/train_steps']).toBeGreaterThan(0);
  });
});
