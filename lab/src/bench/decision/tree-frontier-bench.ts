/**
 * Tree-Frontier micro-benchmark: a synthetic crawl that grows the frontier past 500,000 samples
 * within 20,000 steps (the regime of the journal paper's Figure 4), timing the tree's share of
 * each decision. No network, no Q-network: the "policy" takes the argmax of a fixed linear score
 * over the representatives, so the numbers are the tree's alone.
 *
 * Each step, as the crawl loop does: draw representatives, take the best, remove it and purge its
 * URL (fetched), add its experience (reward = the page's hidden relevance), purge its domain when
 * it reaches the page limit b, and add ~`outlinksPerStep` new samples. Features (8, as in TRES
 * section 2.4.1): parent reward {0,1}, 1/d, path relevance ratio, keyword in URL, keyword in
 * anchor, keyphrase in anchor, domain relevance ratio (0.5 unseen), anchor probability (continuous).
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { type Clock, createRng, hash32, systemClock } from 'tres-crawler';
import { TreeFrontier, type TreeFrontierOptions } from 'tres-crawler/internals';
import { benchEnv, writeResults } from '../bench-env.js';

/** Options of {@link runTreeFrontierBench}. */
export interface TreeFrontierBenchOptions {
  /** Steps (pages "fetched"). @default 20_000 */
  steps: number;
  /** Mean new outlinks per step (uniform in [0, 2 * mean]). @default 40 */
  outlinksPerStep: number;
  /** Print and record a row every this many steps. @default 1_000 */
  reportEvery: number;
  /** Domains of the synthetic web. @default 20_000 */
  domainCount: number;
  /** Page limit b per domain (its samples are purged when reached); false for none. @default 100 */
  domainLimit: number | false;
  /** Tree options (featureCount is 8). @default the tree's defaults */
  tree: Omit<TreeFrontierOptions, 'featureCount'>;
  /** Seed of every random choice. @default 'tree-frontier-bench' */
  seed: string;
  /** Where `tree-frontier.json` and `.md` go; false to write nothing. @default false */
  resultsDir: string | false;
  /** Timer. @default systemClock */
  clock: Clock;
  /** Where lines go. @default console.log */
  log: (line: string) => void;
}

/** Defaults of {@link TreeFrontierBenchOptions}. */
export const DEFAULT_TREE_FRONTIER_BENCH_OPTIONS: Readonly<TreeFrontierBenchOptions> = Object.freeze({
  steps: 20_000,
  outlinksPerStep: 40,
  reportEvery: 1_000,
  domainCount: 20_000,
  domainLimit: 100,
  tree: {},
  seed: 'tree-frontier-bench',
  resultsDir: false,
  clock: systemClock,
  log: (line: string) => console.log(line),
});

/** One row of the report: the state after `step` steps and timings over the last window. */
export interface TreeFrontierBenchRow {
  step: number;
  /** Frontier samples. */
  size: number;
  leaves: number;
  nonEmptyLeaves: number;
  depth: number;
  /** Median and p99 over the window of addExperience + representatives + removals, per step (ms). */
  medianStepMs: number;
  p99StepMs: number;
  /** Median over the window of adding the step's new samples (ms). */
  medianAddMs: number;
  /** Heap used (after a GC when possible) minus the starting heap, per frontier sample (bytes). */
  heapBytesPerSample: number;
}

/** What the benchmark measured. */
export interface TreeFrontierBenchResult {
  rows: TreeFrontierBenchRow[];
  /** Over all steps: median and p99 of the step time (ms). */
  medianStepMs: number;
  p99StepMs: number;
  /** Samples ever added and removed by purges (URL or domain). */
  samplesAdded: number;
  samplesPurged: number;
  /** Heap kept by the tree alone per sample (bytes), measured by dropping it at the end; NaN without GC. */
  treeBytesPerSample: number;
  seconds: number;
}

interface BenchSample {
  x: Float32Array;
  url: string;
  host: string;
  domain: string;
  depth: number;
  isRelevant: boolean;
  /** Pages since the last relevant one on the path (d of the 1/d feature). */
  hops: number;
  pathRelevant: number;
  pathLength: number;
  /** The fixed linear score the benchmark's greedy "policy" maximises. */
  score: number;
}

const WEIGHTS = [0.8, 0.6, 0.5, 0.7, 0.9, 0.6, 0.8, 1.5];

