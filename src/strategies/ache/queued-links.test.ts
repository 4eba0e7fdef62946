import { describe, expect, it } from 'vitest';
import { QueuedLinks } from './queued-links.js';

const data = (ids: number[], tier = 0) => ({ ids, tier, parentProbability: 0.25, isSeed: false });

describe('QueuedLinks', () => {
  it('keeps every queued URL its ids through pool growth, compaction and replacement', () => {
    const q = new QueuedLinks();
    const expected = new Map<string, number[]>();
    // Enough ids to fill the first pool (65,536 entries) several times, deleting as a crawl does.
    for (let i = 0; i < 40_000; i++) {
      const url = `http://h${i % 7}.test/${i}`;
      const ids = [i, i + 1, i + 2, i % 5];
      q.set(url, i, i % 3, data(ids));
      expected.set(url, ids);
      if (i % 4 !== 0) {
        const gone = `http://h${(i - 1) % 7}.test/${i - 1}`;
        q.delete(gone);
        expected.delete(gone);
      }
      if (i % 10 === 0) {
        const again = [9, 8];
        q.set(url, i, 0, data(again, 1));
        expected.set(url, again);
      }
    }
    expect(q.size).toBe(expected.size);
    for (const [url, ids] of expected) {
      const u = q.idOf(url) as number;
      expect([...q.ids(u)]).toEqual(ids);
      expect(q.parentProbability(u)).toBe(0.25);
    }
  });

  it('forgets a deleted URL', () => {
    const q = new QueuedLinks();
    q.set('http://a.test/', 0, -1, { ids: [1], tier: 0, parentProbability: 1, isSeed: true });
    expect(q.isSeed(q.idOf('http://a.test/') as number)).toBe(true);
    q.delete('http://a.test/');
    expect(q.idOf('http://a.test/')).toBeUndefined();
  });
});
