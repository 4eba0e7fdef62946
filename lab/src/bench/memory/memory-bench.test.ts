import { describe, expect, it } from 'vitest';
import { memoryTable, spillTable } from './memory-bench.js';

describe('memory bench table', () => {
  it('prints heap and RSS bytes per frontier URL over the baseline, and checkpoints not reached', () => {
    const point = (frontierSize: number, heap: number, rss: number) => ({
      strategy: 'tres',
      frontierSize,
      steps: 10,
      seconds: 12,
      heapBytes: 1000 + heap * frontierSize,
      rssBytes: 5000 + rss * frontierSize,
      baseHeapBytes: 1000,
      baseRssBytes: 5000,
    });
    const table = memoryTable([point(100, 250, 300)], ['tres', 'bfs'], [100, 500]);
    expect(table.split('\n')).toEqual([
      '| strategy | 0.1k heap / RSS | 0.5k heap / RSS | seconds to last |',
      '|---|---:|---:|---:|',
      '| tres | 250 / 300 | not reached | 12 |',
      '| bfs | not reached | not reached | - |',
    ]);
  });

  it('prints, with a bound on the frontier in memory, the URLs in memory and disk bytes per frontier URL', () => {
    const point = {
      strategy: 'bfs',
      frontierSize: 1000,
      steps: 10,
      seconds: 3,
      heapBytes: 0,
      rssBytes: 0,
      baseHeapBytes: 0,
      baseRssBytes: 0,
      inMemory: 400,
      diskBytes: 40_000,
    };
    expect(spillTable([point], ['bfs'], [1000, 5000]).split('\n')).toEqual([
      '| strategy | 1k: in memory / disk B per URL | 5k: in memory / disk B per URL |',
      '|---|---:|---:|',
      '| bfs | 400 / 40 | not reached |',
    ]);
  });
});
