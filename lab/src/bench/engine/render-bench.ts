/**
 * `npm run bench -- render`: pages per second rendered in chromium (`--render`) against plain
 * fetching, on the same sandbox site whose links exist only after its script runs
 * (sandbox/faults/script-site.ts), on loopback with no politeness delay. The crawls get every page as a
 * seed, so they fetch the same pages: plain, rendered (a host's tab reused, the default), and
 * rendered with a fresh browser context per page (`shouldReuseTabs: false`); crawls from the root
 * alone show what each reaches. Then one tab renders every page in turn, outside a crawl, to
 * show where a render's time goes (RenderStats.phaseMs), and whether each page's script had
 * finished when its document was read. The machine's load average is printed with the figures
 * (they are lower bounds on a busy machine). Writes results/render/render-bench.json and .md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Crawler } from 'tres-crawler';
import {
  DEFAULT_RENDER_OPTIONS,
  Renderer,
  type RenderOptions,
  type RenderPhases,
  scriptSiteHandler,
  WebClient,
} from 'tres-crawler/internals';
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

/** One tab rendering every page in turn: mean ms per render of each phase. */
interface PhaseRun {
  name: string;
  load: [number, number];
  renders: number;
  msPerRender: number;
  phaseMs: RenderPhases;
  /** Renders whose document was read before the page's script had finished (no `rendered` mark). */
  unfinished: number;
}

/** Renders `urls` one after another in one tab (after one warm-up render), timing each phase. */
async function timePhases(
  name: string,
  port: number,
  urls: string[],
  render: RenderOptions,
): Promise<PhaseRun> {
  const client = new WebClient({ minDelayMs: 0, resolveRules: [`*=127.0.0.1:${port}`], allowLoopback: true });
  const renderer = new Renderer(client, { ...render, maxPages: 1 });
  try {
    await renderer.render(await client.fetchPage(urls[0] as string)); // the browser started, the script cached
    const phaseMs = renderer.stats.phaseMs;
    for (const key of Object.keys(phaseMs) as (keyof RenderPhases)[]) phaseMs[key] = 0;
    const loadBefore = loadavg()[0] ?? 0;
    let unfinished = 0;
    const start = performance.now();
    for (const url of urls.slice(1)) {
      const html = await renderer.render(await client.fetchPage(url));
      if (!html.includes('<p id="state">rendered</p>')) unfinished++;
    }
    const renders = urls.length - 1;
    const mean = Object.fromEntries(
      Object.entries(phaseMs).map(([k, v]) => [k, v / renders]),
    ) as unknown as RenderPhases;
    return {
      name,
      load: [loadBefore, loadavg()[0] ?? 0],
      renders,
      msPerRender: (performance.now() - start) / renders,
      phaseMs: mean,
      unfinished,
    };
  } finally {
    await renderer.close();
    await client.close();
  }
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
    const phaseRuns = [
      await timePhases('tab reused (default)', port, all, {}),
      await timePhases('fresh context per page', port, all, { shouldReuseTabs: false }),
    ];
    const ms = (v: number) => v.toFixed(0);
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
      `Where a render's time goes: one tab renders the ${n - 1} other pages in turn (outside a crawl, the script cached; settleMs ${DEFAULT_RENDER_OPTIONS.settleMs}); mean ms per render. Sub-requests overlap load and settle. "Unfinished": documents read before the page's script had finished.`,
      '',
      '| tab | ms/render | open | load | settle | serialise | clear | sub-requests | unfinished | load average at start, end |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
      ...phaseRuns.map(
        (r) =>
          `| ${r.name} | ${ms(r.msPerRender)} | ${ms(r.phaseMs.open)} | ${ms(r.phaseMs.load)} | ${ms(r.phaseMs.settle)} | ${ms(r.phaseMs.serialise)} | ${ms(r.phaseMs.clear)} | ${ms(r.phaseMs.subrequests)} | ${r.unfinished} of ${r.renders} | ${r.load[0].toFixed(1)}, ${r.load[1].toFixed(1)} |`,
      ),
      '',
    ].join('\n');
    const paths = writeResults(options.outDir, 'render-bench', { env, pages: n, runs, phaseRuns }, md);
    console.log(md);
    console.log(`wrote ${paths.json} and ${paths.md}`);
    return runs;
  } finally {
    server.closeAllConnections();
    server.close();
    rmSync(base, { recursive: true, force: true });
  }
}
