/**
 * `npm run bench -- ui`: what the dashboard costs a crawl. The same crawl of a generated sandbox
 * web (K = 16, minDelayMs 0, best-first, keyword judge) runs alternately without and with the
 * dashboard of `tres crawl --ui` (monitor on the crawl's events, server, and a client in another
 * process, as a browser is, that polls it as an open dashboard page does: status, metrics, pages
 * and feedback every 2 s, Prometheus every 5 s). Pages/s of each run, their means, and the slowdown go to results/ui/ui-cost.json
 * and ui-cost.md.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Crawler, sandboxResolveRules, serveSandbox } from 'tres-crawler';
import {
  CrawlMonitor,
  keywordsOf,
  liveSource,
  RelevanceFeedback,
  startDashboard,
} from 'tres-crawler/internals';
import { benchEnv } from '../bench-env.js';

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

/** The open page's polling, in a child process: 4 API calls every 2 s, /metrics every 5 s. */
const POLLER = `
const base = process.argv[1];
const get = (p) => fetch(base + p).then((r) => r.text()).then(() => process.stdout.write('.')).catch(() => {});
setInterval(() => { for (const p of ['api/status', 'api/metrics', 'api/pages?limit=50', 'api/feedback']) get(p); }, 2000);
setInterval(() => get('metrics'), 5000);
process.on('SIGTERM', () => process.exit(0));
`;

/**
 * The dashboard's own main-thread work, measured apart from the crawl (robust to a machine whose
 * load swings): the monitor's hooks per page event, and one polling round of an open page (four
 * API calls and a Prometheus scrape) on a store of `pages` pages, answered by the real server.
 */
async function dashboardWork(
  outDir: string,
  pages: number,
): Promise<{ hookUsPerPage: number; pollRoundMs: number }> {
  const monitor = new CrawlMonitor();
  const n = 200_000;
  const event = {
    url: 'http://a.test/x',
    finalUrl: 'http://a.test/x',
    status: 200,
    isPage: true,
    reward: 1,
    probability: 0.9,
    domain: 'a.test',
    depth: 2,
    step: 0,
    newLinks: 3,
    title: 'a title',
  };
  const t0 = performance.now();
  for (let i = 0; i < n; i++) monitor.onPage({ ...event, step: i, domain: `d${i % 300}.test` });
  const hookUsPerPage = ((performance.now() - t0) * 1000) / n;
  // A crawl of `pages` pages to poll (its store stays open while paused).
  const crawler = new Crawler({
    outDir,
    keywords: keywordsOf(TOPIC),
    strategy: 'best-first',
    maxPages: pages + 1000,
    maxConcurrency: 16,
    net: { minDelayMs: 0, allowLoopback: true, resolveRules: currentRules },
  });
  const live = new CrawlMonitor().attach(crawler);
  crawler.on('page', (p) => {
    if (p.step === pages) crawler.pause();
  });
  const done = crawler.run(currentSeeds);
  const store = crawler.openStore!;
  while (!crawler.isPaused || crawler.progress().inFlight > 0) await new Promise((r) => setTimeout(r, 50));
  const feedback = new RelevanceFeedback({
    crawler,
    store,
    outDir,
    threshold: 0.5,
    keywords: keywordsOf(TOPIC),
  });
  const ui = await startDashboard(
    liveSource({ crawler, store, monitor: live, feedback, strategy: 'best-first', outDir }),
    {
      port: 0,
    },
  );
  const rounds = 50;
  const t1 = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (const path of ['api/status', 'api/metrics', 'api/pages?limit=50', 'api/feedback', 'metrics'])
      await (await fetch(`${ui.url}${path}`)).text();
  }
  const pollRoundMs = (performance.now() - t1) / rounds;
  await ui.close();
  crawler.resume();
  crawler.stop();
  await done;
  return { hookUsPerPage, pollRoundMs };
}

