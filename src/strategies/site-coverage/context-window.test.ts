import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlerOptions } from '../../index.js';
import { Crawler } from '../../index.js';
import { keywordsOf, type Sandbox, sandboxResolveRules, serveSandbox } from '../../sandbox/index.js';
import { decodeOutlinks } from '../../store/index.js';
import { fetchedUrls } from '../../store/test-helpers.js';
import type { LinkContext } from '../../types/index.js';

const TOPIC = 'astronomy telescopes';
const SPEC = 'coverage:contextLeaves=1,contextWords=2';

/** The stored link contexts of a crawl. */
function storedContexts(dir: string): LinkContext[] {
  const db = new Database(join(dir, 'crawl.sqlite'), { readonly: true });
  try {
    const rows = db.prepare('SELECT outlinks FROM pages WHERE outlinks IS NOT NULL').all() as {
      outlinks: Buffer;
    }[];
    return rows.flatMap((r) => decodeOutlinks(r.outlinks).flatMap((l) => (l.context ? [l.context] : [])));
  } finally {
    db.close();
  }
}

/** The most words any leaf around a link gave its context (a leaf's words share one offset). */
function mostWordsOfALeaf(contexts: readonly LinkContext[]): number {
  let most = 0;
  for (const { offsets } of contexts) {
    const counts = new Map<number, number>();
    for (const o of offsets) if (o !== 0) counts.set(o, (counts.get(o) ?? 0) + 1);
    for (const n of counts.values()) most = Math.max(most, n);
  }
  return most;
}

describe('coverage: the context window on the crawl loop', () => {
  let sandbox: Sandbox;
  const base = tempDir('tres-ctx-window-');
  beforeAll(async () => {
    sandbox = await serveSandbox({
      web: {
        seed: 7,
        hostCount: 10,
        pageCount: 800,
        topics: [TOPIC, 'cooking recipes'],
        relevantTopic: TOPIC,
      },
    });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  const options = (outDir: string, extra: Partial<CrawlerOptions> = {}): CrawlerOptions => ({
    outDir,
    strategy: SPEC,
    seed: 3,
    keywords: keywordsOf(TOPIC),
    maxPages: 80,
    maxConcurrency: 1,
    net: { minDelayMs: 0, resolveRules: sandboxResolveRules(sandbox.server), allowLoopback: true },
    ...extra,
  });

  it('stores only the words of the window, and none for links it passes over, and fetches what it would with whole contexts kept', async () => {
    const narrow = join(base, 'narrow');
    const whole = join(base, 'whole');
    const seeds = sandbox.web!.seedUrls(2, { relevant: true });
    await new Crawler(options(narrow)).run(seeds);
    await new Crawler(options(whole, { withLinkContext: true })).run(seeds);

    expect(fetchedUrls(narrow)).toHaveLength(80);
    expect(fetchedUrls(narrow)).toEqual(fetchedUrls(whole));
    const kept = storedContexts(narrow);
    const all = storedContexts(whole);
    // Links found again and kept as queued, or already fetched, have none (448 of 1,532 here).
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(all.length);
    expect(Math.max(...kept.flatMap((c) => Array.from(c.offsets, Math.abs)))).toBe(1);
    expect(mostWordsOfALeaf(kept)).toBe(2);
    // The whole contexts reach further: the window did leave words out.
    expect(Math.max(...all.flatMap((c) => Array.from(c.offsets, Math.abs)))).toBeGreaterThan(1);
    expect(mostWordsOfALeaf(all)).toBeGreaterThan(2);
  }, 60_000);
});
