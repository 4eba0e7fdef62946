/**
 * `npm run bench -- cluster [--quick] [--out DIR]`: scale-out over Redis Streams.
 *
 * 1. Latency-bound rows: a generated web of 2,000+ hosts whose every response waits 200-400 ms,
 *    a minimum delay of 1 s per host, K fetches in flight per worker; pages/s with 1, 2, 4 and 8
 *    `tres worker` processes, for best-first and tres. The coordinator runs in this process, the
 *    web in a process of its own (logged-web-child.ts), so that its log's stamps are not delayed
 *    by the coordinator. Each row also checks politeness from the server's own log (closest gap
 *    between two requests to one host, robots.txt requests per host), reports Redis commands and
 *    bytes per page, and the CPU time per page of the workers, the coordinator, the web server
 *    and Redis (what limits the scaling on a machine of few cores).
 * 2. The coordinator's ceiling: the same crawl with instant responses and no delay, workers with
 *    plenty of slots; decisions and recorded pages per second, and a CPU profile of the
 *    coordinator (V8's sampler, as `node --cpu-prof`: self time by module and by function).
 * 3. Balance rows: 4 workers on a web of few hosts (work concentrates on some shards), started
 *    together, and 3 with a fourth joining once a quarter of the pages are recorded. Each worker's
 *    share of the pages (from the store: the WARC file that holds each page) and its idle time:
 *    Redis sampled every 200 ms for each shard's lease holder and requests (queued or in flight);
 *    a worker is idle when its shards have held no request for a second while another worker's
 *    hold 2 or more.
 * Nothing is written unless `--out DIR` is given (then cluster.json and cluster.md there).
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { Crawler, createSyntheticWeb } from 'tres-crawler';
import { ClusterCoordinator, connectRedis, keywordsOf, type SyntheticWeb } from 'tres-crawler/internals';
import { closestGapMs, type LoggedWebOptions, startLocalRedis } from 'tres-testing';
import { benchEnv, writeResults } from '../bench-env.js';
import type { LoggedWebTake } from './logged-web-child.js';

/** Options of {@link runClusterBench}. */
export interface ClusterBenchOptions {
  /** Worker counts of the latency-bound rows. @default [1, 2, 4, 8] */
  workerCounts: number[];
  strategies: string[];
  /** Hosts of the web. @default 2500 */
  webHosts: number;
  /** Pages of the web. @default 60_000 */
  webPages: number;
  /** Response delay range, ms. @default [200, 400] */
  delayMs: [number, number];
  /** Minimum delay per host, ms. @default 1000 */
  minDelayMs: number;
  /** Fetches in flight per worker (the coordinator keeps K x workers in flight). @default 8 */
  kPerWorker: number;
  /** Pages per row per worker (a row with W workers crawls W times as many). @default 150 */
  pagesPerWorker: number;
  /** Pages of each ceiling run. @default 1500 */
  ceilingPages: number;
  /** Seed URLs (home pages of that many hosts). @default 500 */
  seedCount: number;
  /** Folder for cluster.json and cluster.md; `false` writes nothing. @default false */
  outDir: string | false;
  seed: number;
  /** Only the balance rows. @default false */
  isBalanceOnly: boolean;
  /** The balance rows' webs (hosts, pages, seed URLs, pages of each row) and their strategy. */
  balance: { webs: BalanceWeb[]; strategy: string };
}

/** A web of the balance rows: few hosts, so that work concentrates on some shards. */
export interface BalanceWeb {
  hosts: number;
  pages: number;
  seeds: number;
  /** Pages of each row. */
  maxPages: number;
}

export const DEFAULT_CLUSTER_BENCH_OPTIONS: ClusterBenchOptions = {
  workerCounts: [1, 2, 4, 8],
  strategies: ['best-first', 'tres'],
  webHosts: 2500,
  webPages: 60_000,
  delayMs: [200, 400],
  minDelayMs: 1000,
  kPerWorker: 8,
  pagesPerWorker: 150,
  ceilingPages: 1500,
  seedCount: 500,
  outDir: false,
  seed: 3,
  isBalanceOnly: false,
  balance: {
    webs: [
      { hosts: 8, pages: 2400, seeds: 8, maxPages: 400 },
      { hosts: 32, pages: 3200, seeds: 8, maxPages: 800 },
    ],
    strategy: 'best-first',
  },
};

const TOPIC = 'computer hardware';
const BIN = resolve(fileURLToPath(import.meta.url), '../../../../../bin/tres.js');

