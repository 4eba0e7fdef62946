import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { describe, expect, it } from 'vitest';
import { runDecisionBench } from './decision-bench.js';

const dir = tempDir('decision-bench-test-');

describe('decision benchmark', () => {
  it('runs on a tiny budget and takes its tail apart: wait for a CPU, GC and phases', async () => {
    await runDecisionBench({
      steps: 330,
      synchronousBudgetSec: 1,
      webPages: 5000,
      seed: '1',
      resultsDir: dir,
    });
    const json = JSON.parse(readFileSync(join(dir, 'decision.json'), 'utf8'));
    expect(json.summary.steps).toBe(330);
    expect(json.tail.all.count).toBe(30); // after the 300-step warm-up
    // The phases account for the decision's time (all but the wrapper's own few microseconds).
    const phases = Object.values(json.tail.all.phaseMs as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(phases).toBeGreaterThan(0.5 * json.tail.all.wallMs);
    expect(phases).toBeLessThanOrEqual(json.tail.all.wallMs);
    expect(Number.isFinite(json.summary.tresUnwaitedP99Ms) || process.platform !== 'linux').toBe(true);
    const md = readFileSync(join(dir, 'decision.md'), 'utf8');
    expect(md).toContain('## Where the tail goes');
  }, 60_000);
});
