/**
 * Relevance feedback on a cluster crawl (real redis-server, a real worker): the dashboard's
 * retraining reads the labelled pages from the worker's WARC file, naming that file when it is
 * not reachable; the model it swaps in reaches the worker through Redis, and the pages the worker
 * judges with it are recorded with its version. A crawl's own `--model` reaches the workers the
 * same way (no copy of the folder on their machines).
 */
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type LocalRedis, startLocalRedis } from 'tres-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../index.js';
import { loadModel } from '../relevance/index.js';
import { sandboxResolveRules } from '../sandbox/index.js';
import { feedbackModelDir } from '../ui/index.js';
import { startTestCrawl, type TestCrawl } from '../ui/test-crawl.js';
import { ClusterKeys } from './cluster-options.js';
import { ClusterCoordinator } from './coordinator.js';
import { connectRedis } from './redis-connection.js';
import { ClusterWorker, type WorkerSummary } from './worker.js';

const NAME = 'feedback';
const PAUSE_AT = 70;

describe('relevance feedback on a cluster crawl', () => {
  let redis: LocalRedis;
  let t: TestCrawl;
  let worker: ClusterWorker;
  let working: Promise<WorkerSummary>;
  const logs: string[] = [];
  beforeAll(async () => {
    redis = await startLocalRedis();
    const coordinator = new ClusterCoordinator({ url: redis.url, name: NAME });
    t = await startTestCrawl({
      pauseAtStep: PAUSE_AT,
      crawler: { maxPages: 90, maxConcurrency: 1, fetchRunner: coordinator, shouldWriteWarc: false },
      feedback: { retrainAfterLabels: false },
    });
    worker = new ClusterWorker({
      url: redis.url,
      name: NAME,
      id: 'wf',
      leaseTtlMs: 1000,
      warcDir: join(t.outDir, '..', 'worker-warc'),
      log: (line) => logs.push(line),
    });
    working = worker.run();
    while (!t.crawler.isPaused || t.crawler.progress().inFlight > 0)
      await new Promise((r) => setTimeout(r, 20));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    worker?.stop();
    await working?.catch(() => {});
    await redis?.stop();
  });

  it('retrains from the worker’s WARC file (naming it when missing) and the new model judges at the worker', async () => {
    const store = t.crawler.openStore!;
    const warcFile = join(t.outDir, '..', 'worker-warc', 'wf.warc.gz');
    expect(existsSync(warcFile)).toBe(true);
    expect(existsSync(join(t.outDir, 'pages.warc.gz'))).toBe(false);
    const pages = store.queryPages({ limit: 500 }).pages.filter((p) => p.isPage && p.domain !== 'evil.test');
    const wrong = pages.filter((p) => t.isRelevant(p.url) !== p.reward > 0);
    const right = pages.filter((p) => t.isRelevant(p.url) === p.reward > 0);
    for (const p of [...wrong.slice(0, 8), ...right.slice(0, 12 - Math.min(8, wrong.length))])
      t.feedback.label(p.id, t.isRelevant(p.url));

    // The worker's file out of reach: the retraining says which file it needs and where it looked.
    renameSync(warcFile, `${warcFile}.away`);
    await expect(t.feedback.retrain()).rejects.toThrow(
      /the WARC file .*wf\.warc\.gz written by a cluster worker is missing/,
    );
    renameSync(`${warcFile}.away`, warcFile);

    const swappedAtMs = performance.now();
    const report = await t.feedback.retrain();
    expect(report.isAccepted).toBe(true);
    expect(t.crawler.judgeVersion).toBe(1);
    const redis1 = await connectRedis(redis.url, 'url');
    expect(await redis1.get(ClusterKeys.of(NAME).judgeVersion)).toBe('1');
    redis1.disconnect();
    // The worker loads it within a lease round (a fifth of the 1 s lease life here).
    while (!logs.some((l) => l.includes('model of version 1'))) {
      expect(performance.now() - swappedAtMs).toBeLessThan(report.trainMs + 10_000);
      await new Promise((r) => setTimeout(r, 20));
    }

    t.crawler.resume();
    await t.done;
    const db = new Database(join(t.outDir, 'crawl.sqlite'), { readonly: true });
    const versions = db
      .prepare('SELECT id, judge_version AS v FROM pages WHERE is_page = 1 ORDER BY id')
      .all() as { id: number; v: number }[];
    db.close();
    expect(versions.filter((r) => r.id <= PAUSE_AT).every((r) => r.v === 0)).toBe(true);
    const after = versions.filter((r) => r.id > PAUSE_AT);
    expect(after.length).toBeGreaterThan(0);
    // Judged by the worker with the swapped-in model, and recorded so.
    expect(after.every((r) => r.v === 1)).toBe(true);
  }, 120_000);

  it('sends the crawl’s own model to the workers through Redis: they need no copy of its folder', async () => {
    const rows = (dir: string) => {
      const db = new Database(join(dir, 'crawl.sqlite'), { readonly: true });
      try {
        return db.prepare('SELECT url, probability, reward FROM pages ORDER BY id').all();
      } finally {
        db.close();
      }
    };
    const base = join(t.outDir, '..');
    const model = join(base, 'model');
    cpSync(feedbackModelDir(t.outDir, 1), model, { recursive: true });
    const options = (outDir: string) => ({
      outDir,
      strategy: 'best-first',
      maxPages: 30,
      maxConcurrency: 1,
      judgeSource: model,
      net: { minDelayMs: 0, allowLoopback: true, resolveRules: sandboxResolveRules(t.sandbox.server) },
    });
    const seeds = t.sandbox.web!.seedUrls(2, { relevant: true });
    const local = join(base, 'own-model-local');
    await new Crawler({ ...options(local), judge: await loadModel(model) }).run(seeds);

    const name = 'own-model';
    const cluster = join(base, 'own-model-cluster');
    const running = new Crawler({
      ...options(cluster),
      judge: await loadModel(model),
      fetchRunner: new ClusterCoordinator({ url: redis.url, name }),
      shouldWriteWarc: false,
    }).run(seeds);
    // The coordinator has published the crawl: the folder goes away before any worker reads it.
    const r = await connectRedis(redis.url, 'url');
    while ((await r.get(ClusterKeys.of(name).config)) === null)
      await new Promise((res) => setTimeout(res, 10));
    r.disconnect();
    rmSync(model, { recursive: true, force: true });
    const other = new ClusterWorker({ url: redis.url, name, id: 'wm', warcDir: false });
    const otherRun = other.run();
    await running;
    other.stop();
    expect((await otherRun).fetched).toBeGreaterThan(0);
    // Judged by the same model as the local crawl: the same pages, probabilities and rewards.
    expect(rows(cluster)).toEqual(rows(local));
  }, 60_000);
});
