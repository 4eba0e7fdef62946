/**
 * Long-crawl benchmark: how a crawl's cost grows with its length. This process serves a
 * generated web on loopback (as `tres sandbox serve --pages N --hosts H --no-faults`); each
 * strategy crawls it in a child process (its memory and CPU its own) with no politeness delay,
 * sampling every `sampleEvery` pages its RSS, heap used, CPU ms a page over the last window
 * (user + system time of the crawler's process: steady under other load on the machine, unlike
 * pages/s), pages/s over the window and frontier size. Optionally the child takes CPU profiles
 * of chosen windows of pages (self time by function and file), and a resume of the finished
 * crawl is timed to its first page. Prints a table; writes long.json, long.md and one SVG plot
 * per measure.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveSandbox } from 'tres-crawler';
import { withCrawlReader } from 'tres-crawler/internals';
import { benchEnv, writeResults } from '../bench-env.js';
import { lineChart } from '../report/index.js';
import type { LongProfile, LongSample, LongWorkerArgs } from './long-worker.js';

/** Options of {@link runLongBench}. */
export interface LongBenchOptions {
  /** Strategy specs, one crawl each. @default ['coverage'] */
  strategies: string[];
  /** Page budget of each crawl. @default 100_000 */
  maxPages: number;
  /** Pages of the generated web. @default 1_000_000 */
  webPages: number;
  /** Hosts of the generated web. @default 4000 */
  webHosts: number;
  /** Pages between two samples. @default 5000 */
  sampleEvery: number;
  /** Fetches in flight. @default 16 */
  concurrency: number;
  /** Steps at which a CPU profile starts (each `profilePages` long); empty for none. @default [] */
  profileAt: number[];
  /** Pages each CPU profile covers. @default 5000 */
  profilePages: number;
  /** Steps after which the child writes a V8 heap snapshot (into `long-heap/`); empty for none. @default [] */
  heapSnapshotAt: number[];
  /** After the crawl, resume it for this many more pages and time it; false for no resume. @default false */
  resumePages: number | false;
  /**
   * How the server answers a host it does not serve (the generated web's dead-host links):
   * `reset` closes the connection, as `tres sandbox serve` does by default (robots.txt is then
   * unreachable and the crawler defers those URLs), `misdirected` answers 421 (a plain failure).
   * @default 'reset'
   */
  unknownHost: 'reset' | 'misdirected';
  /** Seed of the web and of the crawls. @default 'long-bench' */
  seed: string;
  /** Where long.json, long.md and the plots go. */
  resultsDir: string;
  /**
   * Folder of the crawl stores (one subfolder per strategy), kept after the run; a strategy whose
   * store is already there is not crawled again but only resumed (with `resumePages`), so a large
   * crawl can be resumed and timed again. @default a temporary folder, removed after the run
   */
  workDir?: string;
}

export const DEFAULT_LONG_BENCH_OPTIONS: Omit<LongBenchOptions, 'resultsDir'> = {
  strategies: ['coverage'],
  maxPages: 100_000,
  webPages: 1_000_000,
  webHosts: 4000,
  sampleEvery: 5000,
  concurrency: 16,
  profileAt: [],
  profilePages: 5000,
  heapSnapshotAt: [],
  resumePages: false,
  unknownHost: 'reset',
  seed: 'long-bench',
};

/** What the child's last line says. */
interface LongDone {
  steps: number;
  seconds: number;
  firstPageSeconds?: number;
  maxRssBytes: number;
  relevant: number;
  relevantDomains: number;
  harvestRate: number;
  frontierSize: number;
  stopReason: string;
}

/** The first crawl's figures when only a stored crawl was resumed. */
const NOT_CRAWLED: LongDone = {
  steps: 0,
  seconds: 0,
  maxRssBytes: 0,
  relevant: 0,
  relevantDomains: 0,
  harvestRate: 0,
  frontierSize: 0,
  stopReason: 'stored',
};

/** One crawl of one strategy. */
interface LongRun {
  strategy: string;
  samples: LongSample[];
  profiles: LongProfile[];
  done: LongDone;
  /** The timed resume, when asked for. */
  resume?: { done: LongDone; samples: LongSample[] };
}

/** The generated web's keywords: the words of its relevant topic's name (as the sandbox's own). */
function keywordsOf(topic: string): string[] {
  return topic
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 2);
}

const here = dirname(fileURLToPath(import.meta.url));

