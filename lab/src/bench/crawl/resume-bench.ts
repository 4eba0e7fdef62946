/**
 * The resume benchmark (`npm run bench -- resume`): does a crawl stopped half-way and
 * resumed do as well as one that never stopped? For each strategy and run seed, on one topic's
 * web at K = 1 (the papers' sequential MDP, so a run repeats exactly): a crawl of `maxPages`
 * uninterrupted, and the same crawl stopped at `stopAt` and resumed (a new Crawler and strategy
 * on the same store, as `tres crawl --resume` does) with the strategy's checkpoint; optionally
 * also resumed without it (`relearn`: checkpointEveryPages false, what a resume did before).
 * The first `stopAt` pages of the three are the same pages (K = 1), so the pages after `stopAt`
 * are where a resume can show: their harvest rate by ground truth and by the crawler's judge,
 * and the relevant sites at the end. Each finished run is stored in `outDir/runs/` and skipped
 * when the benchmark is started again.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PageJudge } from 'tres-crawler';
import { benchEnv } from '../bench-env.js';
import { type RunResult, runOnce } from './crawl-bench-run.js';
import { openBenchWeb } from './crawl-bench-topic.js';

/** How a run was crawled. */
export type ResumeVariant = 'uninterrupted' | 'resumed' | 'relearn';

export interface ResumeBenchOptions {
  /** Topic file (data/bench/synthetic-hardware.yaml, data/topics/hardware.yaml). */
  topicFile: string;
  /** The DocWeb cache of a DocWeb topic. @default the web's own default */
  cacheDir?: string;
  /** The crawler's judge (a `tres train` folder); undefined: the topic's keyword judge. */
  modelDir?: string;
  strategies: string[];
  /** Run seeds 0 .. runs - 1 (run i starts from the topic's seed i mod seeds). @default 5 */
  runs?: number;
  /** @default 3000 */
  maxPages?: number;
  /** @default maxPages / 2 */
  stopAt?: number;
  /** @default ['uninterrupted', 'resumed'] */
  variants?: ResumeVariant[];
  outDir: string;
  /** The command as typed, for the report. */
  command?: string;
  log?: (line: string) => void;
}

/** One run's numbers. */
export interface ResumeRun {
  strategy: string;
  variant: ResumeVariant;
  run: number;
  steps: number;
  /** Ground-truth and judge harvest rates (%) of the pages after stopAt. */
  secondHalfHr: number;
  secondHalfJudgeHr: number;
  /** Harvest rate (%) over all pages, and relevant sites at the end (ground truth). */
  hr: number;
  relevantSites: number;
  elapsedMs: number;
  /** From the resumed Crawler's start to its first page. */
  resumeMs?: number;
}

/** mean ± sample std. */
function meanStd(values: number[]): { mean: number; std: number } {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / Math.max(1, n);
  const std = n < 2 ? 0 : Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  return { mean, std };
}

const fmt = (m: { mean: number; std: number }, digits = 1) =>
  `${m.mean.toFixed(digits)} ± ${m.std.toFixed(digits)}`;

/** Relevant pages (truth and judge) after `step` attempts, from a run's curve. */
function countsAt(result: RunResult, step: number): { truth: number; judge: number } {
  const point = result.curve.find((p) => p.step === step);
  if (!point) throw new Error(`run ${result.strategy} ${result.run} has no curve point at step ${step}`);
  return { truth: point.harvestRate * step, judge: point.classifierHarvestRate * step };
}

function summarize(result: RunResult, variant: ResumeVariant, stopAt: number): ResumeRun {
  const end = countsAt(result, result.steps);
  const half = countsAt(result, stopAt);
  const rest = result.steps - stopAt;
  return {
    strategy: result.strategy,
    variant,
    run: result.run,
    steps: result.steps,
    secondHalfHr: (100 * (end.truth - half.truth)) / rest,
    secondHalfJudgeHr: (100 * (end.judge - half.judge)) / rest,
    hr: 100 * result.harvestRate,
    relevantSites: result.relevantDomains,
    elapsedMs: result.timing.elapsedMs,
    ...(result.timing.resumeMs === undefined ? {} : { resumeMs: result.timing.resumeMs }),
  };
}

/**
 * Runs what is not stored yet, then writes `resume.json` and `report.md` in `outDir` and
 * returns the report's table.
 */
