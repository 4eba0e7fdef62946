/**
 * Decision benchmark (the journal's Figure 4 and Theorem 1): on a generated web large
 * enough that the frontier passes 500,000 samples within 20,000 steps, crawl sequentially (K = 1)
 * with `tres` and record per step the frontier size, the number of Tree-Frontier leaves, the Q
 * evaluations and the wall time of the decision (select, update the tree, train). Then run the
 * `synchronous` method (exact argmax over the whole frontier) as far as a time budget allows and
 * extrapolate honestly: its Q evaluations at step t equal the frontier size at t, and its time
 * per step is the measured time per Q evaluation times that size.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Crawler, createRng, createSyntheticWeb, sandboxResolveRules, startReplayServer } from 'tres-crawler';
import { KeywordSet, keywordsOf, TresStrategy } from 'tres-crawler/internals';
import { benchEnv, writeResults } from '../bench-env.js';
import { lineChart } from '../report/index.js';
import { decisionTail, type GcPause, tailMarkdown, watchGc } from './decision-tail.js';
import { type DecisionRecord, TimedStrategy } from './timed-strategy.js';

export interface DecisionBenchOptions {
  /** Steps of the tres crawl. @default 20_000 */
  steps: number;
  /** Wall-time budget of the synchronous crawl, in seconds. @default 240 */
  synchronousBudgetSec: number;
  /** Pages of the generated web. @default 1_000_000 */
  webPages: number;
  resultsDir: string;
  seed: string;
}

export const DEFAULT_DECISION_BENCH_OPTIONS: Omit<DecisionBenchOptions, 'resultsDir'> = {
  steps: 20_000,
  synchronousBudgetSec: 240,
  webPages: 1_000_000,
  seed: '1',
};

/** Links per page of the generated web: enough that the frontier passes 500,000 within 20,000 steps. */
const MEAN_OUT_DEGREE = 50;

/** Median and 99th percentile of `values`. */
function quantiles(values: number[]): { median: number; p99: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { median: at(0.5), p99: at(0.99) };
}

interface Window {
  step: number;
  frontierSize: number;
  leaves: number;
  qEvaluationsPerStep: number;
  decisionMedianMs: number;
  decisionP99Ms: number;
  /** p99 of the decision time less the wait for a CPU other processes held (the work). */
  unwaitedP99Ms: number;
}

/** Summaries of each block of `every` steps. */
function windows(records: DecisionRecord[], every: number): Window[] {
  const out: Window[] = [];
  for (let end = every; end <= records.length; end += every) {
    const block = records.slice(end - every, end);
    const last = block[block.length - 1] as DecisionRecord;
    const q = quantiles(block.map((r) => r.decisionMs));
    const unwaited = quantiles(block.map((r) => r.measuredMs - r.waitMs));
    out.push({
      step: end,
      frontierSize: last.frontierSize,
      leaves: last.leaves,
      qEvaluationsPerStep: block.reduce((s, r) => s + r.qEvaluations, 0) / block.length,
      decisionMedianMs: q.median,
      decisionP99Ms: q.p99,
      unwaitedP99Ms: unwaited.p99,
    });
  }
  return out;
}

async function crawlTimed(
  name: 'tres' | 'synchronous',
  o: DecisionBenchOptions,
  web: ReturnType<typeof createSyntheticWeb>,
  rules: string[],
  work: string,
  budget: { steps: number; timeLimitMs?: number },
): Promise<{ records: DecisionRecord[]; gcPauses: GcPause[]; hasWait: boolean; loadAverages: number[] }> {
  const keywords = keywordsOf(web.options.relevantTopic);
  // As the registry makes `tres` and `synchronous` (no overrides), plus the phase timer.
  const strategy = new TimedStrategy(
    (phaseTimer) =>
      new TresStrategy({
        variant: name,
        rng: createRng(o.seed).fork('strategy'),
        keywords: new KeywordSet(keywords),
        phaseTimer,
      }),
  );
  const gc = watchGc();
  const loadAtStart = loadavg()[0] as number;
  const crawler = new Crawler({
    outDir: join(work, name),
    strategy,
    seed: o.seed,
    keywords,
    maxPages: budget.steps,
    ...(budget.timeLimitMs ? { timeLimitMs: budget.timeLimitMs } : {}),
    maxConcurrency: 1,
    shouldWriteWarc: false,
    progressIntervalMs: 10_000,
    net: { minDelayMs: 0, resolveRules: rules, allowLoopback: true },
  });
  crawler.on('progress', (p) =>
    console.log(
      `  ${name}: step ${p.steps}, frontier ${p.frontierSize}, leaves ${p.strategyStats['frontier/leaves'] ?? '-'}`,
    ),
  );
  try {
    await crawler.run(web.seedUrls(1, { relevant: true }));
  } finally {
    await gc.stop();
  }
  // The machine's 1-minute load average when the crawl started and ended (shared machine).
  const loadAverages = [loadAtStart, loadavg()[0] as number];
  return { records: strategy.records, gcPauses: gc.pauses, hasWait: strategy.hasWait, loadAverages };
}

