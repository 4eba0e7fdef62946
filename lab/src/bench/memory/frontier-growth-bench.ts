/**
 * Growth benchmark of the frontier's storage (the work's own latency spikes): the time
 * of every single insert over `inserts` inserts into a {@link SampleTable} as TRES's Tree-Frontier
 * keeps it (9-float vectors, URLs indexed, one `removeUrl` per `linksPerPage` adds, as a crawl
 * takes one URL per page), into one as the priority frontiers keep it (URLs not indexed, keys),
 * and into a bare {@link StringIds}: median, p99, p99.9, max, and the same less GC pauses and
 * waits for a CPU (the work's own), with the slowest inserts; then the speed of lookups on the
 * full tables, and the heap and RSS bytes per sample of the first.
 *
 * Run: `npm run build && node --expose-gc dist/bench/memory/frontier-growth-bench.js [inserts]`
 * (or through vite-node). Prints one Markdown report; it is short and not written to results/.
 */
import { pathToFileURL } from 'node:url';
import { createRng } from 'tres-crawler';
import { growableBytes, SampleTable, StringIds } from 'tres-crawler/internals';
import { type GcPause, ThreadSchedstat, watchGc } from '../decision/index.js';

/** Options of {@link runFrontierGrowthBench}. */
export interface FrontierGrowthBenchOptions {
  /** Inserts per part. @default 1_000_000 */
  inserts: number;
  /** Adds per `removeUrl` of the sample table (a fetched page's outlinks). @default 50 */
  linksPerPage: number;
  /** Hosts of the generated URLs. @default 2000 */
  hostCount: number;
  seed: string;
}

export const DEFAULT_FRONTIER_GROWTH_BENCH_OPTIONS: FrontierGrowthBenchOptions = {
  inserts: 1_000_000,
  linksPerPage: 50,
  hostCount: 2000,
  seed: '1',
};

const FEATURES = 9;
const gc = (globalThis as { gc?: () => void }).gc;

interface Tail {
  totalMs: number;
  medianUs: number;
  p99Us: number;
  p999Us: number;
  maxUs: number;
  /**
   * Max of the insert times less the GC pauses or the waits for a CPU inside them, whichever is
   * longer (a GC pause may hold a wait: an upper bound of the table's own work).
   */
  maxOwnUs: number;
  /** p99.9 of the same. */
  p999OwnUs: number;
  /** The 5 slowest inserts by their own time: index, own µs, wall µs, µs of GC, µs waiting. */
  slowest: { at: number; ownUs: number; us: number; gcUs: number; waitUs: number }[];
}

/** GC time inside [start, start + duration]. */
function gcInside(pauses: readonly GcPause[], start: number, duration: number): number {
  let ms = 0;
  for (const p of pauses) {
    const a = Math.max(start, p.startMs);
    const b = Math.min(start + duration, p.startMs + p.durationMs);
    if (b > a) ms += b - a;
  }
  return ms;
}

/** Quantile `q` of `values` in µs (values in ms). */
function quantileUs(values: Float64Array, q: number): number {
  const sorted = Float64Array.from(values).sort();
  return (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number) * 1000;
}

function tailOf(
  times: Float64Array,
  starts: Float64Array,
  waits: Float64Array,
  pauses: readonly GcPause[],
): Tail {
  const gcOf = (i: number) => gcInside(pauses, starts[i] as number, times[i] as number);
  const own = times.map((t, i) => t - (waits[i] as number));
  // GC pauses are few: find the inserts they fall in by the start times (ascending).
  for (const p of pauses) {
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((starts[mid] as number) + (times[mid] as number) < p.startMs) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < starts.length && (starts[i] as number) < p.startMs + p.durationMs; i++)
      own[i] = Math.min(own[i] as number, (times[i] as number) - gcOf(i));
  }
  const order = Array.from(own.keys()).sort((a, b) => (own[b] as number) - (own[a] as number));
  return {
    totalMs: times.reduce((s, t) => s + t, 0),
    medianUs: quantileUs(times, 0.5),
    p99Us: quantileUs(times, 0.99),
    p999Us: quantileUs(times, 0.999),
    maxUs: quantileUs(times, 1),
    maxOwnUs: quantileUs(own, 1),
    p999OwnUs: quantileUs(own, 0.999),
    slowest: order.slice(0, 5).map((i) => ({
      at: i,
      ownUs: (own[i] as number) * 1000,
      us: (times[i] as number) * 1000,
      gcUs: gcOf(i) * 1000,
      waitUs: (waits[i] as number) * 1000,
    })),
  };
}

