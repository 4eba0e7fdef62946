import { describe, expect, it } from 'vitest';
import { createRng } from '../../common/index.js';
import { LinearQLambda } from './q-lambda.js';

/** Two actions, two features per block: the step factor is alpha / 2 = 0.1. */
const make = () => new LinearQLambda({ actions: 2, features: 2, alpha: 0.2, gamma: 0.5, lambda: 0.8 });

describe('linear Q(lambda)', () => {
  it('updates the weights by alpha/f * delta * trace, the trace of the previous pair being its features', () => {
    const q = make();
    q.update(0, Float64Array.of(1, 2, 3, 4)); // first step: nothing to update
    q.act(Float64Array.of(1, 2, 3, 4), 1);
    expect([...q.weights]).toEqual([0, 0, 0, 0]);
    q.update(1, Float64Array.of(1, 1, 1, 1));
    // delta = 1 + 0.5 * max(0, 0) - 0 = 1; w[action 1] += 0.1 * (3, 4).
    expect([...q.weights].map((w) => Number(w.toFixed(12)))).toEqual([0, 0, 0.3, 0.4]);
    expect(q.meanTdError).toBe(1);
    expect(q.updateCount).toBe(1);
  });

  /** After two steps w = (0, 0, 0.1, 0), so action 1 is greedy in state (0, 0 | 1, 0). */
  function trained(): LinearQLambda {
    const q = make();
    q.act(Float64Array.of(0, 0, 1, 0), 1);
    q.update(1, Float64Array.of(0, 0, 1, 0));
    return q;
  }

  it('decays the traces by gamma * lambda after a greedy action', () => {
    const q = trained();
    q.act(Float64Array.of(0, 0, 1, 0), 1); // trace of w[2] = 0.4 * 1 + 1 = 1.4
    q.update(1, new Float64Array(4)); // delta = 1 + 0 - 0.1 = 0.9
    expect(q.weights[2]).toBeCloseTo(0.1 + 0.1 * 0.9 * 1.4, 12);
  });

  it('cuts the traces to zero after an exploratory action (Watkins), so older pairs learn nothing more', () => {
    const q = trained();
    q.act(Float64Array.of(1, 0, 1, 0), 0); // Q(0) = 0 < Q(1) = 0.1: exploratory
    q.update(1, new Float64Array(4)); // delta = 1 + 0 - 0 = 1, only action 0's trace (1, 0)
    expect(q.weights[0]).toBeCloseTo(0.1, 12);
    expect(q.weights[2]).toBeCloseTo(0.1, 12);
  });

  it('ends the episode on a step without a state: terminal update, then the next step updates nothing', () => {
    const q = trained(); // w = (0, 0, 0.1, 0); the trace of action 1 decays to 0.4 on act
    q.act(Float64Array.of(0, 0, 1, 0), 1); // trace (0, 0, 1.4, 0)
    q.endEpisode(0); // delta = 0 - 0.1
    expect(q.weights[2]).toBeCloseTo(0.1 - 0.1 * 0.1 * 1.4, 12);
    const before = [...q.weights];
    q.update(1, Float64Array.of(1, 1, 1, 1));
    expect([...q.weights]).toEqual(before);
  });

  it('picks the action of largest Q, ties to the lowest index', () => {
    const q = make();
    expect(q.greedy(Float64Array.of(1, 1, 1, 1))).toBe(0);
    q.weights[2] = 1;
    expect(q.greedy(Float64Array.of(1, 1, 1, 1))).toBe(1);
  });

  /**
   * The control of a finding (results/learning.md): on the webs RLwCS's choice does not
   * learn, because the next page hardly depends on it. Where the reward does depend on the
   * choice, the same learner with RLwCS's settings finds the better action per state.
   */
  it('learns a state-dependent choice when the reward depends on the action (a seeded contextual control)', () => {
    const q = new LinearQLambda({ actions: 2, features: 2, alpha: 0.1, gamma: 0.9, lambda: 0.8 });
    const rng = createRng('q-lambda-control');
    // Block per action: (bias, x). Action 0 pays 1 with probability x, action 1 with 1 - x.
    const phisOf = (x: number) => Float64Array.of(1, x, 1, x);
    let x = rng.next();
    let reward = 0;
    for (let step = 0; step < 20_000; step++) {
      const phis = phisOf(x);
      q.update(reward, phis);
      const action = rng.next() < 0.1 ? rng.int(2) : q.greedy(phis);
      q.act(phis, action);
      reward = rng.next() < (action === 0 ? x : 1 - x) ? 1 : 0;
      x = rng.next();
    }
    for (const x of [0.05, 0.2, 0.35]) expect(q.greedy(phisOf(x))).toBe(1);
    for (const x of [0.65, 0.8, 0.95]) expect(q.greedy(phisOf(x))).toBe(0);
  });
});
