import { describe, expect, it } from 'vitest';
import { createRng } from '../common/index.js';
import type { SelectionContext } from '../types/index.js';
import { IndexedPriorityFrontier } from './indexed-priority-frontier.js';
import { type FrontierItem, PriorityFrontier } from './test-priority-frontier.js';

describe('IndexedPriorityFrontier', () => {
  it('draws exactly what the object PriorityFrontier draws, through random adds, busy hosts, fetched URLs and closed domains', () => {
    const rng = createRng('indexed-priority');
    const objects = new PriorityFrontier();
    const ids = new IndexedPriorityFrontier();
    const fetched = new Set<string>();
    const closed = new Set<string>();
    let busy = new Set<string>();
    const ctx = (): SelectionContext => ({
      step: 0,
      isHostReady: (h) => !busy.has(h),
      isDomainOpen: (d) => !closed.has(d),
      isDomainClosed: (d) => closed.has(d),
      isFetched: (u) => fetched.has(u),
    });
    const drawn: string[] = [];
    for (let step = 0; step < 3000; step++) {
      const op = rng.int(10);
      if (op < 5) {
        const h = rng.int(20);
        const item: FrontierItem = {
          url: `http://h${h}.test/${rng.int(300)}`,
          host: `h${h}.test`,
          domain: `d${h % 7}.test`,
          depth: 1,
          key: rng.int(50),
        };
        objects.add(item);
        ids.addWithKey(item, 0, item.key);
      } else if (op < 6) {
        busy = new Set(Array.from({ length: 3 }, () => `h${rng.int(20)}.test`));
      } else if (op < 7 && step > 2000) {
        closed.add(`d${rng.int(7)}.test`);
      } else {
        const [a] = objects.draw(ctx());
        const [b] = ids.draw(ctx());
        expect(b === undefined ? undefined : ids.table.url(b)).toBe(a?.url);
        if (a && b !== undefined && rng.next() < 0.8) {
          objects.take(a);
          ids.take(b);
          fetched.add(a.url);
          drawn.push(a.url);
        }
      }
      expect(ids.size).toBe(objects.size);
    }
    expect(drawn.length).toBeGreaterThan(500);
  });

  it('draws the best ready sample whose URL is not fetched, also when a host was keyed by a fetched copy', () => {
    // A URL queued twice (found again with a better key) leaves a copy once fetched; a host
    // whose head is such a copy must not hand out its next sample before another host's better
    // one (a resumed crawl's replayed frontier holds a fetched copy of every page it fetched).
    const rng = createRng('best-live');
    const f = new IndexedPriorityFrontier();
    const items: { url: string; host: string; domain: string; key: number }[] = [];
    const fetched = new Set<string>();
    let busy = new Set<string>();
    const ctx: SelectionContext = {
      step: 0,
      isHostReady: (h) => !busy.has(h),
      isDomainOpen: () => true,
      isDomainClosed: () => false,
      isFetched: (u) => fetched.has(u),
    };
    let draws = 0;
    for (let step = 0; step < 3000; step++) {
      const op = rng.int(10);
      if (op < 5) {
        const h = rng.int(20);
        const item = {
          url: `http://h${h}.test/${rng.int(100)}`,
          host: `h${h}.test`,
          domain: `h${h}.test`,
          key: rng.int(1000),
        };
        items.push(item);
        f.addWithKey({ ...item, depth: 1 }, 0, item.key);
      } else if (op < 6) {
        busy = new Set(Array.from({ length: 3 }, () => `h${rng.int(20)}.test`));
      } else if (op < 7) {
        // Fetched through another copy, or by a redirect: its samples are stale now.
        const item = items[rng.int(items.length)];
        if (item) fetched.add(item.url);
      } else {
        const live = items.filter((i) => !fetched.has(i.url) && !busy.has(i.host));
        live.sort((a, b) => a.key - b.key || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
        const [id] = f.draw(ctx);
        const best = live[0];
        expect(id === undefined ? undefined : [f.table.url(id), f.table.key[id]]).toEqual(
          best && [best.url, best.key],
        );
        if (id !== undefined) {
          fetched.add(f.table.url(id));
          f.take(id);
          draws++;
        }
      }
    }
    expect(draws).toBeGreaterThan(500);
  });

  it('counts in liveSize the waiting samples of URLs not removed, through draws, stale drops and rekeys', () => {
    // With isUrlCounted a fetched URL's samples leave liveSize at removeUrl, though they leave
    // the queues only when they reach a head: a resume's replay removes URLs it never drew.
    const rng = createRng('live-size');
    const f = new IndexedPriorityFrontier({ isUrlCounted: true });
    const fetched = new Set<string>(); // in flight or fetched: drawn past
    const removals = new Map<string, number>(); // observed: removeUrl was called
    const addedAfter = new Map<number, number>(); // sample id -> its URL's removals when added
    const ctx: SelectionContext = {
      step: 0,
      isHostReady: () => true,
      isDomainOpen: () => true,
      isDomainClosed: () => false,
      isFetched: (u) => fetched.has(u),
    };
    const urls: string[] = [];
    let stepsWithDead = 0;
    for (let step = 0; step < 4000; step++) {
      const op = rng.int(12);
      if (op < 6) {
        const h = rng.int(10);
        const url = `http://h${h}.test/${rng.int(200)}`;
        urls.push(url);
        const id = f.addWithKey(
          { url, host: `h${h}.test`, domain: `h${h}.test`, depth: 1 },
          0,
          rng.int(1000),
        );
        addedAfter.set(id, removals.get(url) ?? 0);
      } else if (op < 8) {
        const [id] = f.draw(ctx);
        if (id !== undefined) {
          fetched.add(f.table.url(id));
          f.take(id);
        }
      } else if (op < 10) {
        // Observed: drawn before (in flight), or never drawn (a replayed page).
        const url = urls[rng.int(urls.length)];
        if (url !== undefined) {
          fetched.add(url);
          removals.set(url, (removals.get(url) ?? 0) + 1);
          f.removeUrl(url);
        }
      } else if (op < 11) {
        const url = urls[rng.int(urls.length)];
        if (url !== undefined) fetched.add(url); // in flight through another copy
      } else {
        f.rekey(() => (rng.int(8) === 0 ? undefined : rng.int(1000)));
      }
      // A sample added after its URL's last removal is live again (a URL queued once more).
      const waiting = [...f.ids()].filter(
        (id) => addedAfter.get(id) === (removals.get(f.table.url(id)) ?? 0),
      ).length;
      expect(f.liveSize).toBe(waiting);
      if (f.size > f.liveSize) stepsWithDead++;
    }
    expect(stepsWithDead).toBeGreaterThan(100);
  });

  it('draws after rekey what a new frontier of the kept samples with their new keys draws', () => {
    const rng = createRng('rekey');
    const f = new IndexedPriorityFrontier();
    const ctx: SelectionContext = {
      step: 0,
      isHostReady: (h) => h !== 'h3.test',
      isDomainOpen: () => true,
      isDomainClosed: () => false,
      isFetched: () => false,
    };
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 400; i++) {
        const h = rng.int(15);
        const url = `http://h${h}.test/${round}-${i}`;
        f.addWithKey({ url, host: `h${h}.test`, domain: `h${h}.test`, depth: 1 }, i, rng.int(100));
      }
      // A draw left untaken goes back before the re-keying.
      f.draw(ctx);
      const kept = new Map<number, number>();
      for (const id of f.ids()) if (rng.next() < 0.7) kept.set(id, rng.int(100));
      const rebuilt = new IndexedPriorityFrontier();
      for (const [id, key] of kept)
        rebuilt.addWithKey(
          { url: f.table.url(id), host: f.table.host(id), domain: f.table.domain(id), depth: 1 },
          0,
          key,
        );
      f.rekey((id) => kept.get(id));
      expect(f.size).toBe(kept.size);
      for (let i = 0; i < 150; i++) {
        const [a] = f.draw(ctx);
        const [b] = rebuilt.draw(ctx);
        expect(a === undefined ? undefined : f.table.url(a)).toBe(
          b === undefined ? undefined : rebuilt.table.url(b),
        );
        if (a !== undefined) f.take(a);
        if (b !== undefined) rebuilt.take(b);
      }
    }
  });

  it('keeps the sample’s columns: URL, host, domain, depth, parent and vector', () => {
    const f = new IndexedPriorityFrontier({ featureCount: 2 });
    const id = f.addWithKey(
      { url: 'http://a.test/1', host: 'a.test', domain: 'a.test', depth: 3 },
      5,
      -1,
      [0.5, 1],
    );
    const t = f.table;
    expect([t.url(id), t.host(id), t.domain(id), t.depth(id), t.parent(id), [...t.vector(id)]]).toEqual([
      'http://a.test/1',
      'a.test',
      'a.test',
      3,
      5,
      [0.5, 1],
    ]);
  });
});
