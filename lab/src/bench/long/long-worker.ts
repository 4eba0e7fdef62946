/**
 * Child process of the long-crawl benchmark: one crawl of a sandbox web served by the parent,
 * sampling its own cost every `sampleEvery` pages. Prints one JSON line per sample
 * (`{"sample": ...}`) and a last line `{"done": ...}`. With `resume` it continues the crawl
 * stored in `outDir` and reports how long the resume took to fetch its first page.
 * The benchmark runs it under `node --cpu-prof` when asked to.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { Crawler } from 'tres-crawler';
import { growableBytes } from 'tres-crawler/internals';
import { type CpuProfile, summarizeCpuProfile } from './cpu-profile-summary.js';

/** What the parent passes as argv[2] (JSON). */
export interface LongWorkerArgs {
  resolveRules: string[];
  seeds: string[];
  keywords: string[];
  strategy: string;
  maxPages: number;
  concurrency: number;
  outDir: string;
  sampleEvery: number;
  shouldWriteWarc: boolean;
  /** Continue the crawl stored in outDir rather than starting one. */
  resume?: boolean;
  /** Seed of the crawl's random choices. */
  seed: string;
  /** Steps at which a CPU profile of `profilePages` pages starts. @default none */
  profileAt?: number[];
  /** Pages each profile covers. @default 5000 */
  profilePages?: number;
  /** Where the `.cpuprofile` files go. */
  profileDir?: string;
  /** Steps after which a V8 heap snapshot is written (after that step's sample). @default none */
  heapSnapshotAt?: number[];
  /** Where the `.heapsnapshot` files go. */
  heapSnapshotDir?: string;
}

/** Self time by part over one profiled window of pages. */
export interface LongProfile {
  fromStep: number;
  toStep: number;
  totalMs: number;
  byFunction: { name: string; ms: number }[];
  byFile: { name: string; ms: number }[];
  file: string;
}

/** One sample, taken when the crawl's step count passes a multiple of `sampleEvery`. */
export interface LongSample {
  /** Attempts recorded so far (pages crawled). */
  steps: number;
  /** Seconds since the crawl started. */
  seconds: number;
  rssBytes: number;
  heapUsedBytes: number;
  /** V8 heap reserved (used + free space in its pages). */
  heapTotalBytes?: number;
  /** Memory of C++ objects bound to JavaScript objects (array buffers included). */
  externalBytes?: number;
  /** Memory of ArrayBuffers and SharedArrayBuffers (Buffers and typed arrays). */
  arrayBuffersBytes?: number;
  /** Bytes of the growable typed columns (frontier tables), counted in none of the above. */
  growableBytes?: number;
  /** Anonymous memory of the RSS (`RssAnon` of /proc/self/status; Linux only). */
  rssAnonBytes?: number;
  /** User + system CPU ms a page of this process over the window since the last sample. */
  cpuMsPerPage: number;
  /** Pages a second over the window since the last sample (wall clock: depends on the load). */
  pagesPerSec: number;
  frontierSize: number;
  relevant: number;
  harvestRate: number;
  relevantDomains: number;
  /** URLs set aside until their origin's robots.txt can be read (`CrawlProgress.deferred`). */
  deferred?: number;
  /** robots.txt requests the benchmark's server answered a page over the window (set by the parent). */
  robotsRequestsPerPage?: number;
  /** The strategy's own figures at the sample (`Strategy.stats()`). */
  strategyStats?: Record<string, number>;
}

