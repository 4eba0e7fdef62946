/**
 * A worker's life with Redis: live workers are the members of the heartbeat sorted set (their
 * count sets each one's fair share of shards), a worker stopped with Redis up leaves the set, and
 * a worker whose Redis is gone still exits on SIGTERM, within its stop wait, saying why; a worker
 * whose crawl name another crawl took stops with one line and an exit code of its own.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { Redis } from 'ioredis';
import { type LocalRedis, startLocalRedis } from 'tres-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../cli/test-cli.js';
import { ClusterKeys, WORKER_GROUP } from './cluster-options.js';
import { CLUSTER_PROTOCOL, type WorkerCrawlConfig } from './messages.js';
import { connectRedis, ensureGroup } from './redis-connection.js';

const NAME = 'life';
const SHARDS = 4;
const keys = ClusterKeys.of(NAME);

describe('a cluster worker and its Redis', () => {
  let redis: LocalRedis;
  let client: Redis;
  let config: WorkerCrawlConfig;
  beforeAll(async () => {
    redis = await startLocalRedis();
    client = await connectRedis(redis.url, 'url');
    // What a coordinator publishes; no requests will come.
    config = {
      protocol: CLUSTER_PROTOCOL,
      epoch: 1,
      shards: SHARDS,
      net: { minDelayMs: 10 },
      siteMode: 'host',
      urlFilter: {},
      maxDepth: false,
      judge: { keywords: ['gpu'] },
      threshold: 0.5,
      shouldFollowNofollow: false,
      withLinkContext: false,
      shouldScoreAnchors: false,
      parseTimeBudgetMs: false,
    };
    for (let i = 0; i < SHARDS; i++) await ensureGroup(client, keys.requests(i), WORKER_GROUP, '$');
    await client.set(keys.config, JSON.stringify(config));
  });
  const children: ChildProcess[] = [];
  afterAll(async () => {
    // A failed test leaves no worker behind.
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    client?.disconnect();
    await redis?.stop();
  });

  const start = (id: string, name = NAME, quiet = ['--quiet']) => {
    const child = spawnCli([
      'worker',
      '--cluster',
      redis.url,
      '--cluster-name',
      name,
      '--id',
      id,
      '--no-warc',
      '--lease-ttl-ms',
      '1000',
      ...quiet,
    ]);
    children.push(child);
    let stderr = '';
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    return { child, closed: once(child, 'close') as Promise<[number | null]>, stderr: () => stderr };
  };
  /** Lease holders by worker id (tokens are `<id>#<n>`). */
  async function holders(): Promise<Map<string, number>> {
    const values = await client.mget(...Array.from({ length: SHARDS }, (_, i) => keys.lease(i)));
    const out = new Map<string, number>();
    for (const v of values)
      if (v !== null) out.set(v.split('#')[0] as string, (out.get(v.split('#')[0] as string) ?? 0) + 1);
    return out;
  }
  async function until(what: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await what())) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('a worker whose crawl name another crawl took stops with one line and exit code 68; one waiting for a name no crawl has names the crawls there', async () => {
    const name = 'taken';
    const taken = ClusterKeys.of(name);
    for (let i = 0; i < SHARDS; i++) await ensureGroup(client, taken.requests(i), WORKER_GROUP, '$');
    await client.set(taken.config, JSON.stringify({ ...config, crawlId: 'first' }));
    await client.set(taken.coordinatorLock, 'host-1-x', 'PX', 60_000);
    const worker = start('joined', name);
    await until(async () => (await client.get(taken.lease(0))) !== null);
    // A new crawl under the same name (a coordinator without --resume publishes a new id).
    await client.set(taken.config, JSON.stringify({ ...config, epoch: 2, crawlId: 'second' }));
    const [code] = await worker.closed;
    expect(code).toBe(68);
    expect(worker.stderr()).toContain('the crawl "taken" in Redis is another crawl now (id second');
    expect(worker.stderr()).toContain('start a worker for the new crawl');
    expect(worker.stderr().trim().split('\n')).toHaveLength(1);

    // A typo in --cluster-name: the worker waits, as for a coordinator yet to start, and says
    // which crawls this Redis holds.
    const typo = start('typo', 'takne', []);
    await until(async () => typo.stderr().includes('waiting for a coordinator'));
    expect(typo.stderr()).toContain(
      'Redis holds the crawl "taken" with a coordinator running (is --cluster-name right?)',
    );
    typo.child.kill('SIGTERM');
    expect((await typo.closed)[0]).toBe(0);
  }, 120_000);

  it('shares the shards by the heartbeat set, leaves it on SIGTERM, and exits on SIGTERM with Redis gone', async () => {
    const one = start('one');
    const two = start('two');
    // Two live workers in the set: a fair share of 2 shards each.
    await until(async () => {
      const h = await holders();
      return h.get('one') === 2 && h.get('two') === 2;
    });
    expect(await client.zrange(keys.workers, '0', '-1')).toEqual(expect.arrayContaining(['one', 'two']));
    expect(await client.keys(`${keys.prefix}worker:*`)).toEqual([]);

    // Stopped with Redis up: gives its shards back and leaves the set; the other takes them all.
    two.child.kill('SIGTERM');
    const [twoCode] = await two.closed;
    expect(twoCode).toBe(0);
    expect(await client.zscore(keys.workers, 'two')).toBeNull();
    await until(async () => (await holders()).get('one') === SHARDS);

    // Redis gone: the stop cannot report or give leases back; the worker says so and exits.
    await redis.stop();
    const stoppedAt = Date.now();
    one.child.kill('SIGTERM');
    const [oneCode] = await one.closed;
    const tookMs = Date.now() - stoppedAt;
    expect(oneCode).toBe(2);
    expect(one.stderr()).toContain('did not answer for 5000 ms after the stop');
    expect(one.stderr()).toContain('--cluster');
    // The stop wait (5 s) and the process's own start-up slack, not forever.
    expect(tookMs).toBeLessThan(20_000);
  }, 150_000);
});
