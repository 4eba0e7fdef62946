import { copyFileSync, cpSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { describe, expect, it } from 'vitest';
import { createRng } from '../common/index.js';
import type { CheckpointEvent, CrawlerOptions } from '../crawl/index.js';
import { Crawler } from '../crawl/index.js';
import { keywordsOf, sandboxResolveRules } from '../sandbox/index.js';
import { twoTopicSandbox } from '../sandbox/test-helpers.js';
import { encodeCheckpoint, FRONTIER_SNAPSHOT_FILE } from '../store/index.js';
import { fetchedUrls } from '../store/test-helpers.js';
import { KeywordSet } from '../text/index.js';
import type { Outcome } from '../types/index.js';
import { createStrategy } from './registry.js';
import type { Strategy } from './strategy.js';

const TOPIC = 'astronomy telescopes';
const FIRST_BUDGET = 100;
const BUDGET = 180;

describe('a crawl resumed from its frontier snapshot goes on as if it had not stopped', () => {
  const sandbox = twoTopicSandbox(TOPIC);
  const base = tempDir('tres-frontier-snapshot-');

  const make = (name = 'coverage'): Strategy =>
    createStrategy(name, {
      rng: createRng(9).fork('strategy'),
      keywords: new KeywordSet(keywordsOf(TOPIC), []),
    });
  const crawler = (
    outDir: string,
    strategy: Strategy,
    maxPages: number,
    isResume: boolean,
    extra: Partial<CrawlerOptions> = {},
  ) =>
    new Crawler({
      outDir,
      strategy,
      isResume,
      seed: 9,
      keywords: keywordsOf(TOPIC),
      maxPages,
      maxConcurrency: 1,
      checkpointEveryPages: 40,
      shouldWriteWarc: false,
      net: { minDelayMs: 0, resolveRules: sandboxResolveRules(sandbox().server), allowLoopback: true },
      ...extra,
    });
  const seeds = () => sandbox().web!.seedUrls(2, { relevant: true });
  /** Counts the replayed outcomes the strategy observes. */
  const countingReplays = (strategy: Strategy): { replayed: number } => {
    const counter = { replayed: 0 };
    const observe = strategy.observe.bind(strategy);
    strategy.observe = (outcome: Outcome) => {
      if (outcome.isReplay) counter.replayed++;
      observe(outcome);
    };
    return counter;
  };
  const frontierEvents = (c: Crawler): CheckpointEvent[] => {
    const events: CheckpointEvent[] = [];
    c.on('checkpoint', (e) => {
      if (e.part === 'frontier') events.push(e);
    });
    return events;
  };

  for (const bound of [false, 150] as const) {
    const label = bound === false ? 'no frontier bound' : `links held in the store past ${bound} URLs`;
    it(`coverage, ${label}: stopped and resumed, it fetches what the same crawl fetches uninterrupted (K = 1), replaying no page`, async () => {
      const extra = { maxFrontierUrls: bound };
      const straight = join(base, `straight-${bound}`);
      await crawler(straight, make(), BUDGET, false, extra).run(seeds());
      const stopped = join(base, `stopped-${bound}`);
      const first = crawler(stopped, make(), FIRST_BUDGET, false, extra);
      const saved = frontierEvents(first);
      let heldAtStop = 0;
      first.on('done', (s) => {
        heldAtStop = s.strategyStats['frontier/held_links'] ?? 0;
      });
      await first.run(seeds());
      expect(saved.map((e) => [e.kind, e.afterPage])).toEqual([['saved', FIRST_BUDGET]]);
      if (bound !== false) expect(heldAtStop).toBeGreaterThan(0);

      const strategy = make();
      const counter = countingReplays(strategy);
      const second = crawler(stopped, strategy, BUDGET, true, extra);
      const restored = frontierEvents(second);
      const summary = await second.run();
      expect(restored[0]).toMatchObject({ kind: 'restored', afterPage: FIRST_BUDGET });
      expect(counter.replayed).toBe(0);
      expect(summary.steps).toBe(BUDGET);
      expect(fetchedUrls(stopped)).toEqual(fetchedUrls(straight));
    });
  }

  it('coverage: a kill after a snapshot replays only the pages recorded since, and the crawl goes on', async () => {
    const dir = join(base, 'killed');
    // Snapshots at 20 pages and more apart: one at 60 (the stop), then the crawl goes on to 100.
    await crawler(dir, make(), 60, false, { frontierSnapshotPages: 20 }).run(seeds());
    const older = join(base, 'snapshot-60.bin');
    copyFileSync(join(dir, FRONTIER_SNAPSHOT_FILE), older);
    await crawler(dir, make(), FIRST_BUDGET, true, { frontierSnapshotPages: 1000 }).run();
    // A crawl killed at page 100 before its snapshot there was written left the one of page 60.
    copyFileSync(older, join(dir, FRONTIER_SNAPSHOT_FILE));
    writeFileSync(join(dir, `${FRONTIER_SNAPSHOT_FILE}.tmp`), 'half a snapshot');
    const strategy = make();
    const counter = countingReplays(strategy);
    const resumed = crawler(dir, strategy, BUDGET, true);
    const events = frontierEvents(resumed);
    const summary = await resumed.run();
    expect(events[0]).toMatchObject({ kind: 'restored', afterPage: 60 });
    expect(counter.replayed).toBe(FIRST_BUDGET - 60);
    expect(summary.steps).toBe(BUDGET);
    const urls = fetchedUrls(dir);
    expect(new Set(urls).size).toBe(urls.length);
  });

  it('coverage: without a usable snapshot (none, unreadable, another config) the resume replays every page', async () => {
    const dir = join(base, 'fallback');
    await crawler(dir, make(), FIRST_BUDGET, false).run(seeds());
    const cases: Array<[string, string | undefined]> = [
      ['unreadable', 'cannot be read'],
      ['not a snapshot', 'cannot be read'],
      ['none', undefined],
    ];
    for (const [name, reason] of cases) {
      const copy = join(base, `fallback-${name}`);
      cpSync(dir, copy, { recursive: true });
      if (name === 'unreadable') writeFileSync(join(copy, FRONTIER_SNAPSHOT_FILE), 'not a snapshot');
      else if (name === 'not a snapshot')
        writeFileSync(join(copy, FRONTIER_SNAPSHOT_FILE), encodeCheckpoint({ notes: ['a checkpoint'] }));
      else rmSync(join(copy, FRONTIER_SNAPSHOT_FILE));
      const strategy = make();
      const counter = countingReplays(strategy);
      const resumed = crawler(copy, strategy, FIRST_BUDGET + 20, true);
      const events = frontierEvents(resumed);
      await resumed.run();
      expect(counter.replayed, name).toBe(FIRST_BUDGET);
      const skipped = events.find((e) => e.kind === 'skipped');
      if (reason === undefined) expect(skipped, name).toBeUndefined();
      else expect(skipped?.reason, name).toContain(reason);
      expect(existsSync(join(copy, FRONTIER_SNAPSHOT_FILE)), name).toBe(true); // saved again at the stop
    }
    const other = join(base, 'fallback-config');
    cpSync(dir, other, { recursive: true });
    const strategy = make('coverage:newSiteValue=2');
    const counter = countingReplays(strategy);
    const resumed = crawler(other, strategy, FIRST_BUDGET + 20, true);
    const events = frontierEvents(resumed);
    await resumed.run();
    expect(counter.replayed).toBe(FIRST_BUDGET);
    expect(events[0]).toMatchObject({ kind: 'skipped' });
  });
});