/** A GC function: the flag route works without `node --expose-gc` (benchmark only). */
function findGc(): (() => void) | undefined {
  const g = (globalThis as { gc?: () => void }).gc;
  if (typeof g === 'function') return g;
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

/** Runs the benchmark, prints a row every `reportEvery` steps and a summary; returns the figures. */
export function runTreeFrontierBench(
  options: Partial<TreeFrontierBenchOptions> = {},
): TreeFrontierBenchResult {
  const o: TreeFrontierBenchOptions = { ...DEFAULT_TREE_FRONTIER_BENCH_OPTIONS, ...options };
  const now = () => o.clock.monotonicMs();
  const rng = createRng(o.seed);
  const webRng = rng.fork('web');
  const treeRng = rng.fork('tree');
  const gc = findGc();
  const heap = () => {
    gc?.();
    return process.memoryUsage().heapUsed;
  };
  const startedMs = now();
  const baseHeap = heap();
  let tree: TreeFrontier | undefined = new TreeFrontier({ ...o.tree, featureCount: 8 });
  // The benchmark's own data of each sample, by the id the tree gave it (ids are reused).
  const meta: BenchSample[] = [];
  const add = (s: BenchSample) => {
    meta[(tree as TreeFrontier).add(s, 0, s.x)] = s;
  };
  // Hidden topicality: 20% of domains are on topic (pages relevant with p = 0.6), the rest 0.05.
  const topical = (domain: number) => hash32(`topic/${domain}`) % 5 === 0;
  const domainFetched = new Map<string, number>();
  const domainRelevant = new Map<string, number>();
  const recentUrls: string[] = [];
  let urlCounter = 0;

  const newSample = (parent: BenchSample | undefined, reward: number, domainId: number): BenchSample => {
    const isDuplicate = recentUrls.length > 0 && webRng.next() < 0.1;
    const url = isDuplicate
      ? (recentUrls[webRng.int(recentUrls.length)] as string)
      : `http://d${domainId}.test/p${urlCounter++}`;
    // A ring of the last 5,000 new URLs, from which duplicates (links to a known URL) are drawn.
    if (!isDuplicate) recentUrls[(urlCounter - 1) % 5_000] = url;
    const domain = url.slice(7, url.indexOf('/', 7));
    const p = topical(Number(domain.slice(1, -5))) ? 0.6 : 0.05;
    const isRelevant = hash32(url) / 2 ** 32 < p;
    const hops = parent === undefined || reward === 1 ? 1 : parent.hops + 1;
    const pathRelevant = (parent?.pathRelevant ?? 0) + reward;
    const pathLength = (parent?.pathLength ?? 0) + 1;
    const fetched = domainFetched.get(domain) ?? 0;
    const u = webRng.next();
    const x = Float32Array.of(
      reward,
      1 / Math.min(hops, 10),
      Math.round((4 * pathRelevant) / pathLength) / 4,
      webRng.next() < (isRelevant ? 0.5 : 0.05) ? 1 : 0,
      webRng.next() < (isRelevant ? 0.4 : 0.05) ? 1 : 0,
      webRng.next() < (isRelevant ? 0.2 : 0.01) ? 1 : 0,
      fetched === 0 ? 0.5 : (domainRelevant.get(domain) ?? 0) / fetched,
      isRelevant ? 0.4 + 0.6 * Math.sqrt(u) : 0.6 * u * u,
    );
    let score = 0;
    for (let j = 0; j < 8; j++) score += (WEIGHTS[j] as number) * (x[j] as number);
    return { x, url, host: domain, domain, depth: 0, isRelevant, hops, pathRelevant, pathLength, score };
  };

  let samplesAdded = 0;
  let samplesPurged = 0;
  const stepMs = new Float64Array(o.steps);
  const addMs = new Float64Array(o.steps);
  const rows: TreeFrontierBenchRow[] = [];
  for (let i = 0; i < 10; i++) {
    add(newSample(undefined, 1, webRng.int(o.domainCount)));
    samplesAdded++;
  }
  o.log('  step |    size | leaves | non-empty | depth | median ms | p99 ms | add ms | heap B/sample');
  for (let step = 0; step < o.steps && tree.size > 0; step++) {
    const t0 = now();
    const reps = tree.representatives(treeRng);
    const t1 = now();
    let chosenId = reps[0] as number;
    let chosen = meta[chosenId] as BenchSample;
    for (const id of reps) {
      const s = meta[id] as BenchSample;
      if (s.score > chosen.score || (s.score === chosen.score && s.url < chosen.url)) {
        chosen = s;
        chosenId = id;
      }
    }
    const t2 = now();
    tree.take(chosenId);
    samplesPurged += tree.removeUrl(chosen.url);
    const reward = chosen.isRelevant ? 1 : 0;
    tree.addExperience(chosen.x, reward);
    const fetched = (domainFetched.get(chosen.domain) ?? 0) + 1;
    domainFetched.set(chosen.domain, fetched);
    domainRelevant.set(chosen.domain, (domainRelevant.get(chosen.domain) ?? 0) + reward);
    const isClosed = o.domainLimit !== false && fetched >= o.domainLimit;
    if (isClosed) samplesPurged += tree.purgeDomain(chosen.domain);
    const t3 = now();
    stepMs[step] = t1 - t0 + (t3 - t2);
    const parentDomain = Number(chosen.domain.slice(1, -5));
    const outlinks: BenchSample[] = [];
    for (let k = webRng.int(2 * o.outlinksPerStep + 1); k > 0; k--) {
      const domainId = webRng.next() < 0.7 ? parentDomain : webRng.int(o.domainCount);
      const s = newSample(chosen, reward, domainId);
      const isOpen = o.domainLimit === false || (domainFetched.get(s.domain) ?? 0) < o.domainLimit;
      if (isOpen && s.url !== chosen.url) outlinks.push(s);
    }
    const t4 = now();
    for (const s of outlinks) add(s);
    addMs[step] = now() - t4;
    samplesAdded += outlinks.length;
    if ((step + 1) % o.reportEvery === 0 || step + 1 === o.steps) {
      const window = (a: Float64Array) => a.slice(Math.max(0, step + 1 - o.reportEvery), step + 1).sort();
      const stepWindow = window(stepMs);
      const row: TreeFrontierBenchRow = {
        step: step + 1,
        size: tree.size,
        leaves: tree.leafCount,
        nonEmptyLeaves: tree.nonEmptyLeafCount,
        depth: tree.depth,
        medianStepMs: quantile(stepWindow, 0.5),
        p99StepMs: quantile(stepWindow, 0.99),
        medianAddMs: quantile(window(addMs), 0.5),
        heapBytesPerSample: (heap() - baseHeap) / Math.max(1, tree.size),
      };
      rows.push(row);
      o.log(
        `${String(row.step).padStart(6)} | ${String(row.size).padStart(7)} | ${String(row.leaves).padStart(6)} | ` +
          `${String(row.nonEmptyLeaves).padStart(9)} | ${String(row.depth).padStart(5)} | ` +
          `${row.medianStepMs.toFixed(3).padStart(9)} | ${row.p99StepMs.toFixed(3).padStart(6)} | ` +
          `${row.medianAddMs.toFixed(3).padStart(6)} | ${row.heapBytesPerSample.toFixed(0).padStart(13)}`,
      );
    }
  }
  const stepsRun = rows.at(-1)?.step ?? 0;
  const all = stepMs.slice(0, stepsRun).sort();
  // The tree's own share of the heap: keep the samples, drop the tree, measure again.
  let treeBytesPerSample = Number.NaN;
  if (gc) {
    const withTree = heap();
    const kept = [...tree.samples()].map((id) => meta[id]);
    tree = undefined;
    treeBytesPerSample = (withTree - heap()) / Math.max(1, kept.length);
  }
  const result: TreeFrontierBenchResult = {
    rows,
    medianStepMs: quantile(all, 0.5),
    p99StepMs: quantile(all, 0.99),
    samplesAdded,
    samplesPurged,
    treeBytesPerSample,
    seconds: (now() - startedMs) / 1000,
  };
  o.log(
    `all steps: median ${result.medianStepMs.toFixed(3)} ms, p99 ${result.p99StepMs.toFixed(3)} ms; ` +
      `${samplesAdded} samples added, ${samplesPurged} purged; tree alone ${treeBytesPerSample.toFixed(0)} B/sample; ${result.seconds.toFixed(1)} s`,
  );
  if (o.resultsDir !== false) writeReport(o, result);
  return result;
}

function writeReport(o: TreeFrontierBenchOptions, r: TreeFrontierBenchResult): void {
  const env = benchEnv();
  const table = [
    '| step | frontier size | leaves | non-empty leaves | depth | median ms | p99 ms | add ms | heap B/sample |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...r.rows.map(
      (w) =>
        `| ${w.step} | ${w.size} | ${w.leaves} | ${w.nonEmptyLeaves} | ${w.depth} | ${w.medianStepMs.toFixed(3)} | ${w.p99StepMs.toFixed(3)} | ${w.medianAddMs.toFixed(3)} | ${w.heapBytesPerSample.toFixed(0)} |`,
    ),
  ].join('\n');
  const md =
    `# Tree-Frontier micro-benchmark\n\nSynthetic crawl, ${o.steps} steps, ~${o.outlinksPerStep} outlinks per step, ` +
    `${o.domainCount} domains, b = ${o.domainLimit}, seed ${o.seed}. Step time = representatives + removals + ` +
    `addExperience (+ domain purge); "add ms" = adding the step's new samples. Heap per sample includes the samples ` +
    `themselves; the tree alone keeps ${r.treeBytesPerSample.toFixed(0)} B per sample.\n\n${table}\n\n` +
    `All steps: median ${r.medianStepMs.toFixed(3)} ms, p99 ${r.p99StepMs.toFixed(3)} ms.\n\n` +
    `Command: \`${env.command}\` at commit ${env.commit}, ${env.node}, ${env.cores} x ${env.cpu}, ${env.date}.\n`;
  const { clock: _clock, log: _log, ...config } = o;
  writeResults(o.resultsDir as string, 'tree-frontier', { env, options: config, result: r }, md);
}