interface Row {
  strategy: string;
  workers: number;
  k: number;
  pages: number;
  seconds: number;
  pagesPerSec: number;
  speedup: number;
  closestGapMs: number;
  /**
   * Longest event-loop delay of this process (the replay server and the coordinator) during the
   * row, ms: the server stamps a request's start and end late by up to this much, so a gap in
   * its log can look that much shorter than the workers kept it.
   */
  serverLagMaxMs: number;
  maxRobotsPerHostPerWorker: number;
  redisCommandsPerPage: number;
  redisBytesPerPage: number;
  refetched: number;
  /** CPU time per recorded page, ms: all workers together, the coordinator, the web, Redis. */
  cpuMsPerPage: { workers: number; coordinator: number; web: number; redis: number };
  /** CPU time of all these processes over the row's wall time: cores kept busy. */
  coresBusy: number;
  /**
   * Time the workers' and the coordinator's main threads spent runnable but waiting for a CPU
   * (Linux schedstat), ms per recorded page: how much the machine's other load held them back.
   */
  runQueueWaitMsPerPage: { workers: number; coordinator: number };
  /**
   * Fetches in flight on average (sampled every 100 ms from the first page), of the K x workers
   * the coordinator may keep out: below that, the crawl ran short of hosts ready for a request.
   */
  meanInFlight: number;
  /** 1-minute load average of the machine at the row's end. */
  load: number;
}

interface Ceiling {
  strategy: string;
  pages: number;
  seconds: number;
  pagesPerSec: number;
  decisionsPerSec: number;
  /** The same crawl in one process (no cluster, K = 16), on the same machine at the same time. */
  localPagesPerSec: number;
  profile: Array<{ module: string; selfPct: number }>;
  /** The functions with the most self time (file:function). */
  topFunctions: Array<{ module: string; selfPct: number }>;
  /** CPU time of the coordinator per recorded page, ms. */
  coordinatorCpuMsPerPage: number;
  /** The workers' profiles (`node --cpu-prof`), merged: self time by module, idle left out. */
  workerProfile: Array<{ module: string; selfPct: number }>;
  workerTopFunctions: Array<{ module: string; selfPct: number }>;
}

/** The web in its own process (logged-web-child.ts). */
interface WebProcess {
  web: SyntheticWeb;
  resolveRules: string[];
  /** The log since the last take, with the process's event-loop delay and CPU time. */
  take(): Promise<LoggedWebTake>;
  close(): Promise<void>;
}

async function forkWeb(options: LoggedWebOptions): Promise<WebProcess> {
  const child = fork(
    fileURLToPath(new URL('./logged-web-child.js', import.meta.url)),
    [JSON.stringify(options)],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const [ready] = (await once(child, 'message')) as [{ resolveRules: string[] }];
  // The same seeded web as the child's, for the seed URLs.
  const web = createSyntheticWeb({
    seed: options.seed ?? 1,
    hostCount: options.hostCount ?? 40,
    pageCount: options.pageCount ?? 8000,
    ...(options.topics ? { topics: options.topics } : {}),
    ...(options.relevantTopic ? { relevantTopic: options.relevantTopic } : {}),
  });
  return {
    web,
    resolveRules: ready.resolveRules,
    take: async () => {
      const reply = once(child, 'message') as Promise<[LoggedWebTake]>;
      child.send({ kind: 'take' });
      return (await reply)[0];
    },
    close: async () => {
      const exited = once(child, 'exit');
      child.send({ kind: 'close' });
      await exited;
    },
  };
}

/** CPU time (user + system) of a live process, ms, from /proc (Linux). */
function cpuMsOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** Time the main thread of a live process spent waiting on a run queue, ms (Linux schedstat). */
function runQueueWaitMsOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
  } catch {
    return 0;
  }
}

/** USER_HZ of Linux /proc times (100 on every mainstream architecture). */
const CLOCK_TICKS = 100;

/** Runs the benchmark; prints figures; writes results only to `outDir`. */
export async function runClusterBench(partial: Partial<ClusterBenchOptions> = {}): Promise<void> {
  const o = { ...DEFAULT_CLUSTER_BENCH_OPTIONS, ...partial };
  const redis = await startLocalRedis();
  const base = mkdtempSync(join(tmpdir(), 'tres-cluster-bench-'));
  const rows: Row[] = [];
  const ceilings: Ceiling[] = [];
  const balances: BalanceRow[] = [];
  try {
    if (!o.isBalanceOnly) await latencyAndCeiling(o, redis.url, base, rows, ceilings);
    for (const b of o.balance.webs) {
      const few = await forkWeb({
        seed: o.seed,
        hostCount: b.hosts,
        pageCount: b.pages,
        topics: [TOPIC, 'cooking recipes', 'football'],
        relevantTopic: TOPIC,
        delayMs: o.delayMs,
      });
      try {
        console.log(
          `balance: ${b.hosts} hosts, ${b.pages} pages, ${b.seeds} seeds, ${o.balance.strategy}, ${b.maxPages} pages a row, 4 workers, K = ${o.kPerWorker} per worker; idle = the worker's shards hold no request for a second while another's hold 2 or more (Redis sampled every 200 ms)`,
        );
        for (const lateJoin of [false, true]) {
          const row = await balanceRow(o, b, redis.url, few, base, lateJoin);
          balances.push(row);
          console.log(
            `  ${row.label}: ${row.pages} pages in ${row.seconds.toFixed(1)} s; load ${row.load.toFixed(1)}`,
          );
          for (const w of row.workers) {
            console.log(
              `    ${w.id}: ${w.pages} pages (${((100 * w.pages) / Math.max(1, row.pages)).toFixed(1)}%), idle while another had a backlog ${w.idlePct.toFixed(1)}% of ${w.seconds.toFixed(1)} s, shards held ${w.meanShards.toFixed(1)} on average`,
            );
          }
        }
      } finally {
        await few.close();
      }
    }
  } finally {
    await redis.stop();
    rmSync(base, { recursive: true, force: true });
  }
  if (o.outDir !== false) {
    const paths = writeResults(
      o.outDir,
      'cluster',
      { env: benchEnv(), options: o, rows, ceilings, balances },
      markdown(o, rows, ceilings, balances),
    );
    console.log(`written: ${paths.md}, ${paths.json}`);
  }
}

