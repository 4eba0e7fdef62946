import { describe, expect, it } from 'vitest';
import { createRng } from '../../common/index.js';
import { STATE_COUNT, trueFeatureCount } from './host-states.js';
import { LinearQParsePolicy, PolicyIterationPolicy, QLearningPolicy } from './parse-policy.js';

const ALL_FALSE = 0;
const ALL_TRUE = 15;

/** Feeds `n` transitions of a model where parse leads to all-false and skip to all-true. */
function feed(policy: PolicyIterationPolicy, n: number, rewardOf: (isParse: boolean) => number): void {
  for (let i = 0; i < n; i++) {
    const s = i % STATE_COUNT;
    const isParse = i % 2 === 0;
    policy.learn(s, isParse, rewardOf(isParse), isParse ? ALL_FALSE : ALL_TRUE);
  }
}

describe('QLearningPolicy', () => {
  it('updates Q towards r + gamma max Q(s\u2032) on a hand-computed pair of steps', () => {
    const p = new QLearningPolicy({ gamma: 0.5, learningRate: 0.5 });
    p.learn(3, true, 1, 5);
    expect(p.q[3 * 2 + 1]).toBeCloseTo(0.5, 12);
    p.learn(5, false, 0, 3);
    expect(p.q[5 * 2]).toBeCloseTo(0.125, 12);
    expect(p.isParse(5)).toBe(false);
    expect(p.isParse(3)).toBe(true);
  });
  it('parses in an untried state (ties go to parse)', () => {
    expect(new QLearningPolicy({ gamma: 0.9, learningRate: 0.1 }).isParse(7)).toBe(true);
  });
});

describe('LinearQParsePolicy', () => {
  it('moves w of the action taken by alpha / n * (r + gamma max Q(x′) - Q(x, a)) * x (hand-computed)', () => {
    const p = new LinearQParsePolicy({ features: 2, gamma: 0.5, learningRate: 0.4 });
    expect(p.isParse(Float64Array.of(1, 1))).toBe(true); // ties go to parse
    p.learn(Float64Array.of(1, 0.5), true, 1, Float64Array.of(1, 0)); // step 0.2 * (1 + 0 - 0)
    expect([...p.weights]).toEqual([0, 0, 0.2, 0.1]);
    p.learn(Float64Array.of(1, 1), false, 0, Float64Array.of(1, 0)); // 0.2 * (0 + 0.5 * 0.2 - 0)
    expect([...p.weights].map((w) => Number(w.toFixed(12)))).toEqual([0.02, 0.02, 0.2, 0.1]);
    expect(p.isParse(Float64Array.of(1, 0))).toBe(true);
  });
  it('learns to skip where skipping pays and parse where parsing does (a seeded control)', () => {
    const p = new LinearQParsePolicy({ features: 2, gamma: 0, learningRate: 0.1 });
    const rng = createRng('lim-linear-control');
    // Feature x: parsing pays with probability x, skipping with 0.5.
    for (let i = 0; i < 20_000; i++) {
      const x = Float64Array.of(1, rng.next());
      const isParse = rng.next() < 0.5;
      const pays = rng.next() < (isParse ? (x[1] as number) : 0.5);
      p.learn(x, isParse, pays ? 1 : 0, Float64Array.of(1, 0));
    }
    expect(p.isParse(Float64Array.of(1, 0.1))).toBe(false);
    expect(p.isParse(Float64Array.of(1, 0.9))).toBe(true);
  });
});

describe('PolicyIterationPolicy', () => {
  it('learns "never parse" under the thesis reward when parsing leads to states with fewer true features', () => {
    const p = new PolicyIterationPolicy({
      gamma: 0.9,
      planEvery: 64,
      priorCount: 0.1,
      stateReward: (s) => trueFeatureCount(s) / 4,
      rng: createRng(1),
    });
    feed(p, 640, () => 0);
    expect([...p.policy]).toEqual(new Array(STATE_COUNT).fill(0));
    expect(p.stats()['lim/parse_states']).toBe(0);
  });
  it('learns "always parse" when parsing is what earns the reward', () => {
    const p = new PolicyIterationPolicy({ gamma: 0.9, planEvery: 64, priorCount: 0.1, rng: createRng(1) });
    feed(p, 640, (isParse) => (isParse ? 1 : 0));
    expect([...p.policy]).toEqual(new Array(STATE_COUNT).fill(1));
  });
  it('starts from a random policy drawn from its seed', () => {
    const a = new PolicyIterationPolicy({ gamma: 0.9, planEvery: 1, priorCount: 0.1, rng: createRng(7) });
    const b = new PolicyIterationPolicy({ gamma: 0.9, planEvery: 1, priorCount: 0.1, rng: createRng(7) });
    expect([...a.policy]).toEqual([...b.policy]);
    expect(new Set(a.policy).size).toBe(2);
  });
  it('gives V of the policy on the estimated model (one absorbing state, hand-computed)', () => {
    const p = new PolicyIterationPolicy({
      gamma: 0.5,
      planEvery: 1_000_000,
      priorCount: 1e-9,
      stateReward: () => 1,
      rng: createRng(3),
    });
    for (let s = 0; s < STATE_COUNT; s++) {
      p.learn(s, true, 0, ALL_TRUE);
      p.learn(s, false, 0, ALL_TRUE);
    }
    p.solve();
    // V = 1 + 0.5 V  ->  V = 2 in every state.
    for (const v of p.value) expect(v).toBeCloseTo(2, 6);
  });
});
