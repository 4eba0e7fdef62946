/**
 * The Markdown report of a crawl benchmark: what was run, the outcome in a few sentences, the
 * paper's Table 3 layout (rows: strategy and domain limit; harvest rate and relevant domains,
 * mean ± standard deviation over single-seed runs, plus the classifier-judged harvest rate), the
 * plots, every run, and how to repeat it (command, versions, commit, seeds).
 */
import type { RunResult } from '../crawl/index.js';
import { bestRowsWithTies, type ConfigRow, RANKED_BUDGET_SHARE, type Spread } from '../crawl/index.js';
import type { ChartFile } from './report-crawl-charts.js';
import { lossSection } from './report-loss.js';
import { wilcoxonSection } from './report-wilcoxon.js';
import { fillTemplate } from './template.js';

/** Everything the report says. */
export interface CrawlReportInput {
  topic: string;
  topicFile: string;
  webDescription: string;
  /** `keyword judge (topic keywords: ...)` or the model folder. */
  judgeDescription: string;
  strategies: readonly string[];
  domainLimits: readonly string[];
  maxPages: number;
  runsPerConfig: number;
  concurrency: number;
  seeds: readonly string[];
  rows: readonly ConfigRow[];
  runs: readonly RunResult[];
  charts: readonly ChartFile[];
  command: string;
  env: { commit: string; node: string; cpu: string; cores: number; date: string; version: string };
  /** Commits of the stored runs (more than one when a benchmark was resumed after a change). */
  runCommits: readonly string[];
}

/** A spread of fractions as percent, `mean ± std`; `n/a` when there is none. */
export const pct = (s: Spread) =>
  Number.isFinite(s.mean) ? `${(s.mean * 100).toFixed(1)} ± ${(s.std * 100).toFixed(1)}` : 'n/a';
/** A spread of counts, `mean ± std`; `n/a` when there is none. */
export const num = (s: Spread) =>
  Number.isFinite(s.mean) ? `${s.mean.toFixed(1)} ± ${s.std.toFixed(1)}` : 'n/a';
const pts = (v: number) => `${v >= 0 ? '+' : ''}${(v * 100).toFixed(1)}`;
const ratio = (v: number) => (Number.isFinite(v) ? `${(v * 100).toFixed(0)}%` : 'n/a');

/**
 * Table 3 of the paper, for one topic: one row per strategy and domain limit. Bold marks the best
 * ranked row in a column and every row tied with it (within the spread over seeds); rows that ran
 * dry say in how many runs.
 */
export function table3(rows: readonly ConfigRow[]): string {
  const ranked = rows.filter((r) => r.isRanked && !r.isReference);
  const bestHr = new Set(bestRowsWithTies(ranked, 'harvestRate').map((i) => ranked[i]));
  const bestDomains = new Set(bestRowsWithTies(ranked, 'relevantDomains').map((i) => ranked[i]));
  const bold = (text: string, isBest: boolean) => (isBest ? `**${text}**` : text);
  return [
    '| crawler | attempts | ran dry | failed | duplicates | HR % (truth) | relevant domains | HR / oracle | domains / oracle | links off the web | HR % (classifier) | classifier − truth (pts) | classifier precision / recall | HR % of HTML pages | Pareto |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:-:|',
    ...rows.map((r) => {
      const attempts = `${r.steps.mean.toFixed(0)}${r.isRanked ? '' : ' (unranked)'}`;
      const isBestHr = bestHr.has(r);
      const isBestDomains = bestDomains.has(r);
      return `| ${r.label} | ${attempts} | ${r.dryRuns}/${r.runs} | ${ratio(r.failureShare)} | ${ratio(r.duplicateShare)} | ${bold(pct(r.harvestRate), isBestHr)} | ${bold(num(r.relevantDomains), isBestDomains)} | ${r.oracleHarvestShare ? pct(r.oracleHarvestShare) : 'n/a'} | ${r.oracleDomainsShare ? pct(r.oracleDomainsShare) : 'n/a'} | ${ratio(r.outOfWebShare)} | ${pct(r.classifierHarvestRate)} | ${pts(r.harvestRateGap.mean)} | ${ratio(r.classifierPrecision)} / ${ratio(r.classifierRecall)} | ${pct(r.pageHarvestRate)} | ${r.isParetoOptimal ? '★' : ''} |`;
    }),
  ].join('\n');
}

