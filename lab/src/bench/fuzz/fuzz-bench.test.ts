import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { describe, expect, it } from 'vitest';
import { runFuzzBench } from './fuzz-bench.js';

describe('fuzz benchmark harness', () => {
  const dir = tempDir('tres-fuzz-');

  it('runs every target on a tiny budget and writes fuzz.json and fuzz.md', async () => {
    const result = await runFuzzBench({
      resultsDir: dir,
      inputsPerTarget: 150,
      batchSize: 100,
      shouldRunDirected: false,
      isVerbose: false,
    });
    expect(result.targets.map((t) => [t.name, t.inputs, t.throws])).toEqual([
      ['normalizeUrl', 150, 0],
      ['urlFilter', 150, 0],
      ['parseHtml', 150, 0],
      ['parseMetaRefreshUrl', 150, 0],
      ['robotsMatcher', 150, 0],
    ]);
    for (const t of result.targets) expect(t.slowestGenerated.ms).toBeGreaterThanOrEqual(0);
    const json = JSON.parse(readFileSync(join(dir, 'fuzz.json'), 'utf8'));
    expect(json.config).toMatchObject({ inputsPerTarget: 150, seed: 10 });
    expect(readFileSync(join(dir, 'fuzz.md'), 'utf8')).toContain('| normalizeUrl | 150 |');
  });
});
