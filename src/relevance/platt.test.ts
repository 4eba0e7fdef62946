import { describe, expect, it } from 'vitest';
import { fitPlatt, plattProbability } from './platt.js';

describe('fitPlatt', () => {
  const f = [-2, -1.5, -0.7, -0.2, 0.1, 0.4, 0.9, 1.6, -0.4, 0.3];
  const labels = [0, 0, 0, 1, 0, 1, 1, 1, 1, 0];

  it('maps higher decision values to higher probabilities', () => {
    const p = fitPlatt(f, labels);
    expect(plattProbability(p, 1)).toBeGreaterThan(plattProbability(p, -1));
  });

  it('counts an example of weight 3 as three copies of it', () => {
    const weights = labels.map((_, i) => (i % 3 === 0 ? 3 : 1));
    const copies = f.flatMap((x, i) => Array.from({ length: weights[i] as number }, () => x));
    const copyLabels = labels.flatMap((y, i) => Array.from({ length: weights[i] as number }, () => y));
    const weighted = fitPlatt(f, labels, weights);
    const copied = fitPlatt(copies, copyLabels);
    expect(weighted.a).toBeCloseTo(copied.a, 6);
    expect(weighted.b).toBeCloseTo(copied.b, 6);
    expect(weighted.a).not.toBeCloseTo(fitPlatt(f, labels).a, 3);
  });
});