/** Runs the child; each sample line is printed as it comes. */
function runChild(
  args: LongWorkerArgs,
  onSample: (s: LongSample) => void,
): Promise<{ samples: LongSample[]; profiles: LongProfile[]; done: LongDone }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(here, 'long-worker.js'), JSON.stringify(args)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const samples: LongSample[] = [];
    const profiles: LongProfile[] = [];
    let done: LongDone | undefined;
    let rest = '';
    child.stdout.on('data', (d) => {
      rest += d;
      const lines = rest.split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const msg = JSON.parse(line) as { sample?: LongSample; profile?: LongProfile; done?: LongDone };
        if (msg.sample) {
          samples.push(msg.sample);
          onSample(msg.sample);
        }
        if (msg.profile) profiles.push(msg.profile);
        if (msg.done) done = msg.done;
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 || !done) reject(new Error(`long-worker exited with ${code}`));
      else resolve({ samples, profiles, done });
    });
  });
}

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const optionalMib = (bytes: number | undefined) => (bytes === undefined ? '-' : mib(bytes));

function sampleRow(strategy: string, s: LongSample): string {
  return `| ${strategy} | ${s.steps} | ${s.seconds.toFixed(0)} | ${mib(s.rssBytes)} | ${mib(s.heapUsedBytes)} | ${optionalMib(s.heapTotalBytes)} | ${optionalMib(s.externalBytes)} | ${optionalMib(s.arrayBuffersBytes)} | ${optionalMib(s.growableBytes)} | ${optionalMib(s.rssAnonBytes)} | ${s.cpuMsPerPage.toFixed(2)} | ${s.pagesPerSec.toFixed(0)} | ${s.frontierSize} | ${s.deferred ?? '-'} | ${s.robotsRequestsPerPage?.toFixed(3) ?? '-'} | ${(100 * s.harvestRate).toFixed(1)} | ${s.relevantDomains} |`;
}

const SAMPLE_HEADER = [
  '| strategy | pages | s | RSS MiB | heap MiB | heap total MiB | external MiB | array buffers MiB | growable columns MiB | RSS anonymous MiB | CPU ms/page (window) | pages/s (window) | frontier | deferred | robots.txt requests/page (window) | harvest % | relevant sites |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
];

/** CPU ms a page of the samples whose window ends in (from, to]: their weighted mean. */
function cpuBetween(samples: readonly LongSample[], from: number, to: number): number {
  const inRange = samples.filter((s) => s.steps > from && s.steps <= to);
  if (inRange.length === 0) return Number.NaN;
  return inRange.reduce((a, s) => a + s.cpuMsPerPage, 0) / inRange.length;
}

/**
 * Profile table: each file's share of the profile's samples, idle excluded. The profiler samples
 * by wall clock, so on a loaded machine its milliseconds include time the process waited for a
 * core; shares are what compare two windows (times the window's CPU ms a page: ms by part).
 */
function profileTable(run: LongRun): string {
  if (run.profiles.length === 0) return '';
  const busyMs = (p: LongProfile) => p.totalMs - (p.byFile.find((f) => f.name === '(idle)')?.ms ?? 0);
  const files = new Map<string, number[]>();
  run.profiles.forEach((p, i) => {
    for (const f of p.byFile.slice(0, 30)) {
      if (f.name === '(idle)') continue;
      const row = files.get(f.name) ?? run.profiles.map(() => 0);
      row[i] = (100 * f.ms) / busyMs(p);
      files.set(f.name, row);
    }
  });
  const rows = [...files.entries()]
    .sort((a, b) => (b[1].at(-1) ?? 0) - (a[1].at(-1) ?? 0))
    .slice(0, 25)
    .map(([name, pct]) => `| ${name} | ${pct.map((m) => m.toFixed(1)).join(' | ')} |`);
  const fnRows = run.profiles.map(
    (p) =>
      `Top functions, pages ${p.fromStep}-${p.toStep} (% of busy samples):\n\n${p.byFunction
        .filter((f) => !f.name.startsWith('(idle)'))
        .slice(0, 15)
        .map((f) => `- ${f.name}: ${((100 * f.ms) / busyMs(p)).toFixed(1)}`)
        .join('\n')}\n`,
  );
  return [
    `### CPU profile of ${run.strategy}: share of busy samples by file (%)`,
    '',
    `| file | ${run.profiles.map((p) => `pages ${p.fromStep}-${p.toStep}`).join(' | ')} |`,
    `|---|${run.profiles.map(() => '---:').join('|')}|`,
    ...rows,
    '',
    ...fnRows,
  ].join('\n');
}