/** Runs the decision benchmark; prints and writes results/decision.{json,md}. */
export async function runDecisionBench(o: DecisionBenchOptions): Promise<void> {
  const web = createSyntheticWeb({
    seed: 'decision-bench',
    pageCount: o.webPages,
    hostCount: 5000,
    meanOutDegree: MEAN_OUT_DEGREE,
  });
  const server = await startReplayServer({ sites: web.sites() });
  const rules = sandboxResolveRules(server);
  const work = mkdtempSync(join(tmpdir(), 'tres-decision-'));
  const env = benchEnv();
  console.log(
    `decision bench: web of ${web.pageCount} pages on ${web.hosts.length} hosts, ${o.steps} steps, K = 1`,
  );
  let tresRun: Awaited<ReturnType<typeof crawlTimed>>;
  let sync: DecisionRecord[];
  let tresPeakRssBytes = 0;
  const rssBeforeCrawlBytes = process.memoryUsage().rss;
  try {
    tresRun = await crawlTimed('tres', o, web, rules, work, { steps: o.steps });
    // Peak RSS of this process so far: the tres crawl with its whole frontier, plus the 1M-page
    // web served from this same process (the aim: under 1 GB).
    tresPeakRssBytes = process.resourceUsage().maxRSS * 1024;
    console.log(`running synchronous for at most ${o.synchronousBudgetSec} s ...`);
    sync = (
      await crawlTimed('synchronous', o, web, rules, work, {
        steps: o.steps,
        timeLimitMs: o.synchronousBudgetSec * 1000,
      })
    ).records;
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
  const tres = tresRun.records;
  const every = Math.max(1, Math.floor(o.steps / 20));
  const tresWindows = windows(tres, every);
  const syncWindows = windows(sync, Math.max(1, Math.floor(sync.length / 10)));
  // Synchronous cost per Q evaluation, from the second half of its run (frontier large enough
  // that per-step overhead is small next to the evaluations).
  const late = sync.slice(Math.floor(sync.length / 2));
  const msPerEval =
    late.reduce((s, r) => s + r.decisionMs, 0) /
    Math.max(
      1,
      late.reduce((s, r) => s + r.qEvaluations, 0),
    );
  // Extrapolation: the synchronous method evaluates the whole frontier each step; the frontier it
  // would face at step t is taken from the tres run (same web, same seed; the frontier grows with
  // the outlinks of fetched pages whichever policy fetches them).
  const syncEvalsTotal = tres.reduce((s, r) => s + r.frontierSize, 0);
  const tresEvalsTotal = tres.reduce((s, r) => s + r.qEvaluations, 0);
  const last = tres[tres.length - 1] as DecisionRecord;
  const afterWarmup = tres.slice(300);
  const tresQ = quantiles(afterWarmup.map((r) => r.decisionMs));
  const tail = decisionTail(afterWarmup, tresRun.gcPauses);
  const summary = {
    steps: tres.length,
    frontierAtEnd: last.frontierSize,
    leavesAtEnd: last.leaves,
    qEvaluationsAtEnd: last.qEvaluations,
    qEvaluationRatioAtEnd: last.frontierSize / Math.max(1, last.qEvaluations),
    qEvaluationRatioTotal: syncEvalsTotal / Math.max(1, tresEvalsTotal),
    tresDecisionMedianMs: tresQ.median,
    tresDecisionP99Ms: tresQ.p99,
    tresUnwaitedMedianMs: tail.unwaited.median,
    tresUnwaitedP99Ms: tail.unwaited.p99,
    tresLoadAverages: tresRun.loadAverages,
    tresPeakRssMiB: tresPeakRssBytes / 2 ** 20,
    rssBeforeCrawlMiB: rssBeforeCrawlBytes / 2 ** 20,
    synchronousStepsRun: sync.length,
    synchronousMsPerQEvaluation: msPerEval,
    synchronousExtrapolatedMsAtEnd: msPerEval * last.frontierSize,
  };
  const row = (w: Window) =>
    `| ${w.step} | ${w.frontierSize} | ${w.leaves} | ${w.qEvaluationsPerStep.toFixed(0)} | ${w.decisionMedianMs.toFixed(3)} | ${w.decisionP99Ms.toFixed(3)} | ${w.unwaitedP99Ms.toFixed(3)} |`;
  const head =
    '| step | frontier | leaves | Q evals/step | decision median (ms) | decision p99 (ms) | p99 less the wait for a CPU (ms) |\n|---:|---:|---:|---:|---:|---:|---:|';
  const md = `# Decision benchmark (Tree-Frontier against the synchronous method)

Generated web: ${web.pageCount} pages on ${web.hosts.length} hosts, mean out-degree ${MEAN_OUT_DEGREE} (seed decision-bench); one relevant seed; K = 1; run seed ${o.seed}.
A decision = next() + observe(): choose among representatives (or the whole frontier), update the tree, train the DDQN when due. Fetching is not included.

## Summary

| | value |
|---|---:|
| steps | ${summary.steps} |
| frontier samples at the end | ${summary.frontierAtEnd} |
| Tree-Frontier leaves at the end | ${summary.leavesAtEnd} |
| Q evaluations in the last step (tres) | ${summary.qEvaluationsAtEnd} |
| Q evaluations, synchronous / tres, last step | ${summary.qEvaluationRatioAtEnd.toFixed(0)}x |
| Q evaluations, synchronous / tres, whole crawl | ${summary.qEvaluationRatioTotal.toFixed(0)}x |
| tres decision time, median / p99 after warm-up | ${summary.tresDecisionMedianMs.toFixed(3)} / ${summary.tresDecisionP99Ms.toFixed(3)} ms |
| tres decision time less the wait for a CPU other processes held, median / p99 after warm-up | ${summary.tresUnwaitedMedianMs.toFixed(3)} / ${summary.tresUnwaitedP99Ms.toFixed(3)} ms |
| load average (1 min) of the machine at the start / end of the tres crawl | ${summary.tresLoadAverages.map((l) => l.toFixed(1)).join(' / ')} |
| peak RSS after the tres crawl (the web's server in the same process) | ${summary.tresPeakRssMiB.toFixed(0)} MiB |
| RSS before the crawl (generated web and its server) | ${summary.rssBeforeCrawlMiB.toFixed(0)} MiB |
| synchronous steps run in ${o.synchronousBudgetSec} s | ${summary.synchronousStepsRun} |
| synchronous time per Q evaluation (measured) | ${(summary.synchronousMsPerQEvaluation * 1000).toFixed(3)} µs |
| synchronous decision at the last step (extrapolated) | ${summary.synchronousExtrapolatedMsAtEnd.toFixed(1)} ms |

The synchronous figures beyond the steps it ran are extrapolated: Q evaluations per step = the frontier size the tres run had at that step, times the measured cost per evaluation.

![Frontier size and Tree-Frontier leaves over time](decision-frontier.svg)

![Q evaluations per step](decision-q-evaluations.svg)

${tailMarkdown(tail, tresRun.hasWait)}
## tres over time

${head}
${tresWindows.map(row).join('\n')}

## synchronous over the steps it ran

${head}
${syncWindows.map(row).join('\n')}

Command: \`${env.command}\` at commit ${env.commit}, ${env.node}, ${env.cores} x ${env.cpu}, ${env.date}.
`;
  writeCharts(o.resultsDir, tres, sync);
  const paths = writeResults(
    o.resultsDir,
    'decision',
    { env, options: o, summary, tail, tres: tresWindows, synchronous: syncWindows },
    md,
  );
  console.log(md);
  console.log(`results: ${paths.json}, ${paths.md}`);
}

/** The paper's Figure 4 (frontier samples and leaves over steps) and Q evaluations per step. */
function writeCharts(dir: string, tres: DecisionRecord[], sync: DecisionRecord[]): void {
  const every = Math.max(1, Math.floor(tres.length / 200));
  const thin = (records: DecisionRecord[], value: (r: DecisionRecord) => number) =>
    records.filter((r) => r.step % every === 0).map((r) => [r.step, value(r)] as const);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'decision-frontier.svg'),
    lineChart({
      title: 'Frontier samples and Tree-Frontier leaves (tres, K = 1)',
      xLabel: 'step (pages fetched)',
      yLabel: 'count (log scale)',
      yScale: 'log',
      series: [
        { name: 'frontier samples', points: thin(tres, (r) => r.frontierSize) },
        { name: 'Tree-Frontier leaves', points: thin(tres, (r) => r.leaves) },
      ],
    }),
  );
  writeFileSync(
    join(dir, 'decision-q-evaluations.svg'),
    lineChart({
      title: 'Q evaluations per step',
      xLabel: 'step (pages fetched)',
      yLabel: 'Q evaluations (log scale)',
      yScale: 'log',
      series: [
        { name: 'tres (one per non-empty leaf)', points: thin(tres, (r) => Math.max(1, r.qEvaluations)) },
        { name: 'synchronous, measured', points: thin(sync, (r) => Math.max(1, r.qEvaluations)) },
        {
          name: 'synchronous, extrapolated (= frontier)',
          points: thin(tres, (r) => r.frontierSize),
          isDashed: true,
        },
      ],
    }),
  );
}
