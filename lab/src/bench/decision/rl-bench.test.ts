import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { describe, expect, it } from 'vitest';
import { runRlBench } from './rl-bench.js';

const work = tempDir('tres-rlbench-');

describe('runRlBench', () => {
  it('runs end to end on a tiny budget and writes JSON and Markdown results', () => {
    const lines: string[] = [];
    const result = runRlBench({
      predictBatches: [1, 10],
      replayFill: 50,
      candidatesPerTransition: 5,
      rounds: 1,
      roundMs: 1,
      resultsDir: work,
      log: (l) => lines.push(l),
    });
    expect(result.predict.map((p) => p.batch)).toEqual([1, 10]);
    expect(result.predict.every((p) => p.usPerVector > 0)).toBe(true);
    expect(result.trainStepUs).toBeGreaterThan(0);
    expect(result.parameterCount).toBe(9 * 30 + 30 + 30 * 15 + 15 + 15 + 1);
    expect(lines.some((l) => l.includes('trainStep'))).toBe(true);
    expect(existsSync(join(work, 'rl-bench.json'))).toBe(true);
    expect(existsSync(join(work, 'rl-bench.md'))).toBe(true);
  });
});
