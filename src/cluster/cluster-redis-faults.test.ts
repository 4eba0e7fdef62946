/**
 * What a cluster crawl does when its Redis fails under it: restarted empty, unreachable for longer
 * than the crawl waits, full (maxmemory), a worker's connections cut (CLIENT KILL), every client
 * paused past the lease life (CLIENT PAUSE). Each ends in recovery or in a ClusterFaultError
 * (one line, an exit code of its own) after which `--resume` finishes the crawl; in every case
 * each page is recorded once, the budget is reached, only fetches in flight reach the server
 * twice, and the server's own log shows no two requests to one host closer than the minimum delay.
 * The coordinator and two workers run in this process, with two-second leases; Redis is a real
 * redis-server that the tests stop, start again on the same port, fill or pause. Each test prints
 * the times it measured (time to notice, time to recover), which docs/scale-out.md's fault table
 * reports.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closestGapMs, type LocalRedis, type LoggedWeb, startLocalRedis, startLoggedWeb } from 'tres-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../index.js';
import { keywordsOf } from '../sandbox/index.js';
import { fetchedUrls } from '../store/test-helpers.js';
import { ClusterFaultError } from './cluster-fault.js';
import { ClusterCoordinator } from './coordinator.js';
import { connectRedis } from './redis-connection.js';
import { ClusterWorker, type WorkerSummary } from './worker.js';

const TOPIC = 'computer hardware';
const BUDGET = 100;
const CONCURRENCY = 4;
const MIN_DELAY_MS = 60;
const LEASE_TTL_MS = 2000;
/** The server's clock and the workers' differ by scheduling jitter (as in cluster-kill.test.ts). */
const GAP_TOLERANCE_MS = 15;