let currentRules: string[] = [];
let currentSeeds: string[] = [];

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
  currentRules = sandboxResolveRules(sandbox.server);
  currentSeeds = seeds;
  let work2: { hookUsPerPage: number; pollRoundMs: number } = {
    hookUsPerPage: Number.NaN,
    pollRoundMs: Number.NaN,
  };
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
    let stopPolling: () => void | Promise<void> = () => {};
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
      // The page polls from another process, as a browser would: its own work is not the crawl's.
      const poller = spawn(process.execPath, ['-e', POLLER, ui.url], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      poller.stdout.on('data', (d) => {
        out += d;
      });
      const exited = new Promise<void>((r) => poller.once('close', () => r()));
      stopPolling = async () => {
        poller.kill('SIGTERM');
        await exited;
        requests = out.length; // one character per request answered
      };
      closeUi = () => ui.close();
    }
    const summary = await done;
    await stopPolling();
    await closeUi();
    rmSync(outDir, { recursive: true, force: true });
    return { withUi, pagesPerSec: summary.pagesPerSec, steps: summary.steps, requests };
  };
  try {
    // Warm-up: the first timed crawl after a start ran 40-50% slower in every try (JIT, the
    // sandbox's page cache), so two of each kind run untimed.
    for (const withUi of [false, true, false, true]) await crawl(withUi);
    for (let r = 0; r < o.repeats; r++) {
      // Alternate, so a drift of the machine's load hits both kinds alike.
      for (const withUi of r % 2 === 0 ? [false, true] : [true, false]) {
        const run = await crawl(withUi);
        runs.push(run);
        console.log(`ui cost: ${withUi ? 'with   ' : 'without'} --ui: ${run.pagesPerSec.toFixed(1)} pages/s`);
      }
    }
    work2 = await dashboardWork(join(work, 'polled'), o.maxPages);
  } finally {
    await sandbox.close();
    rmSync(work, { recursive: true, force: true });
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const median = (xs: number[]) => {
    const a = xs.slice().sort((x, y) => x - y);
    const m = Math.floor(a.length / 2);
    return a.length % 2 ? (a[m] as number) : ((a[m - 1] as number) + (a[m] as number)) / 2;
  };
  const without = runs.filter((r) => !r.withUi).map((r) => r.pagesPerSec);
  const withUi = runs.filter((r) => r.withUi).map((r) => r.pagesPerSec);
  const slowdown = 1 - mean(withUi) / mean(without);
  const result = {
    env: benchEnv(),
    command: o.command ?? 'npm run bench -- ui',
    config: { ...o, outDir: undefined, web: webOptions },
    runs,
    meanPagesPerSec: { without: mean(without), with: mean(withUi) },
    medianPagesPerSec: { without: median(without), with: median(withUi) },
    slowdown,
    dashboardWork: work2,
    // Main-thread share at the measured rate: hooks per page plus one polling round per 2 s.
    dashboardShareOfMainThread: 0,
  };
  const rate = mean(without);
  result.dashboardShareOfMainThread = (rate * work2.hookUsPerPage) / 1e6 + work2.pollRoundMs / 2000;
  writeFileSync(join(o.outDir, 'ui-cost.json'), `${JSON.stringify(result, null, 2)}\n`);
  const md = [
    '# What the dashboard costs a crawl',
    '',
    `Command: \`${result.command}\`. The same crawl (${o.maxPages} pages of a generated web of ${webOptions.pageCount} pages on`,
    `${webOptions.hostCount} hosts, K = ${o.concurrency}, minDelayMs 0, best-first) without and with the dashboard, a client`,
    'in another process polling it like an open page (4 API calls every 2 s, /metrics every 5 s); runs alternated after two untimed runs of each.',
    '',
    '| run | --ui | pages/s | API requests served |',
    '|---|---|---|---|',
    ...runs.map(
      (r, i) => `| ${i + 1} | ${r.withUi ? 'yes' : 'no'} | ${r.pagesPerSec.toFixed(1)} | ${r.requests} |`,
    ),
    '',
    `Mean pages/s: ${mean(without).toFixed(1)} without, ${mean(withUi).toFixed(1)} with the dashboard: ${(100 * slowdown).toFixed(1)}% slower`,
    `(negative: faster; the budget is 5%). Median pages/s: ${median(without).toFixed(1)} without, ${median(withUi).toFixed(1)} with. Machine: ${result.env.cores} cores (${result.env.cpu}), shared with other work.`,
    '',
    "The dashboard's own main-thread work, measured apart: the monitor's hooks take",
    `${work2.hookUsPerPage.toFixed(2)} µs per page event; one polling round of an open page (status, metrics, 50 pages,`,
    `feedback, /metrics) on a ${o.maxPages}-page crawl takes ${work2.pollRoundMs.toFixed(1)} ms (loopback HTTP included). At`,
    `${rate.toFixed(0)} pages/s with a round every 2 s that is ${(100 * result.dashboardShareOfMainThread).toFixed(2)}% of the main thread.`,
    '',
  ].join('\n');
  writeFileSync(join(o.outDir, 'ui-cost.md'), md);
  console.log(md);
  return result;
}