/** Runs the long-crawl benchmark; prints and writes its results. */
export async function runLongBench(options: LongBenchOptions): Promise<LongRun[]> {
  const o = options;
  // robots.txt requests the server answered: a crawl asks each origin once a day unless its
  // robots.txt cache drops it (or the origin does not answer).
  let robotsRequests = 0;
  const sandbox = await serveSandbox({
    web: { seed: o.seed, pageCount: o.webPages, hostCount: o.webHosts },
    server: {
      unknownHost: o.unknownHost,
      onRequest: (req) => {
        if (req.url === '/robots.txt') robotsRequests++;
      },
    },
  });
  let window = { robots: 0, steps: 0 };
  /** Puts the server's robots.txt requests a page over the sample's window into the sample. */
  const withServerFigures = (s: LongSample): LongSample => {
    s.robotsRequestsPerPage = (robotsRequests - window.robots) / Math.max(1, s.steps - window.steps);
    window = { robots: robotsRequests, steps: s.steps };
    return s;
  };
  const web = sandbox.web;
  if (!web) throw new Error('no web');
  const env = benchEnv();
  const work = o.workDir ?? mkdtempSync(join(tmpdir(), 'tres-long-bench-'));
  mkdirSync(work, { recursive: true });
  const profileDir = join(o.resultsDir, 'long-profiles');
  if (o.profileAt.length > 0) mkdirSync(profileDir, { recursive: true });
  const heapSnapshotDir = join(o.resultsDir, 'long-heap');
  if (o.heapSnapshotAt.length > 0) mkdirSync(heapSnapshotDir, { recursive: true });
  console.log(
    `long bench: web of ${web.pageCount} pages on ${web.hosts.length} hosts (unknown hosts: ${o.unknownHost}), ${o.maxPages} pages per crawl, K = ${o.concurrency}, a sample every ${o.sampleEvery} pages`,
  );
  const runs: LongRun[] = [];
  try {
    for (const strategy of o.strategies) {
      console.log(`\n${strategy}:\n${SAMPLE_HEADER.join('\n')}`);
      window = { robots: robotsRequests, steps: 0 };
      const outDir = join(work, strategy.replace(/\W+/g, '-'));
      const common: LongWorkerArgs = {
        // One rule for every host: the web's thousands of host rules would overflow the child's argv.
        resolveRules: [`*=127.0.0.1:${sandbox.server.port}`],
        seeds: sandbox.seedUrls,
        keywords: keywordsOf(web.options.relevantTopic),
        strategy,
        maxPages: o.maxPages,
        concurrency: o.concurrency,
        outDir,
        sampleEvery: o.sampleEvery,
        shouldWriteWarc: true,
        seed: o.seed,
      };
      const isStored = o.workDir !== undefined && existsSync(join(outDir, 'crawl.sqlite'));
      if (isStored && o.resumePages === false) {
        throw new Error(
          `${outDir} already holds a crawl: give --resume-pages N to resume it, or another --work-dir`,
        );
      }
      // A stored crawl resumes from the pages it holds (a run resumed before holds more than --max-pages).
      const storedSteps = isStored ? withCrawlReader(outDir, (r) => r.counts().attempts) : 0;
      const first = isStored
        ? { samples: [], profiles: [], done: { ...NOT_CRAWLED, steps: storedSteps } }
        : await runChild(
            {
              ...common,
              profileAt: o.profileAt,
              profilePages: o.profilePages,
              profileDir,
              heapSnapshotAt: o.heapSnapshotAt,
              heapSnapshotDir,
            },
            (s) => console.log(sampleRow(strategy, withServerFigures(s))),
          );
      const run: LongRun = { strategy, ...first };
      if (o.resumePages !== false) {
        console.log(`resuming ${strategy} for ${o.resumePages} more pages ...`);
        window = { robots: robotsRequests, steps: first.done.steps };
        const resumed = await runChild(
          {
            ...common,
            maxPages: first.done.steps + o.resumePages,
            resume: true,
            ...(isStored ? { profileAt: o.profileAt, profilePages: o.profilePages, profileDir } : {}),
          },
          (s) => console.log(sampleRow(`${strategy} (resumed)`, withServerFigures(s))),
        );
        run.resume = { done: resumed.done, samples: resumed.samples };
        console.log(
          `  resume: first page after ${resumed.done.firstPageSeconds?.toFixed(1)} s, peak RSS ${mib(resumed.done.maxRssBytes)} MiB`,
        );
      }
      if (o.workDir === undefined) rmSync(outDir, { recursive: true, force: true });
      runs.push(run);
      if (!isStored)
        console.log(
          `  done: ${first.done.steps} pages in ${first.done.seconds.toFixed(0)} s, peak RSS ${mib(first.done.maxRssBytes)} MiB, frontier ${first.done.frontierSize}`,
        );
      const table = profileTable(run);
      if (table) console.log(`\n${table}`);
    }
  } finally {
    await sandbox.close();
    if (o.workDir === undefined) rmSync(work, { recursive: true, force: true });
  }
  writeReport(o, runs, env);
  return runs;
}

