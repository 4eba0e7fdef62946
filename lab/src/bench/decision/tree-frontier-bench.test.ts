import { describe, expect, it } from 'vitest';
import { runTreeFrontierBench } from './tree-frontier-bench.js';

describe('runTreeFrontierBench', () => {
  it('runs on a tiny budget and reports a row per window', () => {
    const lines: string[] = [];
    const result = runTreeFrontierBench({
      steps: 300,
      reportEvery: 100,
      outlinksPerStep: 10,
      log: (l) => lines.push(l),
    });
    expect(result.rows.map((r) => r.step)).toEqual([100, 200, 300]);
    const last = result.rows.at(-1)!;
    expect(last.size).toBeGreaterThan(1000);
    expect(last.leaves).toBeGreaterThan(1);
    expect(last.nonEmptyLeaves).toBeLessThanOrEqual(last.leaves);
    expect(Number.isFinite(result.medianStepMs)).toBe(true);
    expect(result.samplesAdded - result.samplesPurged - 300).toBe(last.size); // one chosen sample per step
    expect(lines).toHaveLength(5); // header, three rows, summary
  });

  it('repeats exactly for a seed', () => {
    const shape = () =>
      runTreeFrontierBench({ steps: 200, reportEvery: 100, outlinksPerStep: 10, log: () => {} }).rows.map(
        (r) => [r.size, r.leaves, r.nonEmptyLeaves, r.depth],
      );
    expect(shape()).toEqual(shape());
  });
});
