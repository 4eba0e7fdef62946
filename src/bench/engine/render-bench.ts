/**
 * `npm run bench -- render`: pages per second rendered in chromium (`--render`) against plain
 * fetching, on the same sandbox site whose links exist only after its script runs
 * (sandbox/faults/script-site.ts), on loopback with no politeness delay. The crawls get every page as a
 * seed, so they fetch the same pages: plain, rendered (a host's tab reused, the default), and
 * rendered with a fresh browser context per page (`shouldReuseTabs: false`); crawls from the root
 * alone show what each reaches. The machine's load average is printed with the figures (they are
 * lower bounds on a busy machine). Writes results/render/render-bench.json and .md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Crawler } from '../../index.js';
import { DEFAULT_RENDER_OPTIONS, type RenderOptions } from '../../render/index.js';
import { scriptSiteHandler } from '../../sandbox/index.js';
import { benchEnv, writeResults } from '../bench-env.js';

/** Options of {@link runRenderBench}. */
export interface RenderBenchOptions {
  /** Pages of the script site. @default 63 */
  pages?: number;
  /** Fetches in flight K. @default 4 */
  concurrency?: number;
  outDir: string;
}

interface Run {
  name: string;
  /** 1-minute load average as the crawl started and ended. */
  load: [number, number];
  pages: number;
  seconds: number;
  pagesPerSec: number;
}

/** Runs the benchmark; returns [plain, rendered, rendered fresh, plain from root, rendered from root]. */
export async function runRenderBench(options: RenderBenchOptions): Promise<Run[]> {
  const env = benchEnv();
  const n = options.pages ?? 63;
  const server = createServer(scriptSiteHandler(n));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  const base = mkdtempSync(join(tmpdir(), 'tres-render-bench-'));
  const all = Array.from({ length: n }, (_, i) => (i === 0 ? 'http://js.test/' : `http://js.test/?p=${i}`));
  const crawl = async (name: string, seeds: string[], render: RenderOptions | false): Promise<Run> => {
    const crawler = new Crawler({
      outDir: join(base, name.replace(/\W+/g, '-')),
      strategy: 'bfs',
      keywords: ['crawling'],
      maxPages: n,
      maxConcurrency: options.concurrency ?? 4,
      net: { minDelayMs: 0, resolveRules: [`*=127.0.0.1:${port}`], allowLoopback: true },
      render,
    });
    const loadBefore = loadavg()[0] ?? 0;
    const start = performance.now();
    const summary = await crawler.run(seeds);
    const seconds = (performance.now() - start) / 1000;
    const load: [number, number] = [loadBefore, loadavg()[0] ?? 0];
    return { name, load, pages: summary.pages, seconds, pagesPerSec: summary.pages / seconds };
  };
  try {
    const runs = [
      await crawl('plain, every page a seed', all, false),
      await crawl('rendered, every page a seed', all, {}),
      await crawl('rendered, fresh context per page', all, { shouldReuseTabs: false }),
      await crawl('plain, from the root', ['http://js.test/'], false),
      await crawl('rendered, from the root', ['http://js.test/'], {}),
    ];
    const [plain, rendered, fresh] = runs as [Run, Run, Run];
    const md = [
      '# Rendering (--render) against plain fetching',
      '',
      `${env.command} at ${env.commit}, ${env.date}; ${env.cpu}, ${env.cores} cores; node ${env.node}`,
      '',
      `Sandbox: ${n} pages whose links come from a script (one script, one JSON request each); loopback, minDelayMs 0, K = ${options.concurrency ?? 4}, ${DEFAULT_RENDER_OPTIONS.maxPages} chromium tabs.`,
      '',
      '| crawl | pages | s | pages/s | load average (1 min) at start, end |',
      '| --- | ---: | ---: | ---: | --- |',
      ...runs.map(
        (r) =>
          `| ${r.name} | ${r.pages} | ${r.seconds.toFixed(1)} | ${r.pagesPerSec.toFixed(1)} | ${r.load[0].toFixed(1)}, ${r.load[1].toFixed(1)} |`,
      ),
      '',
      `Rendering runs at ${((rendered.pagesPerSec / plain.pagesPerSec) * 100).toFixed(1)}% of plain fetching's pages/s (${(plain.pagesPerSec / rendered.pagesPerSec).toFixed(0)}x slower); a host's tab reused is ${(rendered.pagesPerSec / fresh.pagesPerSec).toFixed(1)}x as fast as a fresh context per page.`,
      '',
    ].join('\n');
    const paths = writeResults(options.outDir, 'render-bench', { env, pages: n, runs }, md);
    console.log(md);
    console.log(`wrote ${paths.json} and ${paths.md}`);
    return runs;
  } finally {
    server.closeAllConnections();
    server.close();
    rmSync(base, { recursive: true, force: true });
  }
}
