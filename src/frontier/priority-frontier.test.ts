import { describe, expect, it } from 'vitest';
import type { SelectionContext } from '../types/index.js';
import { type FrontierItem, PriorityFrontier } from './test-priority-frontier.js';

function item(url: string, key: number, domain?: string): FrontierItem {
  const host = new URL(url).hostname;
  return { url, host, domain: domain ?? host, depth: 1, key };
}

function ctx(overrides: Partial<SelectionContext> = {}): SelectionContext {
  return {
    step: 0,
    isHostReady: () => true,
    isDomainOpen: () => true,
    isDomainClosed: () => false,
    isFetched: () => false,
    ...overrides,
  };
}

describe('PriorityFrontier', () => {
  it('returns items in key order across hosts, ties broken by URL', () => {
    const f = new PriorityFrontier();
    f.add(item('http://b.test/2', 2));
    f.add(item('http://a.test/1', 1));
    f.add(item('http://b.test/0', 0));
    f.add(item('http://a.test/x', 1));
    f.add(item('http://a.test/a', 1));
    const order: string[] = [];
    for (let x = f.takeBest(ctx()); x; x = f.takeBest(ctx())) order.push(x.url);
    expect(order).toEqual([
      'http://b.test/0',
      'http://a.test/1',
      'http://a.test/a',
      'http://a.test/x',
      'http://b.test/2',
    ]);
    expect(f.size).toBe(0);
    expect(f.hostCount).toBe(0);
  });

  it('skips hosts that are not ready without losing their items', () => {
    const f = new PriorityFrontier();
    f.add(item('http://busy.test/1', 0));
    f.add(item('http://free.test/1', 5));
    const busy = ctx({ isHostReady: (h) => h !== 'busy.test' });
    expect(f.takeBest(busy)?.url).toBe('http://free.test/1');
    expect(f.takeBest(busy)).toBeUndefined();
    expect(f.size).toBe(1);
    expect(f.takeBest(ctx())?.url).toBe('http://busy.test/1');
  });

  it('drops already fetched URLs and purges closed domains', () => {
    const f = new PriorityFrontier();
    f.add(item('http://a.test/1', 0));
    f.add(item('http://a.test/2', 1));
    f.add(item('http://c.test/1', 2, 'closed'));
    f.add(item('http://c.test/2', 3, 'closed'));
    const c = ctx({ isFetched: (u) => u === 'http://a.test/1', isDomainClosed: (d) => d === 'closed' });
    expect(f.takeBest(c)?.url).toBe('http://a.test/2');
    expect(f.takeBest(c)).toBeUndefined();
    expect(f.size).toBe(0);
  });

  it('keeps a host ordered when a better item arrives after it was keyed', () => {
    const f = new PriorityFrontier();
    f.add(item('http://a.test/late', 10));
    f.add(item('http://b.test/mid', 5));
    f.add(item('http://a.test/early', 1));
    expect(f.takeBest(ctx())?.url).toBe('http://a.test/early');
    expect(f.takeBest(ctx())?.url).toBe('http://b.test/mid');
    expect(f.takeBest(ctx())?.url).toBe('http://a.test/late');
  });
});