/** The latency-bound rows and the coordinator's ceiling (parts 1 and 2 of the file comment). */
async function latencyAndCeiling(
  o: ClusterBenchOptions,
  url: string,
  base: string,
  rows: Row[],
  ceilings: Ceiling[],
): Promise<void> {
  const slow = await forkWeb({
    seed: o.seed,
    hostCount: o.webHosts,
    pageCount: o.webPages,
    topics: [TOPIC, 'cooking recipes', 'football'],
    relevantTopic: TOPIC,
    delayMs: o.delayMs,
  });
  try {
    console.log(
      `cluster: ${o.webHosts} hosts, ${o.webPages} pages, responses ${o.delayMs[0]}-${o.delayMs[1]} ms, min delay ${o.minDelayMs} ms/host, K = ${o.kPerWorker} per worker`,
    );
    for (const strategy of o.strategies) {
      for (const workers of o.workerCounts) {
        const row = await latencyRow(o, url, slow, base, strategy, workers);
        const first = rows.find((r) => r.strategy === strategy && r.workers === o.workerCounts[0]);
        row.speedup = first ? row.pagesPerSec / first.pagesPerSec : 1;
        rows.push(row);
        const cpu = row.cpuMsPerPage;
        console.log(
          `  ${strategy.padEnd(10)} ${String(workers).padStart(2)} workers: ${row.pages} pages in ${row.seconds.toFixed(1)} s = ${row.pagesPerSec.toFixed(1)} pages/s (x${row.speedup.toFixed(2)}); closest gap per host ${row.closestGapMs.toFixed(0)} ms (server's event loop late by up to ${row.serverLagMaxMs.toFixed(0)} ms); robots.txt <= ${row.maxRobotsPerHostPerWorker}/host; Redis ${row.redisCommandsPerPage.toFixed(1)} commands, ${(row.redisBytesPerPage / 1024).toFixed(1)} KiB per page; refetched ${row.refetched}; CPU ms/page: workers ${cpu.workers.toFixed(1)}, coordinator ${cpu.coordinator.toFixed(1)}, web ${cpu.web.toFixed(1)}, Redis ${cpu.redis.toFixed(1)} (${row.coresBusy.toFixed(2)} cores busy); waiting for a CPU, ms/page: workers ${row.runQueueWaitMsPerPage.workers.toFixed(1)}, coordinator ${row.runQueueWaitMsPerPage.coordinator.toFixed(1)}; in flight ${row.meanInFlight.toFixed(1)} of ${row.k * row.workers}; load ${row.load.toFixed(1)}`,
        );
      }
    }
  } finally {
    await slow.close();
  }
  const fast = await forkWeb({
    seed: o.seed,
    hostCount: o.webHosts,
    pageCount: o.webPages,
    topics: [TOPIC, 'cooking recipes', 'football'],
    relevantTopic: TOPIC,
  });
  try {
    console.log('coordinator ceiling: instant responses, no delay, 2 workers x 64 slots');
    for (const strategy of o.strategies) {
      const c = await ceilingRun(o, url, fast, base, strategy);
      ceilings.push(c);
      console.log(
        `  ${strategy.padEnd(10)} ${c.pages} pages in ${c.seconds.toFixed(1)} s: ${c.pagesPerSec.toFixed(0)} recorded pages/s, ${c.decisionsPerSec.toFixed(0)} decisions/s (the same crawl in one process: ${c.localPagesPerSec.toFixed(0)} pages/s)`,
      );
      console.log(
        `    coordinator CPU ${c.coordinatorCpuMsPerPage.toFixed(2)} ms/page; profile (self time): ${c.profile.map((p) => `${p.module} ${p.selfPct.toFixed(0)}%`).join(', ')}`,
      );
      console.log(
        `    top functions (share of busy time): ${c.topFunctions.map((p) => `${p.module} ${p.selfPct.toFixed(1)}%`).join(', ')}`,
      );
      console.log(
        `    workers (node --cpu-prof, share of busy time): ${c.workerProfile.map((p) => `${p.module} ${p.selfPct.toFixed(0)}%`).join(', ')}`,
      );
      console.log(
        `    workers' top functions: ${c.workerTopFunctions.map((p) => `${p.module} ${p.selfPct.toFixed(1)}%`).join(', ')}`,
      );
    }
  } finally {
    await fast.close();
  }
}

