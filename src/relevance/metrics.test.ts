import { describe, expect, it } from 'vitest';
import { createRng } from '../common/index.js';
import { confusion, logLoss, metricsOf, rocAuc, wilsonInterval } from './metrics.js';
import { fitPlatt, plattProbability } from './platt.js';
import { classWeights, stratifiedFolds, stratifiedSplit } from './split.js';

describe('Table-1 metrics', () => {
  it('computes precision and recall of the relevant class and macro F1 on a hand-made case', () => {
    // tp 2, fn 1, fp 1, tn 4
    const c = confusion([1, 1, 1, 0, 0, 0, 0, 0], [0.9, 0.5, 0.1, 0.7, 0.2, 0.3, 0.4, 0.0]);
    expect(c).toEqual({ tp: 2, fp: 1, tn: 4, fn: 1 });
    const m = metricsOf(c);
    expect(m.precision).toBeCloseTo(2 / 3);
    expect(m.recall).toBeCloseTo(2 / 3);
    // F1 relevant = 4/6, F1 irrelevant = 8/10.
    expect(m.macroF1).toBeCloseTo((4 / 6 + 8 / 10) / 2);
  });
  it('gives zero precision when nothing is predicted relevant', () => {
    expect(metricsOf(confusion([1, 0], [0.1, 0.2])).precision).toBe(0);
  });
  it('computes log loss', () => {
    expect(logLoss([1, 0], [0.5, 0.5])).toBeCloseTo(Math.log(2));
  });
});

describe('stratified splits', () => {
  const labels = [...Array(10).fill(1), ...Array(40).fill(0)];
  it('puts the same share of relevant documents in every fold, the same way for the same seed', () => {
    const folds = stratifiedFolds(labels, 5, createRng('x'));
    for (let f = 0; f < 5; f++) {
      const members = labels.filter((_, i) => folds[i] === f);
      expect(members.length).toBe(10);
      expect(members.filter((l) => l === 1).length).toBe(2);
    }
    expect(Array.from(stratifiedFolds(labels, 5, createRng('x')))).toEqual(Array.from(folds));
  });
  it('refuses more folds than members of a class', () => {
    expect(() => stratifiedFolds([1, 1, 0, 0, 0], 3, createRng('x'))).toThrow(RangeError);
  });
  it('holds out a stratified validation split', () => {
    const { train, validation } = stratifiedSplit(labels, 0.1, createRng('y'));
    expect(validation.length).toBe(5);
    expect(validation.filter((i) => labels[i] === 1).length).toBe(1);
    expect(train.length + validation.length).toBe(50);
  });
  it('weights classes by inverse frequency', () => {
    const w = classWeights([1, 0, 0, 0], 'balanced');
    expect(w[0]).toBeCloseTo(2);
    expect(w[1]).toBeCloseTo(4 / 6);
  });
});

describe('Platt scaling', () => {
  it('maps larger decision values to higher probabilities around the class boundary', () => {
    const f = [-2, -1.5, -1, -0.5, 0.2, 0.5, 1, 2];
    const y = [0, 0, 0, 0, 1, 0, 1, 1];
    const p = fitPlatt(f, y);
    expect(p.a).toBeLessThan(0);
    expect(plattProbability(p, 2)).toBeGreaterThan(0.7);
    expect(plattProbability(p, -2)).toBeLessThan(0.3);
  });
});

describe('rocAuc', () => {
  it('is the share of positive-negative pairs ordered right, ties counting one half', () => {
    expect(rocAuc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])).toBe(0.75);
    expect(rocAuc([1, 0, 1, 0], [2, 2, 3, 1])).toBe(0.875); // pairs: 1, 0.5 (tie), 1, 1
    expect(rocAuc([1, 0], [0, 1])).toBe(0);
    expect(rocAuc([1, 1], [0, 1])).toBeNaN();
  });
});

describe('wilsonInterval', () => {
  it('matches hand-computed 95% intervals and stays in [0, 1]', () => {
    // 1 of 2: centre (0.5 + 0.9604) / 2.9208 = 0.5, half 0.6711 * sqrt(0.125 + 0.2401) = 0.4055.
    const [low, high] = wilsonInterval(1, 2);
    expect(low).toBeCloseTo(0.0945, 3);
    expect(high).toBeCloseTo(0.9055, 3);
    const [l8, h8] = wilsonInterval(8, 10);
    expect(l8).toBeCloseTo(0.4902, 3);
    expect(h8).toBeCloseTo(0.9433, 3);
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
    expect(wilsonInterval(0, 5)[0]).toBe(0);
    expect(wilsonInterval(5, 5)[1]).toBe(1);
  });
});
