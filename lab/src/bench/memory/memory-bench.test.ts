import { describe, expect, it } from 'vitest';
import { memoryTable } from './memory-bench.js';

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
});
