import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Redis } from 'ioredis';
import { type LocalRedis, startLocalRedis } from 'tres-testing';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlerOptions } from '../index.js';
import { Crawler } from '../index.js';
import { sendHtml, startServer, type TestServer } from '../net/test-servers.js';
import { readWarc } from '../store/test-helpers.js';
import { ClusterKeys, shardOf } from './cluster-options.js';
import { ClusterCoordinator } from './coordinator.js';
import { connectRedis } from './redis-connection.js';
import { ClusterWorker } from './worker.js';

const SHARDS = 2;
/** Two hosts in different shards: a redirect from one to the other crosses shards. */
const [HOME, AWAY] = (() => {
  const home = 'home.test';
  for (let i = 0; i < 100; i++) {
    const away = `away${i}.test`;
    if (shardOf(away, SHARDS) !== shardOf(home, SHARDS)) return [home, away];
  }
  throw new Error('no host in the other shard');
})() as [string, string];

function web(req: { url?: string }, res: Parameters<typeof sendHtml>[0], host: string): void {
  const path = req.url ?? '/';
  const page = (title: string, links: string[] = []) =>
    sendHtml(
      res,
      `<html><title>${title}</title><body>pages about crawling ${links.map((l) => `<a href="${l}">more crawling</a>`).join(' ')}</body></html>`,
    );
  if (host === HOME && path === '/robots.txt') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`User-agent: *\nSitemap: http://${HOME}/sitemap.xml\n`);
  } else if (host === HOME && path === '/sitemap.xml') {
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://${HOME}/listed-1</loc></url><url><loc>http://${HOME}/listed-2</loc></url></urlset>`,
    );
  } else if (host === HOME && path === '/') page('home', ['/go', '/stay']);
  else if (host === HOME && path === '/go') {
    res.writeHead(301, { location: `http://${AWAY}/landing` });
    res.end();
  } else if (host === HOME && path === '/stay') {
    res.writeHead(302, { location: `/stayed` });
    res.end();
  } else if (path === '/loop') {
    // HOME/loop -> AWAY/loop -> HOME/loop: a loop through two shards.
    res.writeHead(302, { location: `http://${host === HOME ? AWAY : HOME}/loop` });
    res.end();
  } else if (path === '/robots.txt') {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end();
  } else page(`${host}${path}`);
}

function rows(
  dir: string,
): Array<{ url: string; final_url: string; status: number; error_code: string | null }> {
  const db = new Database(join(dir, 'crawl.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT url, final_url, status, error_code FROM pages ORDER BY url').all() as never;
  } finally {
    db.close();
  }
}