describe('a cluster crawl whose Redis fails', () => {
  let site: LoggedWeb;
  let base: string;
  beforeAll(async () => {
    site = await startLoggedWeb({
      seed: 9,
      hostCount: 40,
      pageCount: 8000,
      topics: [TOPIC, 'cooking recipes'],
      relevantTopic: TOPIC,
      delayMs: [5, 25],
    });
    base = mkdtempSync(join(tmpdir(), 'tres-cluster-faults-'));
  });
  afterAll(async () => {
    await site?.close();
    rmSync(base, { recursive: true, force: true });
  });

  const seeds = () => site.web.seedUrls(3, { relevant: true });
  const t0 = performance.now();
  const now = () => performance.now() - t0;

  /** The coordinator (in a Crawler) of crawl `name`; its messages with their times. */
  function coordinatorOf(url: string, name: string, isResume = false) {
    const said: Array<{ atMs: number; line: string }> = [];
    const coordinator = new ClusterCoordinator({
      url,
      name,
      shards: 8,
      leaseTtlMs: LEASE_TTL_MS,
      log: (line) => said.push({ atMs: now(), line }),
    });
    const crawler = new Crawler({
      outDir: join(base, name, 'crawl'),
      strategy: 'best-first',
      seed: 9,
      keywords: keywordsOf(TOPIC),
      maxPages: BUDGET,
      maxConcurrency: CONCURRENCY,
      shouldWriteWarc: false,
      isResume,
      net: { minDelayMs: MIN_DELAY_MS, resolveRules: site.resolveRules, allowLoopback: true },
      fetchRunner: coordinator,
    });
    const pagesAtMs: number[] = [];
    crawler.on('page', () => pagesAtMs.push(now()));
    return { coordinator, crawler, said, pagesAtMs };
  }

  /** Two workers in this process; their messages are kept. */
  function workersOf(url: string, name: string) {
    const said: string[] = [];
    const workers = ['a', 'b'].map(
      (id) =>
        new ClusterWorker({
          url,
          name,
          id,
          leaseTtlMs: LEASE_TTL_MS,
          warcDir: join(base, name, 'warc'),
          log: (line) => said.push(`${id}: ${line}`),
        }),
    );
    const runs = workers.map((w) => w.run());
    return {
      said,
      stop: async (): Promise<WorkerSummary[]> => {
        for (const w of workers) w.stop();
        return Promise.all(runs);
      },
    };
  }

  /** Each page once, the whole budget; only fetches in flight reach the server twice; delays kept. */
  /**
   * Fetches served twice may be those in flight when the fault hit, plus those in flight when a
   * worker starved of CPU for longer than its lease margin lost a lease (a loaded machine): 2 K.
   */
  function checkCrawl(name: string, inFlightAtFaults = 2 * CONCURRENCY): void {
    const urls = fetchedUrls(join(base, name, 'crawl'));
    expect(urls).toHaveLength(BUDGET);
    expect(new Set(urls).size).toBe(BUDGET);
    const counts = new Map<string, number>();
    for (const r of site.log) {
      if (r.path === '/robots.txt') continue;
      counts.set(`${r.host}${r.path}`, (counts.get(`${r.host}${r.path}`) ?? 0) + 1);
    }
    const refetched = [...counts.values()].filter((n) => n > 1).length;
    expect(refetched).toBeLessThanOrEqual(inFlightAtFaults);
    const gap = closestGapMs(site.log.filter((r) => Number.isFinite(r.endMs))).gapMs;
    expect(gap).toBeGreaterThanOrEqual(MIN_DELAY_MS - GAP_TOLERANCE_MS);
    console.log(
      `${name}: ${urls.length} pages recorded once each, ${refetched} fetched twice, closest gap ${gap.toFixed(0)} ms`,
    );
  }

  async function until(what: () => boolean, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!what()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it('Redis restarted empty mid-crawl: the coordinator recreates the crawl in it and sends what was in flight again; nothing lost, nothing recorded twice', async () => {
    site.log.length = 0;
    const name = 'restart';
    let redis: LocalRedis = await startLocalRedis();
    const port = redis.port;
    const workers = workersOf(redis.url, name);
    const c = coordinatorOf(redis.url, name);
    const running = c.crawler.run(seeds());
    await until(() => c.pagesAtMs.length >= 30);
    await redis.stop();
    // Down for longer than a lease life: every lease has lapsed by the time it is back.
    await new Promise((r) => setTimeout(r, LEASE_TTL_MS + 500));
    redis = await startLocalRedis({ port });
    const upAtMs = now();
    try {
      const summary = await running;
      expect(summary.steps).toBe(BUDGET);
      expect(c.coordinator.stats.recoveries).toBe(1);
      const noticed = c.said.find((s) => s.line.includes('Redis lost the keys'));
      expect(noticed).toBeDefined();
      const noticeMs = (noticed?.atMs ?? 0) - upAtMs;
      const recoverMs = (c.pagesAtMs.find((t) => t > upAtMs) ?? Number.NaN) - upAtMs;
      console.log(
        `restart: noticed ${noticeMs.toFixed(0)} ms after the empty Redis was up, next page recorded after ${recoverMs.toFixed(0)} ms; ${c.coordinator.stats.requestsResent} requests sent again`,
      );
      // Within a lease life of Redis answering again (ioredis reconnects within 2 s).
      expect(noticeMs).toBeLessThan(2000 + LEASE_TTL_MS);
      const summaries = await workers.stop();
      expect(summaries.reduce((n, s) => n + s.fetched + s.failed, 0)).toBeGreaterThanOrEqual(BUDGET);
      expect(workers.said.join('\n')).toContain('lost shard');
      checkCrawl(name);
    } finally {
      await redis.stop();
    }
  }, 120_000);

  it('Redis unreachable for longer than three lease lives: the crawl stops with one clear line (exit code 69), and --resume finishes it', async () => {
    site.log.length = 0;
    const name = 'unreachable';
    let redis: LocalRedis = await startLocalRedis();
    const port = redis.port;
    const workers = workersOf(redis.url, name);
    const c = coordinatorOf(redis.url, name);
    const running = c.crawler.run(seeds());
    await until(() => c.pagesAtMs.length >= 30);
    await redis.stop();
    const downAtMs = now();
    const error = await running.then(
      () => undefined,
      (e: unknown) => e,
    );
    const stopMs = now() - downAtMs;
    console.log(`unreachable: the crawl stopped ${stopMs.toFixed(0)} ms after Redis went away`);
    expect(error).toBeInstanceOf(ClusterFaultError);
    expect((error as ClusterFaultError).exitCode).toBe(69);
    expect((error as Error).message).toMatch(/has not answered for \d+ s .*--resume/);
    expect((error as Error).message).not.toContain('\n');
    expect(c.said.some((s) => s.line.includes('has not answered'))).toBe(true);
    // Three lease lives, plus up to two commands' timeouts (5.2 s), plus scheduling.
    expect(stopMs).toBeLessThan(3 * LEASE_TTL_MS + 2 * 5200 + 4000);
    redis = await startLocalRedis({ port });
    try {
      const again = coordinatorOf(redis.url, name, true);
      const summary = await again.crawler.run();
      expect(summary.steps).toBe(BUDGET);
      await workers.stop();
      checkCrawl(name);
    } finally {
      await redis.stop();
    }
  }, 120_000);

  it('Redis full (maxmemory, noeviction): the crawl stops with one clear line (exit code 71), and --resume finishes it once Redis has room', async () => {
    site.log.length = 0;
    const name = 'full';
    const redis = await startLocalRedis();
    const admin = await connectRedis(redis.url, 'url');
    const workers = workersOf(redis.url, name);
    const c = coordinatorOf(redis.url, name);
    try {
      const running = c.crawler.run(seeds());
      await until(() => c.pagesAtMs.length >= 30);
      await admin.config('SET', 'maxmemory', '1');
      const fullAtMs = now();
      const error = await running.then(
        () => undefined,
        (e: unknown) => e,
      );
      console.log(`full: the crawl stopped ${(now() - fullAtMs).toFixed(0)} ms after Redis filled up`);
      expect(error).toBeInstanceOf(ClusterFaultError);
      expect((error as ClusterFaultError).exitCode).toBe(71);
      expect((error as Error).message).toContain('Redis is out of memory');
      expect((error as Error).message).toContain('--resume');
      await admin.config('SET', 'maxmemory', '0');
      const again = coordinatorOf(redis.url, name, true);
      const summary = await again.crawler.run();
      expect(summary.steps).toBe(BUDGET);
      await workers.stop();
      checkCrawl(name);
    } finally {
      admin.disconnect();
      await redis.stop();
    }
  }, 120_000);

  it('a worker cut off from Redis for longer than its lease (its connections killed again and again): the other takes its shards, it comes back; nothing lost', async () => {
    site.log.length = 0;
    const name = 'partition';
    const redis = await startLocalRedis();
    const admin = await connectRedis(redis.url, 'url');
    const workers = workersOf(redis.url, name);
    const c = coordinatorOf(redis.url, name);
    try {
      const running = c.crawler.run(seeds());
      await until(() => c.pagesAtMs.length >= 30);
      const cutUntil = Date.now() + 2 * LEASE_TTL_MS;
      let kills = 0;
      while (Date.now() < cutUntil) {
        const list = String(await admin.client('LIST'));
        for (const line of list.split('\n')) {
          const id = /^id=(\d+) .*name=tres-worker-a /.exec(line)?.[1];
          if (id !== undefined) {
            await admin.client('KILL', 'ID', id);
            kills++;
          }
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      const summary = await running;
      expect(kills).toBeGreaterThan(0);
      expect(summary.steps).toBe(BUDGET);
      await workers.stop();
      checkCrawl(name);
    } finally {
      admin.disconnect();
      await redis.stop();
    }
  }, 120_000);

  it('every client paused past the lease life (CLIENT PAUSE): leases lapse and are taken again; nothing lost', async () => {
    site.log.length = 0;
    const name = 'pause';
    const redis = await startLocalRedis();
    const admin = await connectRedis(redis.url, 'url');
    const workers = workersOf(redis.url, name);
    const c = coordinatorOf(redis.url, name);
    try {
      const running = c.crawler.run(seeds());
      await until(() => c.pagesAtMs.length >= 30);
      await admin.client('PAUSE', String(2 * LEASE_TTL_MS), 'ALL');
      const pausedAtMs = now();
      const summary = await running;
      const next = c.pagesAtMs.find((t) => t > pausedAtMs + 2 * LEASE_TTL_MS);
      console.log(
        `pause: next page ${((next ?? Number.NaN) - pausedAtMs - 2 * LEASE_TTL_MS).toFixed(0)} ms after the pause ended`,
      );
      expect(summary.steps).toBe(BUDGET);
      await workers.stop();
      checkCrawl(name);
    } finally {
      admin.disconnect();
      await redis.stop();
    }
  }, 120_000);
});
