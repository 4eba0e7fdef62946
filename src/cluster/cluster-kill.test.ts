/**
 * Nothing lost: real `tres worker` processes and a real coordinator, real SIGKILL and SIGSTOP. A
 * worker killed mid-crawl has its shards and pending requests taken over; a worker paused past its
 * lease sends nothing to the hosts another worker took meanwhile once it wakes (fencing); a
 * coordinator killed mid-crawl resumes and records what arrived meanwhile. Every page is recorded
 * exactly once, crawl.sqlite, pages.jsonl and the workers' WARC files agree, refetches stay within
 * the fetches in flight, and the replay server's own log shows no two requests to one host closer
 * than the minimum delay, across the death, the pause and the lease handovers too.
 */
import { once } from 'node:events';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { closestGapMs, type LocalRedis, type LoggedWeb, startLocalRedis, startLoggedWeb } from 'tres-testing';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain, spawnCli } from '../cli/test-cli.js';
import { systemClock } from '../common/index.js';
import { keywordsOf } from '../sandbox/index.js';
import { decodeOutlinks } from '../store/index.js';
import { ClusterKeys } from './cluster-options.js';
import { connectRedis } from './redis-connection.js';

const TOPIC = 'computer hardware';
const BUDGET = 120;
const CONCURRENCY = 4;
const MIN_DELAY_MS = 60;
/** The server's clock and the workers' differ by scheduling jitter; a gap may look this much shorter. */
const GAP_TOLERANCE_MS = 15;
/**
 * A request whose fencing check passed just before its lease was taken may still reach the
 * server after; and the server (this process) may stamp an earlier arrival late under load.
 */
const FENCE_TOLERANCE_MS = 200;

interface StoredRow {
  url: string;
  is_page: number;
  warc_file: string | null;
  warc_file_start: number | null;
  warc_end: number | null;
  outlinks: Buffer | null;
}