export async function runResumeBench(options: ResumeBenchOptions): Promise<string> {
  const maxPages = options.maxPages ?? 3000;
  const stopAt = options.stopAt ?? Math.floor(maxPages / 2);
  const runs = options.runs ?? 5;
  const variants = options.variants ?? ['uninterrupted', 'resumed'];
  const log = options.log ?? console.log;
  const runsDir = join(options.outDir, 'runs');
  mkdirSync(runsDir, { recursive: true });
  const web = await openBenchWeb(options.topicFile, options.cacheDir ? { cacheDir: options.cacheDir } : {});
  const results: ResumeRun[] = [];
  try {
    let judge: PageJudge | undefined;
    if (options.modelDir) {
      const { loadModel } = await import('tres-crawler/internals');
      judge = await loadModel(options.modelDir);
    }
    // Run seed first, so a benchmark stopped early covers every strategy.
    for (let run = 0; run < runs; run++) {
      for (const strategy of options.strategies) {
        for (const variant of variants) {
          const file = join(runsDir, `${strategy.replace(/[^\w.=-]+/g, '_')}__${variant}__run${run}.json`);
          if (existsSync(file)) {
            results.push(JSON.parse(readFileSync(file, 'utf8')) as ResumeRun);
            continue;
          }
          const result = await runOnce({
            topic: web.topic,
            strategy,
            domainLimit: 'none',
            run,
            maxPages,
            concurrency: 1,
            curvePoints: Math.round(maxPages / gcd(maxPages, stopAt)),
            relevanceThreshold: 0.5,
            net: web.net,
            urlFilter: web.urlFilter,
            judge,
            servedHosts: web.servedHosts,
            ...(web.hasPage ? { hasPage: web.hasPage } : {}),
            ...(variant === 'uninterrupted' ? {} : { stopAt }),
            ...(variant === 'relearn' ? { checkpointEveryPages: false } : {}),
          });
          const summary = summarize(result, variant, stopAt);
          writeFileSync(file, `${JSON.stringify(summary)}\n`);
          results.push(summary);
          log(
            `${strategy} ${variant} run ${run}: HR after ${stopAt} ${summary.secondHalfHr.toFixed(1)}% (judge ${summary.secondHalfJudgeHr.toFixed(1)}%), relevant sites ${summary.relevantSites}, ${Math.round(summary.elapsedMs / 1000)} s${summary.resumeMs === undefined ? '' : `, resume ${summary.resumeMs} ms`}`,
          );
        }
      }
    }
  } finally {
    await web.close();
  }
  const table = resumeTable(results, options.strategies, variants, stopAt, maxPages);
  const env = { ...benchEnv(), ...(options.command ? { command: options.command } : {}) };
  writeFileSync(
    join(options.outDir, 'resume.json'),
    `${JSON.stringify({ env, topic: web.topic.name, maxPages, stopAt, runs, model: options.modelDir ? resolve(options.modelDir) : 'keywords', results }, null, 1)}\n`,
  );
  const report = [
    `# Resume benchmark: ${web.topic.name}`,
    '',
    `${env.command ?? ''} (commit ${env.commit}, ${env.date}). K = 1, ${maxPages} pages, stopped at ${stopAt} and resumed; run seeds 0-${runs - 1}; judge: ${options.modelDir ?? "the topic's keywords"}.`,
    '',
    table,
    '',
  ].join('\n');
  writeFileSync(join(options.outDir, 'report.md'), report);
  return table;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * One row per strategy and variant: the figures' mean ± std over the run seeds, and for a
 * resumed variant the paired difference from the uninterrupted run of the same seed, which is
 * "within the spread" when its mean is at most the uninterrupted runs' std.
 */
export function resumeTable(
  results: ResumeRun[],
  strategies: string[],
  variants: ResumeVariant[],
  stopAt: number,
  maxPages: number,
): string {
  const lines = [
    `| strategy | crawl | runs | HR % pages ${stopAt + 1}-${maxPages} (truth) | Δ vs uninterrupted | HR % (judge) | relevant sites at ${maxPages} | Δ vs uninterrupted | within spread | resume time (s) |`,
    '|---|---|---:|---:|---:|---:|---:|---:|:-:|---:|',
  ];
  for (const strategy of strategies) {
    const base = new Map(
      results.filter((r) => r.strategy === strategy && r.variant === 'uninterrupted').map((r) => [r.run, r]),
    );
    const baseHr = meanStd([...base.values()].map((r) => r.secondHalfHr));
    const baseSites = meanStd([...base.values()].map((r) => r.relevantSites));
    for (const variant of variants) {
      const rows = results.filter((r) => r.strategy === strategy && r.variant === variant);
      if (rows.length === 0) continue;
      const hr = meanStd(rows.map((r) => r.secondHalfHr));
      const judge = meanStd(rows.map((r) => r.secondHalfJudgeHr));
      const sites = meanStd(rows.map((r) => r.relevantSites));
      const paired = rows.filter((r) => base.has(r.run));
      const dHr = meanStd(paired.map((r) => r.secondHalfHr - base.get(r.run)!.secondHalfHr));
      const dSites = meanStd(paired.map((r) => r.relevantSites - base.get(r.run)!.relevantSites));
      const isBase = variant === 'uninterrupted';
      const within =
        Math.abs(dHr.mean) <= Math.max(baseHr.std, 0.05) &&
        Math.abs(dSites.mean) <= Math.max(baseSites.std, 0.5);
      const resume = meanStd(
        rows.filter((r) => r.resumeMs !== undefined).map((r) => (r.resumeMs as number) / 1000),
      );
      lines.push(
        `| ${strategy} | ${variant} | ${rows.length} | ${fmt(hr)} | ${isBase ? '' : fmt(dHr)} | ${fmt(judge)} | ${fmt(sites)} | ${isBase ? '' : fmt(dSites)} | ${isBase ? '' : within ? 'yes' : '**no**'} | ${isBase ? '' : fmt(resume, 2)} |`,
      );
    }
  }
  return lines.join('\n');
}