/** A few sentences a reader can take away without reading the table. */
export function outcomeSentences(rows: readonly ConfigRow[], runs: readonly RunResult[]): string[] {
  if (rows.length === 0) return ['No run has finished yet.'];
  const out: string[] = [];
  // The oracle is the upper bound, not a competitor: never called best nor put on the front.
  const complete = rows.filter((r) => r.isRanked && !r.isReference);
  const dry = rows.filter((r) => !r.isRanked);
  const share = `${Math.round(RANKED_BUDGET_SHARE * 100)}%`;
  if (complete.length === 0)
    out.push(`No configuration spent ${share} of its page budget on average: every frontier ran dry early.`);
  else {
    // Row figures leave out the runs that ran dry early (isShortRun), so every ranked row can be compared.
    const byHr = [...complete].sort((a, b) => b.harvestRate.mean - a.harvestRate.mean);
    const byDomains = [...complete].sort((a, b) => b.relevantDomains.mean - a.relevantDomains.mean);
    out.push(
      `Highest harvest rate: **${byHr[0]!.label}** at ${pct(byHr[0]!.harvestRate)}%` +
        (byHr[1] ? ` (next: ${byHr[1].label}, ${pct(byHr[1].harvestRate)}%).` : '.'),
      `Most relevant domains: **${byDomains[0]!.label}** with ${num(byDomains[0]!.relevantDomains)}` +
        (byDomains[1] ? ` (next: ${byDomains[1].label}, ${num(byDomains[1].relevantDomains)}).` : '.'),
      `Pareto front (harvest rate against relevant domains): ${complete
        .filter((r) => r.isParetoOptimal)
        .map((r) => r.label)
        .join(', ')}.`,
    );
    if (new Set(complete.map((r) => r.strategy)).size > 1)
      for (const limit of [...new Set(complete.map((r) => r.domainLimit))]) {
        const at = byHr.filter((r) => r.domainLimit === limit);
        if (at.length > 1)
          out.push(
            `At domain limit ${limit}: best harvest rate ${at[0]!.strategy} (${pct(at[0]!.harvestRate)}%), worst ${at[at.length - 1]!.strategy} (${pct(at[at.length - 1]!.harvestRate)}%).`,
          );
      }
  }
  if (dry.length > 0)
    out.push(
      `${dry.length} configuration(s) ran out of URLs before spending ${share} of the page budget on average (${dry.map((r) => `${r.label}: ${r.steps.mean.toFixed(0)}`).join(', ')} attempts). As the paper does for crawls that ran dry, they are not ranked (best, Pareto front): their rates cover far fewer pages.`,
    );
  const partly = complete.filter((r) => r.dryRuns > 0);
  if (partly.length > 0)
    out.push(
      `In ${partly.length} ranked configuration(s) some runs ran dry (${[...new Set(runs.filter((r) => r.steps < r.maxPages && partly.some((p) => p.strategy === r.strategy && p.domainLimit === r.domainLimit)).map((r) => `run ${r.run} (${r.seedUrl})`))].join(', ')}): their figures leave out the runs that ran dry before ${share} of the budget.`,
    );
  const gaps = rows.map((r) => r.harvestRateGap.mean);
  const meanGap = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  const both = runs.reduce((a, r) => a + r.bothRelevant, 0);
  const judged = runs.reduce((a, r) => a + r.classifierRelevant, 0);
  const truth = runs.reduce((a, r) => a + r.relevant, 0);
  out.push(
    `Classifier against ground truth: the crawler's own judge puts the harvest rate ${pts(meanGap)} points off on average (from ${pts(Math.min(...gaps))} to ${pts(Math.max(...gaps))} per row); over all fetched pages its precision is ${ratio(both / judged)} and its recall ${ratio(both / truth)}.`,
  );
  return out;
}

/**
 * Harvest rate by seed: one row per ranked configuration, one column per run (seed), each cell
 * "HR % / attempts". Shows how much of the spread over runs comes from the seeds.
 */