async function latencyRow(
  o: ClusterBenchOptions,
  url: string,
  web: WebProcess,
  base: string,
  strategy: string,
  workers: number,
): Promise<Row> {
  const name = `${strategy}-${workers}`;
  await web.take(); // the log of this row only
  const procs = startWorkers(url, name, workers, o.kPerWorker, join(base, name, 'warc'));
  const statsBefore = await redisStats(url);
  const maxPages = o.pagesPerWorker * workers;
  const crawler = new Crawler({
    outDir: join(base, name, 'crawl'),
    strategy,
    seed: o.seed,
    keywords: keywordsOf(TOPIC),
    maxPages,
    maxConcurrency: o.kPerWorker * workers,
    shouldWriteWarc: false,
    net: { minDelayMs: o.minDelayMs, resolveRules: web.resolveRules, allowLoopback: true },
    fetchRunner: new ClusterCoordinator({ url, name }),
  });
  // Timed from the first recorded page: worker start-up and lease taking are not throughput.
  // CPU time counts from there too.
  let firstMs = 0;
  let cpuAtFirst = { workers: 0, coordinator: 0 };
  let waitAtFirst = { workers: 0, coordinator: 0 };
  crawler.on('page', () => {
    if (firstMs !== 0) return;
    firstMs = performance.now();
    const c = process.cpuUsage();
    cpuAtFirst = { workers: sum(procs.map((p) => cpuMsOf(p.pid))), coordinator: (c.user + c.system) / 1000 };
    waitAtFirst = {
      workers: sum(procs.map((p) => runQueueWaitMsOf(p.pid))),
      coordinator: runQueueWaitMsOf(process.pid),
    };
  });
  // Many seed hosts: the crawl spreads over hosts, so politeness does not cap it below latency.
  const seeds = web.web.seedUrls(o.seedCount);
  const inFlight: number[] = [];
  const sampler = setInterval(() => {
    if (firstMs !== 0) inFlight.push(crawler.progress().inFlight);
  }, 100);
  const summary = await crawler.run(seeds).finally(() => clearInterval(sampler));
  const seconds = (performance.now() - firstMs) / 1000;
  const c = process.cpuUsage();
  const workersCpuMs = sum(procs.map((p) => cpuMsOf(p.pid))) - cpuAtFirst.workers;
  const coordinatorCpuMs = (c.user + c.system) / 1000 - cpuAtFirst.coordinator;
  const workersWaitMs = sum(procs.map((p) => runQueueWaitMsOf(p.pid))) - waitAtFirst.workers;
  const coordinatorWaitMs = runQueueWaitMsOf(process.pid) - waitAtFirst.coordinator;
  await stopWorkers(procs);
  const statsAfter = await redisStats(url);
  const taken = await web.take();
  const finished = taken.log.filter((r) => Number.isFinite(r.endMs));
  const counts = new Map<string, number>();
  let robots = 0;
  const robotsByHost = new Map<string, number>();
  for (const r of taken.log) {
    if (r.path === '/robots.txt') {
      robotsByHost.set(r.host, (robotsByHost.get(r.host) ?? 0) + 1);
      robots = Math.max(robots, robotsByHost.get(r.host) ?? 0);
      continue;
    }
    counts.set(`${r.host}${r.path}`, (counts.get(`${r.host}${r.path}`) ?? 0) + 1);
  }
  const pages = summary.steps;
  const redisCpuMs = statsAfter.cpuMs - statsBefore.cpuMs;
  return {
    strategy,
    workers,
    k: o.kPerWorker,
    pages,
    seconds,
    pagesPerSec: (pages - 1) / seconds,
    speedup: 1,
    closestGapMs: closestGapMs(finished).gapMs,
    serverLagMaxMs: taken.lagMaxMs,
    // No worker dies here, but the first worker up takes every shard and hands the extra ones
    // over as the others join: a host may then have one robots.txt per worker that held it.
    maxRobotsPerHostPerWorker: robots,
    redisCommandsPerPage: (statsAfter.commands - statsBefore.commands) / pages,
    redisBytesPerPage: (statsAfter.bytes - statsBefore.bytes) / pages,
    refetched: [...counts.values()].filter((n) => n > 1).length,
    cpuMsPerPage: {
      workers: workersCpuMs / pages,
      coordinator: coordinatorCpuMs / pages,
      web: taken.cpuMs / pages,
      redis: redisCpuMs / pages,
    },
    coresBusy: (workersCpuMs + coordinatorCpuMs + taken.cpuMs + redisCpuMs) / 1000 / seconds,
    load: loadavg()[0] ?? 0,
    runQueueWaitMsPerPage: { workers: workersWaitMs / pages, coordinator: coordinatorWaitMs / pages },
    meanInFlight: sum(inFlight) / Math.max(1, inFlight.length),
  };
}