describe('a cluster crawl with redirects across shards and sitemaps', () => {
  let redis: LocalRedis;
  let client: Redis;
  let server: TestServer;
  const base = tempDir('tres-cluster-routing-');
  beforeAll(async () => {
    [redis, server] = await Promise.all([startLocalRedis(), startServer(web)]);
    client = await connectRedis(redis.url, 'url');
  });
  afterAll(async () => {
    client?.disconnect();
    await Promise.all([server?.close(), redis?.stop()]);
  });

  const options = (outDir: string): CrawlerOptions => ({
    outDir,
    strategy: 'bfs',
    keywords: ['crawling'],
    maxPages: 20,
    maxConcurrency: 2,
    sitemaps: {},
    net: { minDelayMs: 50, resolveRules: [server.rule], allowLoopback: true },
  });

  it('routes a redirect to the shard owning its target and reads sitemaps at the seed host’s owner, recording what a local crawl records', async () => {
    const local = join(base, 'local');
    await new Crawler(options(local)).run([`http://${HOME}/`]);

    server.requests.length = 0;
    const name = 'routing';
    const keys = ClusterKeys.of(name);
    const coordinator = new ClusterCoordinator({ url: redis.url, name, shards: SHARDS });
    const crawl = join(base, 'cluster');
    const running = new Crawler({ ...options(crawl), fetchRunner: coordinator, shouldWriteWarc: false }).run([
      `http://${HOME}/`,
    ]);
    // Another worker holds the shard of AWAY (a lease no process renews), until the redirect
    // has been handed on to it; then it is free, and the one worker takes it.
    while ((await client.get(keys.config)) === null) await new Promise((r) => setTimeout(r, 10));
    const awayLease = keys.lease(shardOf(AWAY, SHARDS));
    await client.set(awayLease, 'other#1', 'PX', 60_000);
    const worker = new ClusterWorker({
      url: redis.url,
      name,
      id: 'w1',
      leaseTtlMs: 1000,
      warcDir: join(base, 'warc'),
    });
    const working = worker.run();
    while (coordinator.stats.redirectsRouted === 0) await new Promise((r) => setTimeout(r, 20));
    const freedAtMs = performance.now();
    await client.del(awayLease);
    const summary = await running;
    worker.stop();
    const done = await working;

    // The same records as the local crawl: the redirect followed, the sitemap's pages crawled.
    expect(rows(crawl)).toEqual(rows(local));
    const go = rows(crawl).find((r) => r.url === `http://${HOME}/go`);
    expect(go).toMatchObject({ final_url: `http://${AWAY}/landing`, status: 200, error_code: null });
    expect(rows(crawl).map((r) => r.url)).toEqual(
      expect.arrayContaining([`http://${HOME}/listed-1`, `http://${HOME}/listed-2`]),
    );
    expect(summary.steps).toBe(rows(local).length);
    // AWAY was contacted only once its shard was this worker's.
    const away = server.requests.filter((r) => r.host === AWAY);
    expect(away.length).toBeGreaterThan(0);
    expect(Math.min(...away.map((r) => r.atMs))).toBeGreaterThan(freedAtMs);
    // The sitemap was fetched by the worker: its response is in the worker's WARC file.
    const records = await readWarc(done.warcFile as string);
    const uris = records.filter((r) => r.type === 'response').map((r) => r.headers.get('warc-target-uri'));
    expect(uris).toContain(`http://${HOME}/sitemap.xml`);
    expect(coordinator.stats.redirectsRouted).toBe(1);
  }, 60_000);

  it('finds a redirect loop that runs through two workers’ shards, as a local crawl does', async () => {
    const seeds = [`http://${HOME}/loop`];
    const local = join(base, 'loop-local');
    await new Crawler({ ...options(local), sitemaps: false }).run(seeds);
    expect(rows(local)).toEqual([
      expect.objectContaining({ url: `http://${HOME}/loop`, error_code: 'TRES_REDIRECT_LOOP' }),
    ]);

    server.requests.length = 0;
    const name = 'loop';
    const keys = ClusterKeys.of(name);
    const coordinator = new ClusterCoordinator({ url: redis.url, name, shards: SHARDS });
    const running = new Crawler({
      ...options(join(base, 'loop-cluster')),
      sitemaps: false,
      fetchRunner: coordinator,
      shouldWriteWarc: false,
    }).run(seeds);
    // Both shards held by no process until both workers are up; then one is freed at a time, so
    // that each worker takes one (its fair share of 2 shards among 2 workers).
    while ((await client.get(keys.config)) === null) await new Promise((r) => setTimeout(r, 10));
    const leases = [keys.lease(0), keys.lease(1)];
    for (const lease of leases) await client.set(lease, 'other#1', 'PX', 60_000);
    const workers = ['w1', 'w2'].map(
      (id) =>
        new ClusterWorker({ url: redis.url, name, id, leaseTtlMs: 1000, warcDir: join(base, `loop-${id}`) }),
    );
    const working = workers.map((w) => w.run());
    while ((await client.zcard(keys.workers)) < 2) await new Promise((r) => setTimeout(r, 20));
    for (const lease of leases) {
      await client.del(lease);
      while (((await client.get(lease)) ?? 'other').startsWith('other'))
        await new Promise((r) => setTimeout(r, 20));
    }
    const holders = await client.mget(...leases);
    expect(new Set(holders.map((h) => h?.split('#')[0])).size).toBe(2);
    await running;
    for (const w of workers) w.stop();
    await Promise.all(working);

    expect(rows(join(base, 'loop-cluster'))).toEqual(rows(local));
    expect(coordinator.stats.redirectsRouted).toBe(1);
    // Each hop fetched once: the loop was seen across the two workers, not bounced until the cap.
    const hops = server.requests.filter((r) => r.path === '/loop').map((r) => r.host);
    expect(hops).toEqual([HOME, AWAY]);
  }, 60_000);
});
