import { describe, expect, it } from 'vitest';
import { FullIndexedFrontier } from './full-frontier.js';
import { SampleTable } from './sample-table.js';

const link = (url: string, domain = 'a.test', host = `www.${domain}`) => ({ url, host, domain, depth: 2 });

describe('SampleTable', () => {
  it('keeps each string once and gives its columns back by id', () => {
    const table = new SampleTable({ featureCount: 2 });
    const a = table.add(link('http://a.test/1'), 7);
    const b = table.add(link('http://a.test/1'), 8);
    table.x.set([0.5, 1], b * 2);
    expect([table.url(b), table.host(b), table.domain(b), table.depth(b), table.parent(b)]).toEqual([
      'http://a.test/1',
      'www.a.test',
      'a.test',
      2,
      8,
    ]);
    expect([...table.vector(b)]).toEqual([0.5, 1]);
    expect([
      table.size,
      table.urlCount,
      table.countUrl('http://a.test/1'),
      table.countDomain('a.test'),
    ]).toEqual([2, 1, 2, 2]);
    table.remove(a);
    table.remove(b);
    expect([table.size, table.urlCount, table.countDomain('a.test')]).toEqual([0, 0, 0]);
  });

  it('lists a group in swap-remove order: the last member takes the removed one’s place', () => {
    const table = new SampleTable();
    const ids = ['p', 'q', 'r', 's'].map((p) => table.add(link(`http://a.test/${p}`), 0));
    table.remove(ids[0] as number);
    expect(table.group('domain', 'a.test')).toEqual([ids[3], ids[1], ids[2]]);
    table.remove(ids[2] as number);
    expect(table.group('domain', 'a.test')).toEqual([ids[3], ids[1]]);
    table.remove(ids[1] as number);
    expect(table.group('domain', 'a.test')).toEqual([ids[3]]);
  });

  it('removes a URL’s or a domain’s samples in group order and forgets a URL with no samples', () => {
    const table = new SampleTable();
    const x1 = table.add(link('http://a.test/x'), 0);
    const y = table.add(link('http://b.test/y', 'b.test'), 0);
    const x2 = table.add(link('http://a.test/x', 'a.test'), 0);
    const seen: number[] = [];
    expect(table.removeUrl('http://a.test/x', (id) => seen.push(id))).toBe(2);
    expect(seen).toEqual([x1, x2]);
    expect([
      table.urlCount,
      table.countDomain('a.test'),
      table.removeUrl('http://a.test/x', () => {}),
    ]).toEqual([1, 0, 0]);
    expect(table.removeDomain('b.test', (id) => seen.push(id))).toBe(1);
    expect(seen.at(-1)).toBe(y);
    expect([table.size, table.urlCount]).toEqual([0, 0]);
  });

  it('with isRecycleDeferred, hands removed ids out again only after recycle, columns intact until then', () => {
    const table = new SampleTable({ featureCount: 1, isRecycleDeferred: true });
    const a = table.add(link('http://a.test/1'), 0);
    table.x[a] = 0.25;
    table.remove(a);
    const b = table.add(link('http://a.test/2'), 0);
    expect(b).not.toBe(a);
    expect(table.x[a]).toBe(0.25);
    table.recycle();
    expect(table.add(link('http://a.test/3'), 0)).toBe(a);
  });

  it('grows past its initial capacity without losing columns', () => {
    const table = new SampleTable({ featureCount: 3, initialCapacity: 16 });
    const ids = Array.from({ length: 1000 }, (_, i) => {
      const id = table.add(link(`http://h${i % 7}.test/${i}`, `h${i % 7}.test`), i);
      table.x.set([i, i + 1, i + 2], id * 3);
      return id;
    });
    ids.forEach((id, i) => {
      expect([table.url(id), table.parent(id), table.vector(id)[2]]).toEqual([
        `http://h${i % 7}.test/${i}`,
        i,
        i + 2,
      ]);
    });
    expect(table.countDomain('h3.test')).toBe(143);
  });
});

describe('FullIndexedFrontier', () => {
  const ctx = (fetched: Set<string>, closed = new Set<string>()) => ({
    isHostReady: () => true,
    isDomainOpen: (d: string) => !closed.has(d),
    isDomainClosed: (d: string) => closed.has(d),
    isFetched: (u: string) => fetched.has(u),
  });

  it('draws every ready sample in insertion order and purges stale ones', () => {
    const f = new FullIndexedFrontier(1);
    const a = f.add(link('http://a.test/1'), 0, [0]);
    const b = f.add(link('http://b.test/1', 'b.test'), 0, [0]);
    const c = f.add(link('http://a.test/2'), 0, [0]);
    f.take(a);
    const d = f.add(link('http://c.test/1', 'c.test'), 0, [0]); // reuses a's id, comes last
    expect(f.draw(ctx(new Set()))).toEqual([b, c, d]);
    expect(f.draw(ctx(new Set(['http://a.test/2']), new Set(['c.test'])))).toEqual([b]);
    expect(f.size).toBe(1);
  });
});