async function ceilingRun(
  o: ClusterBenchOptions,
  url: string,
  web: WebProcess,
  base: string,
  strategy: string,
): Promise<Ceiling> {
  const name = `ceiling-${strategy}`;
  const profDir = join(base, name, 'worker-profiles');
  const procs = startWorkers(url, name, 2, 64, join(base, name, 'warc'), [
    '--cpu-prof',
    '--cpu-prof-dir',
    profDir,
  ]);
  let decisions = 0;
  const crawler = new Crawler({
    outDir: join(base, name, 'crawl'),
    strategy,
    seed: o.seed,
    keywords: keywordsOf(TOPIC),
    maxPages: o.ceilingPages,
    maxConcurrency: 128,
    shouldWriteWarc: false,
    net: { minDelayMs: 0, resolveRules: web.resolveRules, allowLoopback: true },
    fetchRunner: new ClusterCoordinator({ url, name }),
  });
  let firstMs = 0;
  crawler.on('page', () => {
    decisions++;
    if (firstMs === 0) firstMs = performance.now();
  });
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 1000 });
  await session.post('Profiler.start');
  const cpuBefore = process.cpuUsage();
  const summary = await crawler.run(web.web.seedUrls(o.seedCount));
  const seconds = (performance.now() - firstMs) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  await stopWorkers(procs);
  // Written by each worker as it exits.
  const workerProfiles = readdirSync(profDir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => JSON.parse(readFileSync(join(profDir, f), 'utf8')) as ProfileLike);
  const merged: ProfileLike = {
    nodes: workerProfiles.flatMap((p, i) =>
      p.nodes.map((n) => ({ ...n, id: n.id + i * 1e7, children: n.children?.map((c) => c + i * 1e7) })),
    ),
  };
  const local = new Crawler({
    outDir: join(base, name, 'local'),
    strategy,
    seed: o.seed,
    keywords: keywordsOf(TOPIC),
    maxPages: o.ceilingPages,
    maxConcurrency: 16,
    shouldWriteWarc: false,
    net: { minDelayMs: 0, resolveRules: web.resolveRules, allowLoopback: true },
  });
  let localFirstMs = 0;
  local.on('page', () => {
    if (localFirstMs === 0) localFirstMs = performance.now();
  });
  const localSummary = await local.run(web.web.seedUrls(o.seedCount));
  const localSeconds = (performance.now() - localFirstMs) / 1000;
  return {
    strategy,
    localPagesPerSec: (localSummary.steps - 1) / localSeconds,
    pages: summary.steps,
    seconds,
    pagesPerSec: (summary.steps - 1) / seconds,
    decisionsPerSec: (decisions - 1) / seconds,
    profile: selfTimeByModule(profile as ProfileLike),
    topFunctions: topFunctions(profile as ProfileLike),
    workerProfile: selfTimeByModule(merged, true),
    workerTopFunctions: topFunctions(merged),
    coordinatorCpuMsPerPage: (cpu.user + cpu.system) / 1000 / summary.steps,
  };
}

/** One worker of a balance row. */
interface BalanceWorker {
  id: string;
  /** Pages it fetched (the store's pages whose records are in its WARC file). */
  pages: number;
  /**
   * Share of its time (from its first lease to the crawl's end) in which its shards held no
   * request while another worker's held 2 or more, %.
   */
  idlePct: number;
  /** Its time from its first lease to the crawl's end, s. */
  seconds: number;
  /** Shards it held, on average over that time. */
  meanShards: number;
}

interface BalanceRow {
  label: string;
  /** Hosts of the row's web. */
  hosts: number;
  lateJoin: boolean;
  pages: number;
  seconds: number;
  /** 1-minute load average of the machine at the row's end. */
  load: number;
  workers: BalanceWorker[];
}

/** Each shard's lease value and request count (queued or in flight: entries are deleted when done). */
const SAMPLE_SCRIPT = `local out = {}
local n = #KEYS / 2
for i = 1, n do
  out[#out + 1] = redis.call('GET', KEYS[i]) or ''
  out[#out + 1] = redis.call('XLEN', KEYS[n + i])
end
return out`;

/** Samples (200 ms apart) without a request that make a worker idle: a whole second. */
const IDLE_SAMPLES = 5;