export function seedTable(rows: readonly ConfigRow[], runs: readonly RunResult[]): string {
  const ranked = rows.filter((r) => r.isRanked);
  const indices = [...new Set(runs.map((r) => r.run))].sort((a, b) => a - b);
  if (ranked.length === 0 || indices.length === 0) return '(no ranked configuration)';
  const seedOf = (i: number) => {
    const url = runs.find((r) => r.run === i)?.seedUrl ?? '';
    return URL.canParse(url) ? new URL(url).hostname : url;
  };
  return [
    `| crawler | ${indices.map((i) => `run ${i}: ${seedOf(i)}`).join(' | ')} |`,
    `|---|${indices.map(() => '---:').join('|')}|`,
    ...ranked.map((row) => {
      const cells = indices.map((i) => {
        const r = runs.find(
          (x) => x.strategy === row.strategy && x.domainLimit === row.domainLimit && x.run === i,
        );
        return r ? `${(r.harvestRate * 100).toFixed(1)} / ${r.steps}` : '';
      });
      return `| ${row.label} | ${cells.join(' | ')} |`;
    }),
  ].join('\n');
}

function runsTable(runs: readonly RunResult[]): string {
  return [
    '| strategy | limit | run | seed URL | pages | HR % | domains | HR % (classifier) | frontier | stop | pages/s |',
    '|---|---|---:|---|---:|---:|---:|---:|---:|---|---:|',
    ...runs.map(
      (r) =>
        `| ${r.strategy} | ${r.domainLimit} | ${r.run} | ${r.seedUrl} | ${r.steps} | ${(r.harvestRate * 100).toFixed(1)} | ${r.relevantDomains} | ${(r.classifierHarvestRate * 100).toFixed(1)} | ${r.finalStats['frontier/size'] ?? ''} | ${r.stopReason} | ${r.timing.pagesPerSec.toFixed(0)} |`,
    ),
  ].join('\n');
}

/**
 * The whole report as Markdown (charts referenced by file name, next to the report): the prose in
 * templates/crawl-report.md, the figures and tables filled in here.
 */
export function crawlReport(input: CrawlReportInput): string {
  const i = input;
  const total = i.strategies.length * i.domainLimits.length * i.runsPerConfig;
  const isComplete = i.runs.length >= total;
  const figure = (c: ChartFile) => `![${c.file}](${c.file})\n\n*${c.caption}*\n`;
  const pareto = i.charts.filter((c) => c.domainLimit === undefined);
  const sections = i.domainLimits
    .map((limit) => ({ limit, charts: i.charts.filter((c) => c.domainLimit === limit) }))
    .filter((s) => s.charts.length > 0)
    .map((s) => `### Domain limit ${s.limit}\n\n${s.charts.map(figure).join('\n')}`);
  const isRunCommitsOther =
    i.runCommits.length > 1 || (i.runCommits[0] !== undefined && i.runCommits[0] !== i.env.commit);
  return fillTemplate('crawl-report.md', {
    topic: i.topic,
    incomplete: isComplete
      ? ''
      : `> **Incomplete:** ${i.runs.length} of ${total} runs have finished; the numbers below cover those.\n\n`,
    web: i.webDescription,
    seedCount: i.seeds.length,
    maxPages: i.maxPages.toLocaleString('en-US'),
    concurrency: i.concurrency,
    concurrencyNote:
      i.concurrency === 1 ? ' (the papers\u2019 sequential MDP; runs repeat exactly)' : 'es in flight',
    runsPerConfig: i.runsPerConfig,
    strategies: i.strategies.join(', '),
    domainLimits: i.domainLimits.join(', '),
    judge: i.judgeDescription,
    outcome: outcomeSentences(i.rows, i.runs)
      .map((s) => `- ${s}`)
      .join('\n'),
    rankedShare: Math.round(RANKED_BUDGET_SHARE * 100),
    table3: i.rows.length > 0 ? table3(i.rows) : '(no finished runs)',
    seedTable: seedTable(i.rows, i.runs),
    wilcoxon: wilcoxonSection(i.runs),
    loss: lossSection(i.runs),
    pareto: pareto.map(figure).join('\n'),
    limitSections: sections.join('\n'),
    runCount: i.runs.length,
    runsTable: runsTable(i.runs),
    command: i.command,
    topicFile: i.topicFile,
    seedList: i.seeds.map((s, n) => `${n}: ${s}`).join(', '),
    version: i.env.version,
    commit: i.env.commit,
    runCommitsNote: isRunCommitsOther ? ` (runs made at ${i.runCommits.join(', ')})` : '',
    node: i.env.node,
    cores: i.env.cores,
    cpu: i.env.cpu,
    date: i.env.date,
  });
}
