import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { describe, expect, it } from 'vitest';
import { runRelevanceBench } from './relevance-bench.js';

const work = tempDir('tres-relbench-');

describe('runRelevanceBench', () => {
  it('runs end to end on a tiny budget and writes JSON and Markdown results', async () => {
    const lines: string[] = [];
    const results = await runRelevanceBench({
      outDir: work,
      relevantPages: 6,
      folds: 2,
      models: ['kwbilstm', 'svm', 'nb'],
      datasets: ['synthetic-words'],
      backends: ['wasm'],
      config: {
        bilstm: { maxEpochs: 1, units: 4, denseUnits: 4, keywordDenseUnits: 4, maxLen: 10 },
      },
      log: (l) => lines.push(l),
    });
    expect(results[0]?.evaluations.map((e) => e.model)).toEqual(['kwbilstm', 'svm', 'nb']);
    expect(
      results[0]?.throughput.every(
        (t) => t.pagesPerSec > 0 && t.anchorsPerSec > 0 && t.pagesPerCpuSec > 0 && t.anchorsPerCpuSec > 0,
      ),
    ).toBe(true);
    expect(results[0]?.crawlPagesPerSec).toBeGreaterThan(0);
    expect(results[0]?.crawlLoop?.pagesPerCpuSec).toBeGreaterThan(0);
    expect(existsSync(join(work, 'relevance-bench.json'))).toBe(true);
    expect(existsSync(join(work, 'relevance-bench.md'))).toBe(true);
  }, 120_000);

  it('skips the DocWeb datasets with a message when the DocWeb cache holds no build', async () => {
    const lines: string[] = [];
    const outDir = join(work, 'no-docweb');
    const results = await runRelevanceBench({
      outDir,
      docwebCacheDir: join(work, 'missing-cache'),
      datasets: ['docweb-hardware', 'docweb-statistics'],
      backends: ['wasm'],
      log: (l) => lines.push(l),
    });
    expect(results).toEqual([]);
    expect(lines.filter((l) => /docweb-(hardware|statistics) skipped: no DocWeb build/.test(l))).toHaveLength(
      2,
    );
    expect(readFileSync(join(outDir, 'relevance-bench.md'), 'utf8')).toContain('docweb-hardware skipped');
  }, 60_000);
});