/** The shard count of the crawls here (the default --cluster-shards). */
const BENCH_SHARDS = 64;

/**
 * Part 3 of the file comment: 4 workers started together, or 3 with a fourth joining once a
 * quarter of the pages are recorded; each worker's pages and idle time.
 */
async function balanceRow(
  o: ClusterBenchOptions,
  b: BalanceWeb,
  url: string,
  web: WebProcess,
  base: string,
  lateJoin: boolean,
): Promise<BalanceRow> {
  const name = `balance-${b.hosts}-${lateJoin ? 'late' : 'together'}`;
  const warcDir = join(base, name, 'warc');
  await web.take();
  const procs = startWorkers(url, name, lateJoin ? 3 : 4, o.kPerWorker, warcDir);
  const outDir = join(base, name, 'crawl');
  const crawler = new Crawler({
    outDir,
    strategy: o.balance.strategy,
    seed: o.seed,
    keywords: keywordsOf(TOPIC),
    maxPages: b.maxPages,
    maxConcurrency: o.kPerWorker * 4,
    shouldWriteWarc: false,
    net: { minDelayMs: o.minDelayMs, resolveRules: web.resolveRules, allowLoopback: true },
    fetchRunner: new ClusterCoordinator({ url, name }),
  });
  let recorded = 0;
  let firstMs = 0;
  crawler.on('page', () => {
    recorded++;
    if (firstMs === 0) firstMs = performance.now();
    if (lateJoin && procs.length === 3 && recorded >= b.maxPages / 4)
      procs.push(...startWorkers(url, name, 1, o.kPerWorker, warcDir, [], 3));
  });
  // Each worker's request count and shards, sampled from Redis every 200 ms from the first page.
  const r = await connectRedis(url, 'redis');
  const prefix = `tres:${name}:`;
  const keys = [
    ...Array.from({ length: BENCH_SHARDS }, (_, i) => `${prefix}lease:${i}`),
    ...Array.from({ length: BENCH_SHARDS }, (_, i) => `${prefix}req:${i}`),
  ];
  const samples: Array<{ atMs: number; load: Map<string, number>; shards: Map<string, number> }> = [];
  let isSampling = true;
  const sampling = (async () => {
    while (isSampling) {
      if (firstMs !== 0) {
        const reply = (await r.eval(SAMPLE_SCRIPT, keys.length, ...keys)) as Array<string | number>;
        const load = new Map<string, number>();
        const shards = new Map<string, number>();
        for (let i = 0; i < reply.length; i += 2) {
          const token = String(reply[i]);
          // A holder's token is `<worker id>#<round>`; anything else is no holder.
          const hash = token.lastIndexOf('#');
          if (hash < 0) continue;
          const id = token.slice(0, hash);
          load.set(id, (load.get(id) ?? 0) + Number(reply[i + 1]));
          shards.set(id, (shards.get(id) ?? 0) + 1);
        }
        samples.push({ atMs: performance.now(), load, shards });
      }
      await delay(200);
    }
  })();
  const summary = await crawler.run(web.web.seedUrls(b.seeds)).finally(() => {
    isSampling = false;
  });
  const seconds = (performance.now() - firstMs) / 1000;
  await sampling;
  r.disconnect();
  await stopWorkers(procs);
  const db = new Database(join(outDir, 'crawl.sqlite'), { readonly: true });
  const byFile = db
    .prepare(
      'SELECT warc_file AS file, COUNT(*) AS n FROM pages WHERE warc_file IS NOT NULL GROUP BY warc_file',
    )
    .all() as Array<{ file: string; n: number }>;
  db.close();
  const pagesOf = new Map(byFile.map((row) => [basename(row.file, '.warc.gz'), row.n]));
  const ids = Array.from({ length: 4 }, (_, i) => `w${i}`);
  const endMs = samples.at(-1)?.atMs ?? 0;
  const workers = ids.map((id): BalanceWorker => {
    const from = samples.findIndex((x) => x.shards.has(id));
    const mine = from < 0 ? [] : samples.slice(from);
    let idle = 0;
    let shardSum = 0;
    // Samples in a row with no request in the worker's shards: idle after a whole second of them.
    let streak = 0;
    for (const x of mine) {
      shardSum += x.shards.get(id) ?? 0;
      streak = (x.load.get(id) ?? 0) === 0 ? streak + 1 : 0;
      const hasBacklogElsewhere = [...x.load].some(([other, n]) => other !== id && n >= 2);
      if (streak >= IDLE_SAMPLES && hasBacklogElsewhere) idle++;
    }
    return {
      id,
      pages: pagesOf.get(id) ?? 0,
      idlePct: (100 * idle) / Math.max(1, mine.length),
      seconds: mine.length === 0 ? 0 : (endMs - (mine[0]?.atMs ?? endMs)) / 1000,
      meanShards: shardSum / Math.max(1, mine.length),
    };
  });
  return {
    label: lateJoin ? '3 workers, a fourth joining at a quarter of the pages' : '4 workers started together',
    hosts: b.hosts,
    lateJoin,
    pages: summary.steps,
    seconds,
    load: loadavg()[0] ?? 0,
    workers,
  };
}