/** Heap used + external + growable columns (V8 counts those in neither), and RSS, after two GCs. */
async function memory(): Promise<{ heap: number; rss: number }> {
  gc?.();
  gc?.();
  await new Promise((resolve) => setTimeout(resolve, 10)); // finalizers of collected columns
  const m = process.memoryUsage();
  return { heap: m.heapUsed + m.external + growableBytes(), rss: m.rss };
}

/** Per-insert wall times, start times and waits for a CPU (ms) of `n` calls of `insert`. */
interface Timed {
  times: Float64Array;
  starts: Float64Array;
  waits: Float64Array;
}

/** Times each `insert(i)` alone; `prepare(i)` runs first, outside the timed span. */
function timeEach<T>(
  n: number,
  sched: ThreadSchedstat,
  prepare: (i: number) => T,
  insert: (input: T, i: number) => void,
): Timed {
  const t: Timed = { times: new Float64Array(n), starts: new Float64Array(n), waits: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const input = prepare(i);
    const w0 = sched.waitMs();
    const t0 = performance.now();
    insert(input, i);
    t.times[i] = performance.now() - t0;
    t.waits[i] = sched.waitMs() - w0 || 0;
    t.starts[i] = t0;
  }
  return t;
}

/** Runs the three parts; resolves with the Markdown report. */
export async function runFrontierGrowthBench(o: FrontierGrowthBenchOptions): Promise<string> {
  const rng = createRng(o.seed).fork('growth');
  // Each input's host and page number up front; its strings made just before its insert (outside
  // the timed span), so the heap holds no more strings than the table keeps.
  const hostOf = Int32Array.from({ length: o.inserts }, () => rng.int(o.hostCount));
  const pageOf = Int32Array.from({ length: o.inserts }, () => rng.int(o.inserts * 5));
  const hostName = (h: number) => `www.site${h}.example.com`;
  const urlOf = (i: number) => {
    const page = pageOf[i] as number;
    return `https://${hostName(hostOf[i] as number)}/section-${page % 97}/page-${page}.html`;
  };
  const inputOf = (i: number) => {
    const host = hostName(hostOf[i] as number);
    return { url: urlOf(i), host, domain: host.slice(4), depth: 1 };
  };
  const distinctOf = (i: number) => `https://${hostName(i % o.hostCount)}/d/${i}.html`;
  const isPageEnd = (i: number) => i % o.linksPerPage === o.linksPerPage - 1;
  const base = await memory();
  const gcWatch = watchGc();
  const sched = new ThreadSchedstat();

  // Part 1: the sample table of TRES's Tree-Frontier (URLs indexed), as a crawl fills it.
  const table = new SampleTable({ featureCount: FEATURES });
  const indexed = timeEach(o.inserts, sched, inputOf, (input, i) => {
    const id = table.add(input, i);
    table.x[id * FEATURES] = 1;
    if (isPageEnd(i)) table.removeUrl(urlOf(i >> 1), () => {});
  });
  const afterTable = await memory();

  // Lookups on the full table: URL to its count (hash lookups, mostly hits), id to columns.
  const lookupCount = Math.min(o.inserts, 1_000_000);
  const probes = Array.from({ length: lookupCount }, (_, i) => urlOf((i * 7919) % o.inserts));
  let sink = 0;
  let t0 = performance.now();
  for (const url of probes) sink += table.countUrl(url);
  const countUrlNs = ((performance.now() - t0) * 1e6) / lookupCount;
  const ids = [...table.ids()];
  t0 = performance.now();
  for (let r = 0; r < 3; r++)
    for (const id of ids)
      sink +=
        table.depth(id) +
        table.parent(id) +
        table.domainIdOf(id) +
        (table.x[id * FEATURES] as number) +
        table.url(id).length;
  const columnsNs = ((performance.now() - t0) * 1e6) / (3 * ids.length);
  const samples = table.size;
  const urls = table.urlCount;

  // Part 2: the table of the priority frontiers (bfs, best-first: URLs kept as given, a key per
  // sample, no vector), one sample taken per page.
  const plain = new SampleTable({ isUrlIndexed: false });
  plain.useKeys();
  const notIndexed = timeEach(o.inserts, sched, inputOf, (input, i) => {
    const id = plain.add(input, i);
    plain.key[id] = i;
    if (isPageEnd(i)) plain.remove(i >> 1);
  });

  // Part 3: a bare StringIds, every string new.
  const strings = new StringIds();
  const interned = timeEach(o.inserts, sched, distinctOf, (s) => strings.intern(s));
  const hits = Array.from({ length: lookupCount }, (_, i) => distinctOf((i * 7919) % o.inserts));
  const misses = Array.from({ length: lookupCount }, (_, i) => `${distinctOf(i)}#`);
  t0 = performance.now();
  for (const s of hits) sink += strings.idOf(s) ?? 0;
  const idOfNs = ((performance.now() - t0) * 1e6) / lookupCount;
  t0 = performance.now();
  for (const s of misses) sink += strings.idOf(s) ?? 0;
  const missNs = ((performance.now() - t0) * 1e6) / lookupCount;
  const pauses = await gcWatch.stop();
  const hasWait = sched.hasWait;
  sched.close();

  const us = (v: number) => v.toFixed(1);
  const row = (name: string, timed: Timed) => {
    const t = tailOf(timed.times, timed.starts, timed.waits, pauses);
    return `| ${name} | ${t.totalMs.toFixed(0)} | ${us(t.medianUs)} | ${us(t.p99Us)} | ${us(t.p999Us)} | ${us(t.maxUs)} | ${us(t.p999OwnUs)} | ${us(t.maxOwnUs)} | ${t.slowest.map((s) => `${us(s.ownUs)} @${s.at} (wall ${us(s.us)}, GC ${us(s.gcUs)}, wait ${us(s.waitUs)})`).join(', ')} |`;
  };
  const perSample = (m: { heap: number; rss: number }) =>
    `${((m.heap - base.heap) / samples).toFixed(1)} heap / ${((m.rss - base.rss) / samples).toFixed(1)} RSS`;
  return `Times of single inserts; "own" is less the GC pauses or the waits for a CPU inside the insert, whichever is longer${hasWait ? '' : ' (waits not measured here)'}.

| part | total ms | median µs | p99 µs | p99.9 µs | max µs | own p99.9 µs | own max µs | slowest 5 by own time (µs @ insert) |
|---|---:|---:|---:|---:|---:|---:|---:|---|
${row(`SampleTable.add, URLs indexed, 9 floats (${o.inserts} adds, ${samples} samples at the end)`, indexed)}
${row(`SampleTable.add, URLs not indexed, keys (${o.inserts} adds, ${plain.size} at the end)`, notIndexed)}
${row(`StringIds.intern (${o.inserts} new strings)`, interned)}

Lookups on the indexed table and the StringIds: countUrl ${countUrlNs.toFixed(0)} ns, idOf hit ${idOfNs.toFixed(0)} ns, idOf miss ${missNs.toFixed(0)} ns, columns of one id ${columnsNs.toFixed(0)} ns.
Bytes per sample of the indexed table (after two GCs, less before; its ${urls} URL strings included): ${perSample(afterTable)}.
(sink ${sink > 0 ? 'ok' : 'zero'})`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const inserts = Number(process.argv[2] ?? DEFAULT_FRONTIER_GROWTH_BENCH_OPTIONS.inserts);
  console.log(await runFrontierGrowthBench({ ...DEFAULT_FRONTIER_GROWTH_BENCH_OPTIONS, inserts }));
}
