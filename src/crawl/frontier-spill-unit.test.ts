import { afterAll, describe, expect, it } from 'vitest';
import { CrawlStore } from '../store/index.js';
import { removeTempDirs, tempDir, testRecord } from '../store/test-helpers.js';
import type { Strategy } from '../strategies/index.js';
import type { Outcome } from '../types/index.js';
import { FrontierSpill } from './frontier-spill.js';

afterAll(removeTempDirs);

/** A frontier that is a list of URLs, recording each queueLinks call. */
function listStrategy(): Strategy & { queued: string[]; calls: Outcome[] } {
  const queued: string[] = [];
  const calls: Outcome[] = [];
  return {
    name: 'list',
    queued,
    calls,
    seed: () => {},
    next: () => undefined,
    observe: (o) => queued.push(...o.links.map((l) => l.url)),
    queueLinks: (o) => {
      calls.push(o);
      queued.push(...o.links.map((l) => l.url));
    },
    stats: () => ({ 'frontier/size': queued.length }),
  };
}

/** Records page i (4 outlinks, none on a failure) and passes it through the spill as the page recorder does. */
function recordPage(store: CrawlStore, spill: FrontierSpill, strategy: Strategy, i: number): void {
  const record = testRecord(i, 4);
  const links = [...(record.outlinks ?? [])];
  const isHeld = spill.shouldHold(links.length);
  store.recordPage(record, undefined);
  const outcome: Outcome = {
    action: { url: record.url, host: record.host, domain: record.domain, depth: record.depth },
    finalUrl: record.url,
    isPage: true,
    reward: record.reward,
    probability: record.probability,
    links,
  };
  if (isHeld) {
    spill.held(store.lastPageId, links.length, outcome.probability);
    strategy.observe({ ...outcome, links: [], areLinksHeld: true });
  } else strategy.observe(outcome);
}

describe('FrontierSpill', () => {
  it('holds links past the bound and hands them back in fetch order while the frontier is under it, once per page, known URLs left out', () => {
    const store = CrawlStore.open(tempDir(), { mode: 'create', warc: false });
    const strategy = listStrategy();
    const known = new Set<string>();
    const spill = new FrontierSpill({
      store,
      strategy,
      isKnown: (url) => known.has(url),
      maxFrontierUrls: 10,
    });
    for (let i = 0; i < 8; i++) recordPage(store, spill, strategy, i);
    // Pages 0 and 1 fit (8 links); page 2 would pass 10: it and every later page are held.
    expect(strategy.queued).toHaveLength(8);
    expect(spill.isHolding).toBe(true);
    // Pages 3 and 7 are failures without links.
    expect(spill.heldLinks).toBe(4 * 4);
    spill.refill();
    // 8 < 10: page 2's links, and the frontier is at the bound.
    expect(strategy.calls.map((o) => o.action.url)).toEqual([testRecord(2).url]);
    expect(strategy.queued).toHaveLength(12);

    strategy.queued.splice(0, strategy.queued.length); // all fetched
    known.add(testRecord(4, 4).outlinks?.[0]?.url as string); // found and fetched meanwhile
    spill.refill();
    // In fetch order until the bound: 0 + 3 + 4 + 4 links.
    expect(strategy.calls.map((o) => o.action.url).slice(1)).toEqual(
      [3, 4, 5, 6].map((i) => testRecord(i).url),
    );
    expect(strategy.queued).toHaveLength(11);
    // Page 4's link known by then is left out.
    expect(strategy.calls[2]?.links.map((l) => l.url)).toEqual(
      testRecord(4, 4)
        .outlinks?.slice(1)
        .map((l) => l.url),
    );
    strategy.queued.splice(0, strategy.queued.length);
    spill.refill();
    // Page 7, a failure without links, is handed over too (the strategy may let go of what it
    // kept for the page).
    expect(strategy.calls).toHaveLength(6);
    expect(strategy.calls[5]?.links).toEqual([]);
    expect(spill.isHolding).toBe(false);
    expect(spill.heldLinks).toBe(0);
    expect(spill.stats()['frontier/held_pages_total']).toBe(6);
    store.close({ status: 'finished' });
  });

  it('hands held pages back most probably relevant first, ties in fetch order, for a strategy that asks so', () => {
    const store = CrawlStore.open(tempDir(), { mode: 'create', warc: false });
    const strategy = { ...listStrategy(), heldLinksOrder: 'probability' as const };
    const spill = new FrontierSpill({ store, strategy, isKnown: () => false, maxFrontierUrls: 3 });
    for (let i = 0; i < 8; i++) recordPage(store, spill, strategy, i);
    expect(strategy.queued).toHaveLength(0); // page 0's four links are past 3 already
    while (spill.isHolding) {
      strategy.queued.splice(0, strategy.queued.length);
      spill.refill();
    }
    // P(relevant): 0.875 for pages 0, 3 and 6 (3 is a failure: 0), 0.125 for the others but the
    // failures 3 and 7.
    expect(strategy.calls.map((o) => o.action.url)).toEqual(
      [0, 6, 1, 2, 4, 5, 3, 7].map((i) => testRecord(i).url),
    );
    store.close({ status: 'finished' });
  });

  it('never holds links from a strategy without queueLinks, nor with no bound', () => {
    const store = CrawlStore.open(tempDir(), { mode: 'create', warc: false });
    const strategy = listStrategy();
    const { queueLinks: _, ...without } = strategy;
    const spills = [
      new FrontierSpill({ store, strategy: without, isKnown: () => false, maxFrontierUrls: 1 }),
      new FrontierSpill({ store, strategy, isKnown: () => false, maxFrontierUrls: false }),
    ];
    for (const spill of spills) expect(spill.shouldHold(1_000)).toBe(false);
    store.close({ status: 'finished' });
  });
});