interface ProfileLike {
  nodes: Array<{
    id: number;
    callFrame: { url: string; functionName: string };
    hitCount?: number;
    children?: number[];
  }>;
}

/**
 * The functions with the most self time, as shares of the busy samples, as `function (file)`; a native function (no file) is
 * named with the JavaScript function that called it (`writeUtf8String <- writeGeneric (net)`).
 */
function topFunctions(profile: ProfileLike, n = 10): Array<{ module: string; selfPct: number }> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const label = (node: ProfileLike['nodes'][number]): string => {
    const file = node.callFrame.url.replace(/^.*\/(dist|node_modules)\//, '').replace(/^node:/, '');
    return `${node.callFrame.functionName || '(anonymous)'} (${file || 'native'})`;
  };
  const by = new Map<string, number>();
  // Shares of the busy samples (idle ones left out): where the coordinator's CPU time goes.
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0 || node.callFrame.functionName === '(idle)') continue;
    total += hits;
    let name = label(node);
    if (node.callFrame.url === '') {
      const parent = byId.get(parentOf.get(node.id) ?? -1);
      if (parent !== undefined && parent.callFrame.url !== '')
        name = `${node.callFrame.functionName} <- ${label(parent)}`;
    }
    by.set(name, (by.get(name) ?? 0) + hits);
  }
  return [...by.entries()]
    .map(([module, hits]) => ({ module, selfPct: (100 * hits) / Math.max(1, total) }))
    .sort((a, b) => b.selfPct - a.selfPct)
    .slice(0, n);
}