describe('a cluster crawl survives SIGKILL and SIGSTOP', () => {
  let redis: LocalRedis;
  let site: LoggedWeb;
  const base = tempDir('tres-cluster-kill-');
  let seedsFile: string;
  beforeAll(async () => {
    [redis, site] = await Promise.all([
      startLocalRedis(),
      startLoggedWeb({
        seed: 9,
        hostCount: 40,
        pageCount: 8000,
        topics: [TOPIC, 'cooking recipes'],
        relevantTopic: TOPIC,
        delayMs: [5, 25],
      }),
    ]);
    seedsFile = join(base, 'seeds.txt');
    writeFileSync(seedsFile, `${site.web.seedUrls(3, { relevant: true }).join('\n')}\n`);
  });
  afterAll(async () => {
    await Promise.all([redis?.stop(), site?.close()]);
  });

  const crawlArgs = (out: string, name: string) => [
    'crawl',
    '--seeds',
    seedsFile,
    '--out',
    out,
    '--keywords',
    keywordsOf(TOPIC).join(','),
    '--strategy',
    'best-first',
    '--max-pages',
    String(BUDGET),
    '--concurrency',
    String(CONCURRENCY),
    '--min-delay-ms',
    String(MIN_DELAY_MS),
    '--allow-loopback',
    '--resolve',
    site.resolveRules.join(','),
    '--cluster',
    redis.url,
    '--cluster-name',
    name,
    '--cluster-shards',
    '8',
    '--quiet',
  ];
  const worker = (name: string, id: string, extra: string[] = ['--quiet']) => {
    const child = spawnCli([
      'worker',
      '--cluster',
      redis.url,
      '--cluster-name',
      name,
      '--id',
      id,
      '--warc-dir',
      join(base, name, 'warc'),
      ...extra,
    ]);
    let stderr = '';
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    return { child, closed: once(child, 'close'), stderr: () => stderr };
  };
  const jsonlLines = (out: string) => {
    const path = join(out, 'pages.jsonl');
    return existsSync(path) ? readFileSync(path, 'utf8').split('\n').length - 1 : 0;
  };
  async function waitForLines(out: string, n: number): Promise<void> {
    const deadline = Date.now() + 150_000;
    while (jsonlLines(out) < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  }

  /** The store, the JSON lines and the WARC files agree: one row, one line, one record per URL. */
  function checkAgreement(out: string): string[] {
    const db = new Database(join(out, 'crawl.sqlite'), { readonly: true });
    const rows = db
      .prepare('SELECT url, is_page, warc_file, warc_file_start, warc_end, outlinks FROM pages ORDER BY id')
      .all() as StoredRow[];
    db.close();
    const urls = rows.map((r) => r.url);
    expect(urls).toHaveLength(BUDGET);
    expect(new Set(urls).size).toBe(BUDGET);
    const lines = readFileSync(join(out, 'pages.jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { url: string }).url)).toEqual(urls);
    let archived = 0;
    for (const r of rows) {
      if (r.warc_file === null) continue;
      archived++;
      const bytes = readFileSync(r.warc_file).subarray(r.warc_file_start ?? 0, r.warc_end ?? 0);
      const text = gunzipSync(bytes).toString('latin1');
      expect(text).toContain(`WARC-Target-URI: ${r.url}`);
    }
    // Every page (2xx HTML) was archived by the worker that fetched it.
    expect(archived).toBeGreaterThanOrEqual(rows.filter((r) => r.is_page === 1).length);
    // A row's outlinks leave out the pages recorded before it, as a local crawl's do (a resume's
    // replay and `tres repair` read them so), though the worker that parsed it could not know them.
    const earlier = new Set<string>();
    const known: string[] = [];
    for (const r of rows) {
      known.push(
        ...decodeOutlinks(r.outlinks)
          .filter((l) => earlier.has(l.url))
          .map((l) => `${r.url} -> ${l.url}`),
      );
      earlier.add(r.url);
    }
    expect(known).toEqual([]);
    return urls;
  }

  /** Paths the server served more than once (robots.txt aside). */
  function refetches(): number {
    const counts = new Map<string, number>();
    for (const r of site.log) {
      if (r.path === '/robots.txt') continue;
      const key = `${r.host}${r.path}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return [...counts.values()].filter((n) => n > 1).length;
  }

  function robotsPerHost(): number {
    const counts = new Map<string, number>();
    for (const r of site.log) if (r.path === '/robots.txt') counts.set(r.host, (counts.get(r.host) ?? 0) + 1);
    return Math.max(0, ...counts.values());
  }

  it('a worker killed mid-crawl: another takes its shards, nothing lost, politeness kept', async () => {
    site.log.length = 0;
    const name = 'worker-kill';
    const out = join(base, name, 'crawl');
    const a = worker(name, 'a');
    const b = worker(name, 'b');
    const crawl = runMain(crawlArgs(out, name));
    await waitForLines(out, 40);
    a.child.kill('SIGKILL');
    await a.closed;
    const result = await crawl;
    b.child.kill('SIGTERM');
    await b.closed;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(b.stderr()).toBe('');
    checkAgreement(out);
    // Only what the dead worker had in flight (at most K) reached the server twice.
    expect(refetches()).toBeLessThanOrEqual(CONCURRENCY);
    expect(closestGapMs(site.log.filter((r) => Number.isFinite(r.endMs))).gapMs).toBeGreaterThanOrEqual(
      MIN_DELAY_MS - GAP_TOLERANCE_MS,
    );
    // Once per host per worker lifetime: the dead worker and its successor.
    expect(robotsPerHost()).toBeLessThanOrEqual(2);

    // export --with-text reads each page's text from the WARC file of the worker that fetched it,
    // and names a file that is not where the store says (nor in <crawl>/warc/).
    const exported = await runMain(['export', out, '--with-text', '--format', 'jsonl', '--relevant-only']);
    expect(exported.code).toBe(0);
    const texts = exported.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { text: string }).text);
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((t) => t.length > 0)).toBe(true);
    renameSync(join(base, name, 'warc'), join(base, name, 'warc-moved'));
    const missing = await runMain(['export', out, '--with-text', '--format', 'jsonl']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('written by a cluster worker is missing here');
  }, 300_000);

  it('a worker paused past its lease (SIGSTOP) fetches nothing from hosts another worker took: delays kept, nothing recorded twice', async () => {
    site.log.length = 0;
    const name = 'worker-pause';
    const out = join(base, name, 'crawl');
    const ttl = 1500;
    // a says when it loses shards (that is how the test knows the lease lapsed); b stays quiet.
    const a = worker(name, 'a', ['--lease-ttl-ms', String(ttl)]);
    const b = worker(name, 'b', ['--lease-ttl-ms', String(ttl), '--quiet']);
    const crawl = runMain(crawlArgs(out, name));
    await waitForLines(out, 20);
    // a holds shards when it is paused (under load it may start after b has taken them all).
    const client = await connectRedis(redis.url, 'url');
    const leases = Array.from({ length: 8 }, (_, i) => ClusterKeys.of(name).lease(i));
    const deadline = Date.now() + 60_000;
    while (!(await client.mget(...leases)).some((v) => v?.startsWith('a#')) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    client.disconnect();
    a.child.kill('SIGSTOP');
    const pausedAt = jsonlLines(out);
    // Past a's leases (and its heartbeat): b takes every shard and a's pending requests.
    await new Promise((r) => setTimeout(r, ttl + 1200));
    a.child.kill('SIGCONT');
    const wokeAt = jsonlLines(out);
    const result = await crawl;
    b.child.kill('SIGTERM');
    a.child.kill('SIGTERM');
    await Promise.all([a.closed, b.closed]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(b.stderr()).toBe('');
    // The lease did lapse under a, and the crawl went on meanwhile (b). On a quiet machine b may
    // finish the whole budget before a wakes; a's requests in flight when it was paused still
    // meet the fence then, so the checks below hold either way.
    expect(a.stderr()).toContain('lost shard');
    expect(a.stderr()).not.toMatch(/request .* of shard/);
    expect(wokeAt).toBeGreaterThan(pausedAt);
    checkAgreement(out);
    // a's fetches in flight at the pause, plus b's at a lease it lost while starved of CPU for
    // longer than the lease margin (1.5 s leases on a machine at load 20-27: seen 6 and 11).
    expect(refetches()).toBeLessThanOrEqual(3 * CONCURRENCY);
    expect(closestGapMs(site.log.filter((r) => Number.isFinite(r.endMs))).gapMs).toBeGreaterThanOrEqual(
      MIN_DELAY_MS - GAP_TOLERANCE_MS,
    );
  }, 300_000);

  it('a worker whose leases another holder took sends no further request to their hosts (fencing check)', async () => {
    site.log.length = 0;
    const name = 'lease-taken';
    const out = join(base, name, 'crawl');
    // Renewals every 4 s: without the fencing check the worker would go on fetching until then.
    const a = worker(name, 'a', ['--lease-ttl-ms', '20000', '--quiet']);
    const crawl = runMain(crawlArgs(out, name));
    await waitForLines(out, 20);
    const client = await connectRedis(redis.url, 'url');
    const keys = ClusterKeys.of(name);
    const leases = Array.from({ length: 8 }, (_, i) => keys.lease(i));
    // Another holder has every lease now (as after a's had expired unnoticed).
    const steal = client.multi();
    for (const key of leases) steal.set(key, 'intruder#1', 'PX', 60_000);
    await steal.exec();
    const takenAtMs = systemClock.monotonicMs();
    await new Promise((r) => setTimeout(r, 1500));
    const during = site.log.filter((r) => r.startMs > takenAtMs + FENCE_TOLERANCE_MS);
    // The intruder goes: a takes the shards back and the crawl ends complete.
    await client.del(...leases);
    client.disconnect();
    const result = await crawl;
    a.child.kill('SIGTERM');
    await a.closed;
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(during.map((r) => `${r.host}${r.path}`)).toEqual([]);
    checkAgreement(out);
    expect(refetches()).toBeLessThanOrEqual(CONCURRENCY);
    expect(closestGapMs(site.log.filter((r) => Number.isFinite(r.endMs))).gapMs).toBeGreaterThanOrEqual(
      MIN_DELAY_MS - GAP_TOLERANCE_MS,
    );
  }, 300_000);

  it('a coordinator killed mid-crawl resumes: what arrived meanwhile is recorded once', async () => {
    site.log.length = 0;
    const name = 'coordinator-kill';
    const out = join(base, name, 'crawl');
    const w = worker(name, 'w');
    const coordinator = spawnCli(crawlArgs(out, name));
    const closed = once(coordinator, 'close');
    let coordinatorErr = '';
    coordinator.stderr?.on('data', (d) => {
      coordinatorErr += d;
    });
    await waitForLines(out, 40);
    coordinator.kill('SIGKILL');
    await closed;
    const before = jsonlLines(out);
    expect(coordinatorErr).toBe('');
    expect(before).toBeGreaterThanOrEqual(40);
    expect(before).toBeLessThan(BUDGET);
    // The worker keeps answering what it had: those outcomes wait in the stream.
    await new Promise((r) => setTimeout(r, 300));
    const resumed = await runMain([
      'crawl',
      '--resume',
      out,
      '--cluster',
      redis.url,
      '--cluster-name',
      name,
      '--cluster-shards',
      '8',
      '--quiet',
    ]);
    w.child.kill('SIGTERM');
    await w.closed;
    // The killed coordinator's lock lives on until it expires: the resume says it waits for it.
    expect(
      resumed.stderr.split('\n').filter((l) => l !== '' && !l.includes('waiting to see whether it is alive')),
    ).toEqual([]);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`pages fetched   ${BUDGET}`);
    checkAgreement(out);
    expect(refetches()).toBeLessThanOrEqual(CONCURRENCY);
    expect(closestGapMs(site.log.filter((r) => Number.isFinite(r.endMs))).gapMs).toBeGreaterThanOrEqual(
      MIN_DELAY_MS - GAP_TOLERANCE_MS,
    );
  }, 300_000);
});