/** `RssAnon` of /proc/self/status in bytes, undefined where there is none. */
function rssAnonBytes(): number | undefined {
  try {
    const kb = /^RssAnon:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2] ?? '{}') as LongWorkerArgs;
  const crawler = new Crawler({
    ...(args.resume ? { isResume: true } : {}),
    outDir: args.outDir,
    strategy: args.strategy,
    keywords: args.keywords,
    maxPages: args.maxPages,
    maxConcurrency: args.concurrency,
    shouldWriteWarc: args.shouldWriteWarc,
    seed: args.seed,
    net: { minDelayMs: 0, resolveRules: args.resolveRules, allowLoopback: true },
  });
  // Frontier snapshots (their bytes and time) and the one a resume restores or skips, on stderr.
  crawler.on('checkpoint', (e) => {
    if (e.part !== 'frontier') return;
    const why = e.reason === undefined ? '' : ` (${e.reason})`;
    process.stderr.write(
      `frontier snapshot ${e.kind} after page ${e.afterPage}: ${e.bytes} bytes, ${e.elapsedMs.toFixed(0)} ms${why}\n`,
    );
  });
  const start = performance.now();
  let windowStart = start;
  let cpuWindow = process.cpuUsage();
  let stepsAtWindow = -1;
  let firstPageMs: number | undefined;
  let nextSample = 0;
  crawler.on('page', (event) => {
    const now = performance.now();
    if (firstPageMs === undefined) {
      firstPageMs = now - start;
      stepsAtWindow = event.step - 1;
      nextSample = (Math.floor(event.step / args.sampleEvery) + 1) * args.sampleEvery;
      windowStart = now;
      cpuWindow = process.cpuUsage();
      return;
    }
    if (event.step < nextSample) return;
    nextSample += args.sampleEvery;
    const cpu = process.cpuUsage(cpuWindow);
    const pages = event.step - stepsAtWindow;
    const memory = process.memoryUsage();
    const progress = crawler.progress();
    const sample: LongSample = {
      steps: event.step,
      seconds: (now - start) / 1000,
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      heapTotalBytes: memory.heapTotal,
      externalBytes: memory.external,
      arrayBuffersBytes: memory.arrayBuffers,
      growableBytes: growableBytes(),
      rssAnonBytes: rssAnonBytes(),
      cpuMsPerPage: (cpu.user + cpu.system) / 1000 / pages,
      pagesPerSec: (pages * 1000) / (now - windowStart),
      frontierSize: progress.frontierSize,
      relevant: progress.relevant,
      harvestRate: progress.harvestRate,
      relevantDomains: progress.relevantDomains,
      deferred: progress.deferred,
      strategyStats: progress.strategyStats,
    };
    process.stdout.write(`${JSON.stringify({ sample })}\n`);
    windowStart = now;
    cpuWindow = process.cpuUsage();
    stepsAtWindow = event.step;
  });
  // Heap snapshots at chosen steps, to compare what the heap holds as the crawl grows.
  const snapshotAt = [...(args.heapSnapshotAt ?? [])].sort((a, b) => a - b);
  crawler.on('page', (event) => {
    if (snapshotAt.length === 0 || event.step < (snapshotAt[0] as number)) return;
    snapshotAt.shift();
    const file = join(
      args.heapSnapshotDir ?? '.',
      `long-${args.strategy.replace(/\W+/g, '-')}-${event.step}.heapsnapshot`,
    );
    writeHeapSnapshot(file);
    process.stdout.write(`${JSON.stringify({ heapSnapshot: { step: event.step, file } })}\n`);
  });
  // CPU profiles of chosen windows of pages, taken by the inspector in this process.
  const session = new Session();
  const profileAt = [...(args.profileAt ?? [])].sort((a, b) => a - b);
  const profilePages = args.profilePages ?? 5000;
  let profiling: { fromStep: number; toStep: number } | undefined;
  let profileTask: Promise<void> = Promise.resolve();
  if (profileAt.length > 0) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 1000 });
  }
  crawler.on('page', (event) => {
    if (!profiling && profileAt.length > 0 && event.step >= (profileAt[0] as number)) {
      profileAt.shift();
      profiling = { fromStep: event.step, toStep: event.step + profilePages };
      profileTask = profileTask.then(() => session.post('Profiler.start'));
    } else if (profiling && event.step >= profiling.toStep) {
      const window = { ...profiling, toStep: event.step };
      profiling = undefined;
      profileTask = profileTask.then(async () => {
        const { profile } = await session.post('Profiler.stop');
        const file = join(
          args.profileDir ?? '.',
          `long-${args.strategy.replace(/\W+/g, '-')}-${window.fromStep}.cpuprofile`,
        );
        writeFileSync(file, JSON.stringify(profile));
        const summary = summarizeCpuProfile(profile as unknown as CpuProfile);
        const result: LongProfile = {
          ...window,
          totalMs: summary.totalMs,
          byFunction: summary.byFunction.slice(0, 40),
          byFile: summary.byFile.slice(0, 40),
          file,
        };
        process.stdout.write(`${JSON.stringify({ profile: result })}\n`);
      });
    }
  });
  const summary = await crawler.run(args.resume ? [] : args.seeds);
  await profileTask;
  if (profileAt.length > 0 || args.profileAt?.length) session.disconnect();
  const done = {
    steps: summary.steps,
    seconds: (performance.now() - start) / 1000,
    firstPageSeconds: firstPageMs === undefined ? undefined : firstPageMs / 1000,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    relevant: summary.relevant,
    relevantDomains: summary.relevantDomains,
    harvestRate: summary.harvestRate,
    frontierSize: summary.frontierSize,
    stopReason: summary.stopReason,
  };
  process.stdout.write(`${JSON.stringify({ done })}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
