/**
 * Work-following rebalancing with a real redis-server: a worker that joins a crawl late is handed
 * shards with work (rebalance.ts), instead of keeping the empty shards the first worker gave back
 * by count. The web has four hosts, in four shards of the upper half of the shard range, so the
 * shards given back by count (the least in flight, then the lowest numbers) are all empty: without
 * a handover the late worker fetches nothing. Each page is recorded once, and the server's log
 * shows no two requests to one host closer than the minimum delay across the handovers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closestGapMs, type LocalRedis, type LoggedWeb, startLocalRedis, startLoggedWeb } from 'tres-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../index.js';
import { keywordsOf } from '../sandbox/index.js';
import { fetchedUrls } from '../store/test-helpers.js';
import { shardOf } from './cluster-options.js';
import { ClusterCoordinator } from './coordinator.js';
import { chooseHandover } from './rebalance.js';
import { ClusterWorker } from './worker.js';

const TOPIC = 'computer hardware';
const BUDGET = 300;
/** Pages recorded when the second worker starts. */
const JOIN_AT = 40;
const CONCURRENCY = 8;
const MIN_DELAY_MS = 100;
const LEASE_TTL_MS = 2000;
/** The server's clock and the workers' differ by scheduling jitter (as in cluster-kill.test.ts). */
const GAP_TOLERANCE_MS = 15;

describe('chooseHandover', () => {
  const first = () => 0;
  it('hands the shard closest to half the work to an idle worker, and nothing without two busy shards or an idle worker', () => {
    const loads = new Map([
      ['a', 9],
      ['b', 0],
      ['c', 3],
    ]);
    const mine = [
      { shard: 1, requests: 6 },
      { shard: 2, requests: 2 },
      { shard: 3, requests: 1 },
      { shard: 4, requests: 0 },
    ];
    expect(chooseHandover(mine, 'a', loads, first)).toEqual({ shard: 1, to: 'b', requests: 6 });
    expect(chooseHandover(mine.slice(1), 'a', loads, first)).toEqual({ shard: 2, to: 'b', requests: 2 });
    expect(chooseHandover([mine[0]!, mine[3]!], 'a', loads, first)).toBeUndefined();
    // Not to itself, not to a busy worker, not to one whose load is not published (-1).
    expect(
      chooseHandover(
        mine,
        'a',
        new Map([
          ['a', 0],
          ['c', 3],
          ['d', -1],
        ]),
        first,
      ),
    ).toBeUndefined();
  });
});

describe('a worker joining a crawl late', () => {
  let site: LoggedWeb;
  let redis: LocalRedis;
  let base: string;
  let shards: number;
  beforeAll(async () => {
    site = await startLoggedWeb({
      seed: 9,
      hostCount: 4,
      pageCount: 4000,
      topics: [TOPIC, 'cooking recipes'],
      relevantTopic: TOPIC,
      delayMs: [5, 25],
    });
    // A shard count that puts the four hosts in four shards of the upper half.
    shards = 8;
    while (
      new Set(site.web.hosts.map((h) => shardOf(h, shards))).size < 4 ||
      site.web.hosts.some((h) => shardOf(h, shards) < shards / 2)
    )
      shards++;
    redis = await startLocalRedis();
    base = mkdtempSync(join(tmpdir(), 'tres-cluster-rebalance-'));
  });
  afterAll(async () => {
    await redis?.stop();
    await site?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('is handed shards with work and fetches its part; each page once, the delay kept across handovers', async () => {
    const name = 'late';
    const said: Array<{ atMs: number; line: string }> = [];
    const workerOf = (id: string) =>
      new ClusterWorker({
        url: redis.url,
        name,
        id,
        leaseTtlMs: LEASE_TTL_MS,
        warcDir: join(base, 'warc'),
        log: (line) => said.push({ atMs: performance.now(), line: `${id}: ${line}` }),
      });
    const a = workerOf('a');
    const runA = a.run();
    const crawler = new Crawler({
      outDir: join(base, 'crawl'),
      strategy: 'best-first',
      seed: 9,
      keywords: keywordsOf(TOPIC),
      maxPages: BUDGET,
      maxConcurrency: CONCURRENCY,
      shouldWriteWarc: false,
      net: { minDelayMs: MIN_DELAY_MS, resolveRules: site.resolveRules, allowLoopback: true },
      fetchRunner: new ClusterCoordinator({ url: redis.url, name, shards, leaseTtlMs: LEASE_TTL_MS }),
    });
    const b = workerOf('b');
    let runB: ReturnType<ClusterWorker['run']> | undefined;
    let pages = 0;
    let joinedAtMs = 0;
    crawler.on('page', () => {
      if (++pages !== JOIN_AT) return;
      joinedAtMs = performance.now();
      runB = b.run();
    });
    await crawler.run(site.web.seedUrls(4));
    a.stop();
    b.stop();
    const [sa, sb] = await Promise.all([runA, runB]);
    const handovers = said.filter((s) => s.line.includes('handing shard'));
    const firstMs = (handovers[0]?.atMs ?? Number.NaN) - joinedAtMs;
    console.log(
      `${shards} shards; a: ${sa.fetched} fetched, ${sa.shardsHandedOver} shards handed over; b: ${sb?.fetched} fetched, ${sb?.shardsTaken} shards taken; first handover ${firstMs.toFixed(0)} ms after b started\n${handovers.map((s) => `${((s.atMs - joinedAtMs) / 1000).toFixed(2)} s ${s.line}`).join('\n')}`,
    );
    expect(sa.shardsHandedOver).toBeGreaterThanOrEqual(1);
    // Four busy hosts, one of them or more at b: at least a tenth of the pages after it joined.
    expect(sb?.fetched ?? 0).toBeGreaterThanOrEqual(0.1 * (BUDGET - JOIN_AT));
    const urls = fetchedUrls(join(base, 'crawl'));
    expect(urls).toHaveLength(BUDGET);
    expect(new Set(urls).size).toBe(BUDGET);
    const gap = closestGapMs(site.log.filter((r) => Number.isFinite(r.endMs))).gapMs;
    expect(gap).toBeGreaterThanOrEqual(MIN_DELAY_MS - GAP_TOLERANCE_MS);
  }, 120_000);
});
