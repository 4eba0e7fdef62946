/**
 * `npm run bench -- ui`: what the dashboard costs a crawl. The same crawl of a generated sandbox
 * web (K = 16, minDelayMs 0, best-first, keyword judge) runs alternately without and with the
 * dashboard of `tres crawl --ui` (monitor on the crawl's events, server, and a client that polls
 * it as an open dashboard page does: status, metrics, pages and feedback every 2 s, Prometheus
 * every 5 s). Pages/s of each run, their means, and the slowdown go to results/ui/ui-cost.json
 * and ui-cost.md.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Crawler } from '../crawl/crawler.js';
import { sandboxResolveRules, serveSandbox } from '../sandbox/index.js';
import { keywordsOf } from '../sandbox/vocabulary.js';
import { CrawlMonitor } from '../ui/crawl-monitor.js';
import { liveSource } from '../ui/dashboard-source.js';
import { RelevanceFeedback } from '../ui/feedback.js';
import { startDashboard } from '../ui/server.js';
import { benchEnv } from './bench-env.js';

/** Options of {@link runUiCostBench}. */
export interface UiCostBenchOptions {
  /** Pages per crawl. @default 4000 */
  maxPages?: number;
  /** Runs of each kind (after one warm-up run of each). @default 3 */
  repeats?: number;
  /** Fetches in flight K. @default 16 */
  concurrency?: number;
  outDir: string;
  command?: string;
}

const TOPIC = 'computer hardware';

/** Runs the benchmark; resolves to what it wrote. */
export async function runUiCostBench(options: UiCostBenchOptions): Promise<unknown> {
  const o = { maxPages: 4000, repeats: 3, concurrency: 16, ...options };
  mkdirSync(o.outDir, { recursive: true });
  const webOptions = {
    seed: 11,
    hostCount: 200,
    pageCount: 40_000,
    topics: [TOPIC, 'cooking recipes', 'football league'],
    relevantTopic: TOPIC,
  };
  const sandbox = await serveSandbox({ web: webOptions });
  const work = mkdtempSync(join(tmpdir(), 'tres-ui-cost-'));
  const seeds = sandbox.web!.seedUrls(5, { relevant: true });
  const runs: { withUi: boolean; pagesPerSec: number; steps: number; requests: number }[] = [];
  let n = 0;
  const crawl = async (withUi: boolean) => {
    const outDir = join(work, `run-${n++}`);
    const crawler = new Crawler({
      outDir,
      keywords: keywordsOf(TOPIC),
      strategy: 'best-first',
      maxPages: o.maxPages,
      maxConcurrency: o.concurrency,
      net: { minDelayMs: 0, allowLoopback: true, resolveRules: sandboxResolveRules(sandbox.server) },
    });
    const done = crawler.run(seeds);
    let requests = 0;
    let stopPolling = () => {};
    let closeUi = async () => {};
    if (withUi) {
      const store = crawler.openStore!;
      const monitor = new CrawlMonitor().attach(crawler);
      const feedback = new RelevanceFeedback({
        crawler,
        store,
        outDir,
        threshold: 0.5,
        keywords: keywordsOf(TOPIC),
      });
      const ui = await startDashboard(
        liveSource({ crawler, store, monitor, feedback, strategy: 'best-first', outDir }),
        { port: 0 },
      );
      const get = (path: string) =>
        fetch(`${ui.url}${path}`)
          .then((r) => r.text())
          .then(() => {
            requests++;
          })
          .catch(() => {});
      const page = setInterval(() => {
        for (const p of ['api/status', 'api/metrics', 'api/pages?limit=50', 'api/feedback']) void get(p);
      }, 2000);
      const prom = setInterval(() => void get('metrics'), 5000);
      stopPolling = () => {
        clearInterval(page);
        clearInterval(prom);
      };
      closeUi = () => ui.close();
    }
    const summary = await done;
    stopPolling();
    await closeUi();
    rmSync(outDir, { recursive: true, force: true });
    return { withUi, pagesPerSec: summary.pagesPerSec, steps: summary.steps, requests };
  };
  try {
    await crawl(false); // warm-up
    await crawl(true);
    for (let r = 0; r < o.repeats; r++) {
      // Alternate, so a drift of the machine's load hits both kinds alike.
      for (const withUi of r % 2 === 0 ? [false, true] : [true, false]) {
        const run = await crawl(withUi);
        runs.push(run);
        console.log(`ui cost: ${withUi ? 'with   ' : 'without'} --ui: ${run.pagesPerSec.toFixed(1)} pages/s`);
      }
    }
  } finally {
    await sandbox.close();
    rmSync(work, { recursive: true, force: true });
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const without = runs.filter((r) => !r.withUi).map((r) => r.pagesPerSec);
  const withUi = runs.filter((r) => r.withUi).map((r) => r.pagesPerSec);
  const slowdown = 1 - mean(withUi) / mean(without);
  const result = {
    env: benchEnv(),
    command: o.command ?? 'npm run bench -- ui',
    config: { ...o, outDir: undefined, web: webOptions },
    runs,
    meanPagesPerSec: { without: mean(without), with: mean(withUi) },
    slowdown,
  };
  writeFileSync(join(o.outDir, 'ui-cost.json'), `${JSON.stringify(result, null, 2)}\n`);
  const md = [
    '# What the dashboard costs a crawl',
    '',
    `Command: \`${result.command}\`. The same crawl (${o.maxPages} pages of a generated web of ${webOptions.pageCount} pages on`,
    `${webOptions.hostCount} hosts, K = ${o.concurrency}, minDelayMs 0, best-first) without and with the dashboard, a client`,
    'polling it like an open page (4 API calls every 2 s, /metrics every 5 s); runs alternated after one warm-up of each.',
    '',
    '| run | --ui | pages/s | API requests served |',
    '|---|---|---|---|',
    ...runs.map(
      (r, i) => `| ${i + 1} | ${r.withUi ? 'yes' : 'no'} | ${r.pagesPerSec.toFixed(1)} | ${r.requests} |`,
    ),
    '',
    `Mean pages/s: ${mean(without).toFixed(1)} without, ${mean(withUi).toFixed(1)} with the dashboard: ${(100 * slowdown).toFixed(1)}% slower`,
    `(negative: faster; the budget is 5%). Machine: ${result.env.cores} cores (${result.env.cpu}), shared with other work.`,
    '',
  ].join('\n');
  writeFileSync(join(o.outDir, 'ui-cost.md'), md);
  console.log(md);
  return result;
}
