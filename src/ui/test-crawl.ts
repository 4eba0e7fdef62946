/**
 * A live crawl with its dashboard for the UI's tests (not part of the build): a small generated
 * web plus one hostile host (`evil.test`) whose titles and URLs carry markup and scripts, a real
 * Crawler, monitor, relevance feedback (on labels and answers to questions) and dashboard server
 * on a free port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CrawlerOptions } from '../index.js';
import { Crawler } from '../index.js';
import { keywordsOf, type Sandbox, sandboxResolveRules, serveSandbox } from '../sandbox/index.js';
import { CrawlMonitor } from './crawl-monitor.js';
import { liveSource } from './dashboard-source.js';
import { type FeedbackOptions, RelevanceFeedback } from './feedback.js';
import { type Dashboard, type DashboardOptions, startDashboard } from './server.js';

export const TOPIC = 'astronomy telescopes';

/** Titles and link targets that would run script if the dashboard used innerHTML. */
export const HOSTILE_TITLE = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">';
const HOSTILE_PAGES: Record<string, string> = {
  '/': `<html><head><title>${HOSTILE_TITLE} astronomy telescopes</title></head><body>
    astronomy telescopes astronomy telescopes
    <a href="/%22%3E%3Cscript%3Ewindow.__xss=3%3C/script%3E">astronomy</a>
    <a href="javascript:window.__xss=4">telescopes</a>
    <a href="/second?q=%3Cimg%20src=x%20onerror=window.__xss=5%3E">second</a></body></html>`,
  '/second': `<html><head><title>"&gt;&lt;img src=x onerror="window.__xss=6"&gt;</title></head><body>page</body></html>`,
};

export interface TestCrawl {
  crawler: Crawler;
  sandbox: Sandbox;
  feedback: RelevanceFeedback;
  dashboard: Dashboard;
  outDir: string;
  /** Resolves to the crawl's summary. */
  done: Promise<unknown>;
  /** Ground truth of a URL of the generated web. */
  isRelevant(url: string): boolean;
  close(): Promise<void>;
}

/** Serves `evil.test`. */
async function hostileServer(): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const body = HOSTILE_PAGES[path];
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return server;
}

/**
 * Starts a crawl that pauses itself after `pauseAtStep` pages (so tests can label and steer it).
 */
export async function startTestCrawl(
  o: {
    pauseAtStep?: number;
    crawler?: Partial<CrawlerOptions>;
    feedback?: FeedbackOptions;
    dashboard?: DashboardOptions;
  } = {},
): Promise<TestCrawl> {
  const sandbox = await serveSandbox({
    web: { seed: 5, hostCount: 10, pageCount: 500, topics: [TOPIC, 'cooking recipes'], relevantTopic: TOPIC },
  });
  const evil = await hostileServer();
  const base = mkdtempSync(join(tmpdir(), 'tres-ui-'));
  const outDir = join(base, 'crawl');
  const rules = sandboxResolveRules(sandbox.server);
  const keywords = keywordsOf(TOPIC);
  const crawler = new Crawler({
    outDir,
    keywords,
    maxPages: 120,
    maxConcurrency: 4,
    strategy: 'best-first',
    net: {
      minDelayMs: 0,
      allowLoopback: true,
      resolveRules: [`evil.test=127.0.0.1:${(evil.address() as AddressInfo).port}`, ...rules],
    },
    progressIntervalMs: 100,
    // The test's own feedback below retrains on labels and answers (one per store).
    retrain: false,
    ...o.crawler,
  });
  const monitor = new CrawlMonitor().attach(crawler);
  if (o.pauseAtStep !== undefined) {
    const at = o.pauseAtStep;
    crawler.on('page', (p) => {
      if (p.step === at) crawler.pause();
    });
  }
  const done = crawler.run(['http://evil.test/', ...sandbox.web!.seedUrls(2, { relevant: true })]);
  done.catch(() => {});
  const store = crawler.openStore;
  if (!store) throw new Error('the crawl did not open its store');
  const feedback = new RelevanceFeedback(
    { crawler, store, outDir, threshold: 0.5, keywords },
    { retrainAfterLabels: 4, ...o.feedback },
  );
  feedback.watchAnswers(crawler);
  const dashboard = await startDashboard(
    liveSource({
      crawler,
      store,
      monitor,
      feedback,
      strategy: 'best-first',
      outDir,
      maxPages: crawler.options.maxPages,
    }),
    { port: 0, ...o.dashboard },
  );
  return {
    crawler,
    sandbox,
    feedback,
    dashboard,
    outDir,
    done,
    isRelevant: (url) => sandbox.web!.labelOf(url) === true,
    close: async () => {
      crawler.resume();
      crawler.stop();
      await done.catch(() => {});
      await dashboard.close();
      await sandbox.close();
      await new Promise<void>((r) => evil.close(() => r()));
      rmSync(base, { recursive: true, force: true });
    },
  };
}
