import { describe, expect, it } from 'vitest';
import { LinearSarsa } from './linear-sarsa.js';

describe('linear SARSA over one-hot features', () => {
  it('moves the active weights and the bias by alpha / (active + 1) of the TD error', () => {
    const sarsa = new LinearSarsa(4, 0.3, 0.9);
    // Q(x) = 0, Q(x') = 0: delta = 1; step = 0.3 / 3 = 0.1 on w0, w2 and the bias.
    expect(sarsa.update([0, 2], 1, [1, 3])).toBeCloseTo(1, 12);
    expect(Array.from(sarsa.weights)).toEqual([0.1, 0, 0.1, 0].map((v) => expect.closeTo(v, 12)));
    expect(sarsa.bias).toBeCloseTo(0.1, 12);
    // Now Q(x) = 0.3 and Q(x') = 0.1 (bias only): delta = 0 + 0.9 * 0.1 - 0.3 = -0.21.
    expect(sarsa.update([0, 2], 0, [1, 3])).toBeCloseTo(-0.21, 12);
    expect(sarsa.weights[0]).toBeCloseTo(0.1 - 0.021, 12);
    expect(sarsa.q([1, 3])).toBeCloseTo(0.1 - 0.021, 12);
  });

  it('targets the reward alone at the end of the crawl (no next action)', () => {
    const sarsa = new LinearSarsa(2, 1, 0.9);
    sarsa.bias = 5;
    // Q(x) = 5, target 1: delta = -4.
    expect(sarsa.update([0], 1, undefined)).toBeCloseTo(-4, 12);
    expect(sarsa.meanAbsDelta).toBeCloseTo(4, 12);
  });
});