/** Self samples grouped by module: tres rooms by folder, dependencies by package, the rest by kind. */
function selfTimeByModule(
  profile: ProfileLike,
  isBusyOnly = false,
): Array<{ module: string; selfPct: number }> {
  const by = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0 || (isBusyOnly && node.callFrame.functionName === '(idle)')) continue;
    total += hits;
    const u = node.callFrame.url;
    let module: string;
    const dep = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u);
    const room = /\/dist\/([^/]+)\//.exec(u);
    if (dep) module = dep[1] as string;
    else if (room) module = `tres ${room[1]}`;
    else if (u.startsWith('node:')) module = 'node core';
    else if (u === '')
      module =
        node.callFrame.functionName === '(idle)'
          ? 'idle (waiting for I/O)'
          : `(${node.callFrame.functionName || 'native'})`;
    else module = 'other';
    by.set(module, (by.get(module) ?? 0) + hits);
  }
  return [...by.entries()]
    .map(([module, hits]) => ({ module, selfPct: (100 * hits) / Math.max(1, total) }))
    .sort((a, b) => b.selfPct - a.selfPct)
    .slice(0, 8);
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function startWorkers(
  url: string,
  name: string,
  n: number,
  k: number,
  warcDir: string,
  nodeArgs: string[] = [],
  firstIndex = 0,
): ChildProcess[] {
  return Array.from({ length: n }, (_, j) => j + firstIndex).map((i) =>
    spawn(
      process.execPath,
      [
        ...nodeArgs,
        BIN,
        'worker',
        '--cluster',
        url,
        '--cluster-name',
        name,
        '--id',
        `w${i}`,
        '--concurrency',
        String(k),
        '--warc-dir',
        warcDir,
        '--quiet',
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    ),
  );
}

async function stopWorkers(procs: ChildProcess[]): Promise<void> {
  await Promise.all(
    procs.map(async (p) => {
      if (p.exitCode !== null) return;
      const closed = once(p, 'close');
      p.kill('SIGTERM');
      await closed;
    }),
  );
}

async function redisStats(url: string): Promise<{ commands: number; bytes: number; cpuMs: number }> {
  const r = await connectRedis(url, 'redis');
  try {
    const info = await r.info('stats');
    const cpuInfo = await r.info('cpu');
    const cpuOf = (text: string, key: string) => Number(new RegExp(`${key}:([\\d.]+)`).exec(text)?.[1] ?? 0);
    const n = (key: string) => Number(new RegExp(`${key}:(\\d+)`).exec(info)?.[1] ?? 0);
    return {
      commands: n('total_commands_processed'),
      bytes: n('total_net_input_bytes') + n('total_net_output_bytes'),
      cpuMs: 1000 * (cpuOf(cpuInfo, 'used_cpu_user') + cpuOf(cpuInfo, 'used_cpu_sys')),
    };
  } finally {
    r.disconnect();
  }
}

function markdown(o: ClusterBenchOptions, rows: Row[], ceilings: Ceiling[], balances: BalanceRow[]): string {
  const lines = [
    '# Scale-out over Redis Streams',
    '',
    `${o.webHosts} hosts, ${o.webPages} pages; responses delayed ${o.delayMs[0]}-${o.delayMs[1]} ms; min delay ${o.minDelayMs} ms per host; K = ${o.kPerWorker} per worker; ${o.pagesPerWorker} pages per worker per row.`,
    '',
    'The web runs in a process of its own; "server lag" is its event loop\'s longest delay (its log\'s stamps can be that late). CPU ms per page: all workers together / the coordinator / the web / Redis; "cores busy": their CPU time over the wall time; "CPU wait": time the workers\' (together) and the coordinator\'s main threads were runnable but waited for a CPU (Linux schedstat); load: the machine\'s 1-minute load average at the row\'s end (2 cores).',
    '',
    '| strategy | workers | pages | s | pages/s | speed-up | closest gap/host ms | server lag max ms | robots.txt/host | Redis cmds/page | Redis KiB/page | refetched | CPU ms/page W/C/web/R | cores busy | CPU wait ms/page W/C | in flight | load |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.strategy} | ${r.workers} | ${r.pages} | ${r.seconds.toFixed(1)} | ${r.pagesPerSec.toFixed(1)} | ${r.speedup.toFixed(2)} | ${r.closestGapMs.toFixed(0)} | ${r.serverLagMaxMs.toFixed(0)} | ${r.maxRobotsPerHostPerWorker} | ${r.redisCommandsPerPage.toFixed(1)} | ${(r.redisBytesPerPage / 1024).toFixed(1)} | ${r.refetched} | ${r.cpuMsPerPage.workers.toFixed(1)} / ${r.cpuMsPerPage.coordinator.toFixed(1)} / ${r.cpuMsPerPage.web.toFixed(1)} / ${r.cpuMsPerPage.redis.toFixed(1)} | ${r.coresBusy.toFixed(2)} | ${r.runQueueWaitMsPerPage.workers.toFixed(1)} / ${r.runQueueWaitMsPerPage.coordinator.toFixed(1)} | ${r.meanInFlight.toFixed(1)} / ${r.k * r.workers} | ${r.load.toFixed(1)} |`,
    ),
    '',
    '## Coordinator ceiling (instant workers)',
    '',
    '| strategy | pages | s | recorded pages/s | decisions/s | one process, pages/s | coordinator CPU ms/page | profile (self time) |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...ceilings.map(
      (c) =>
        `| ${c.strategy} | ${c.pages} | ${c.seconds.toFixed(1)} | ${c.pagesPerSec.toFixed(0)} | ${c.decisionsPerSec.toFixed(0)} | ${c.localPagesPerSec.toFixed(0)} | ${c.coordinatorCpuMsPerPage.toFixed(2)} | ${c.profile.map((p) => `${p.module} ${p.selfPct.toFixed(0)}%`).join(', ')} |`,
    ),
    '',
    ...ceilings.flatMap((c) => [
      `Workers (${c.strategy}; \`node --cpu-prof\`, merged, share of busy time): ${c.workerProfile.map((p) => `${p.module} ${p.selfPct.toFixed(0)}%`).join(', ')}; top functions: ${c.workerTopFunctions.map((p) => `${p.module} ${p.selfPct.toFixed(1)}%`).join(', ')}`,
      '',
      `Top functions of the coordinator (${c.strategy}, self time as a share of its busy time): ${c.topFunctions.map((p) => `${p.module} ${p.selfPct.toFixed(1)}%`).join(', ')}`,
      '',
    ]),
    '',
    "## Balance: each worker's pages and idle time",
    '',
    `Webs of ${o.balance.webs.map((w) => `${w.hosts} hosts (${w.pages} pages, ${w.seeds} seeds, ${w.maxPages} pages a row)`).join(' and ')}; ${o.balance.strategy}, K = ${o.kPerWorker} per worker. Idle: the worker's shards held no request (queued or in flight) for a second or more while another worker's held 2 or more, as a share of its time from its first lease to the end (Redis sampled every 200 ms).`,
    '',
    '| hosts | row | pages | s | load | worker | pages | share | idle % | s | shards held |',
    '|---:|---|---:|---:|---:|---|---:|---:|---:|---:|---:|',
    ...balances.flatMap((b) =>
      b.workers.map(
        (w) =>
          `| ${b.hosts} | ${b.label} | ${b.pages} | ${b.seconds.toFixed(1)} | ${b.load.toFixed(1)} | ${w.id} | ${w.pages} | ${((100 * w.pages) / Math.max(1, b.pages)).toFixed(1)}% | ${w.idlePct.toFixed(1)} | ${w.seconds.toFixed(1)} | ${w.meanShards.toFixed(1)} |`,
      ),
    ),
    '',
  ];
  return lines.join('\n');
}
