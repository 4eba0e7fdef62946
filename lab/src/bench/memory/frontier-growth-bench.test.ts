import { describe, expect, it } from 'vitest';
import { runFrontierGrowthBench } from './frontier-growth-bench.js';

describe('frontier growth benchmark', () => {
  it('runs on a tiny budget and reports the tail of single inserts of its three parts', async () => {
    const report = await runFrontierGrowthBench({
      inserts: 3_000,
      linksPerPage: 50,
      hostCount: 20,
      seed: '1',
    });
    const rows = report.split('\n').filter((l) => /^\| (SampleTable|StringIds)/.test(l));
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      const [total, median, , , max] = row.split('|').slice(2, 7).map(Number);
      expect(total).toBeGreaterThan(0);
      expect(max).toBeGreaterThanOrEqual(median as number);
    }
    expect(report).toContain('(sink ok)');
  });
});