/** The plots, long.json and long.md. */
function writeReport(o: LongBenchOptions, runs: LongRun[], env: ReturnType<typeof benchEnv>): void {
  mkdirSync(o.resultsDir, { recursive: true });
  const plots: { file: string; title: string; y: string; pick: (s: LongSample) => number }[] = [
    {
      file: 'long-rss.svg',
      title: 'RSS against pages crawled',
      y: 'RSS (MiB)',
      pick: (s) => s.rssBytes / 2 ** 20,
    },
    {
      file: 'long-heap.svg',
      title: 'Heap used against pages crawled',
      y: 'heap used (MiB)',
      pick: (s) => s.heapUsedBytes / 2 ** 20,
    },
    {
      file: 'long-cpu.svg',
      title: 'CPU ms a page (last window) against pages crawled',
      y: 'CPU ms/page',
      pick: (s) => s.cpuMsPerPage,
    },
    {
      file: 'long-speed.svg',
      title: 'Pages/s (last window) against pages crawled',
      y: 'pages/s',
      pick: (s) => s.pagesPerSec,
    },
    {
      file: 'long-frontier.svg',
      title: 'Frontier size against pages crawled',
      y: 'frontier URLs',
      pick: (s) => s.frontierSize,
    },
  ];
  for (const plot of plots) {
    const svg = lineChart({
      title: plot.title,
      xLabel: 'pages crawled',
      yLabel: plot.y,
      series: runs.map((r) => ({
        name: r.strategy,
        points: r.samples.map((s) => [s.steps, plot.pick(s)] as const),
      })),
    });
    writeFileSync(join(o.resultsDir, plot.file), svg);
  }
  const summary = runs.map((r) => {
    const early = cpuBetween(r.samples, 10_000, 20_000);
    const last = r.samples.at(-1);
    const lastCpu = last?.cpuMsPerPage ?? Number.NaN;
    const resume = r.resume ? `${r.resume.done.firstPageSeconds?.toFixed(1) ?? 'no page'} s` : '-';
    // A crawl found in --work-dir was only resumed here: it has no figures of its own.
    if (last === undefined)
      return `| ${r.strategy} (stored, only resumed) | ${r.done.steps} | - | - | - | - | - | - | - | ${resume} |`;
    return `| ${r.strategy} | ${r.done.steps} | ${early.toFixed(2)} | ${lastCpu.toFixed(2)} | ${(early / lastCpu).toFixed(2)} | ${mib(r.done.maxRssBytes)} | ${r.done.frontierSize} | ${(100 * r.done.harvestRate).toFixed(1)} | ${r.done.relevantDomains} | ${resume} |`;
  });
  const summaryTable = [
    '| strategy | pages | CPU ms/page, pages 10k-20k | CPU ms/page, last window | speed ratio (last / 10k-20k, by CPU) | peak RSS MiB | frontier at end | harvest % | relevant sites | resume to first page |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...summary,
  ].join('\n');
  console.log(`\n${summaryTable}`);
  const md = `# Long crawl\n\nGenerated web: ${o.webPages} pages on ${o.webHosts} hosts (seed ${o.seed}), served on loopback by this process (hosts it does not serve: ${o.unknownHost}); each crawl in its own child process, K = ${o.concurrency}, no politeness delay, WARC on, keyword judge. A sample every ${o.sampleEvery} pages; CPU ms a page is the crawler process's user + system time over the window (steady under other load; pages/s is not).\n\n${summaryTable}\n\n${SAMPLE_HEADER.join('\n')}\n${runs.flatMap((r) => [...r.samples.map((s) => sampleRow(r.strategy, s)), ...(r.resume?.samples ?? []).map((s) => sampleRow(`${r.strategy} (resumed)`, s))]).join('\n')}\n\n${runs.map(profileTable).filter(Boolean).join('\n')}\n\n${plots.map((p) => `![${p.title}](${p.file})`).join('\n')}\n\nCommand: \`${env.command}\` at commit ${env.commit}, ${env.node}, ${env.cores} x ${env.cpu}, ${env.date}.\n`;
  const paths = writeResults(o.resultsDir, 'long', { env, options: o, runs }, md);
  console.log(`results: ${paths.json}, ${paths.md}`);
}
