/**
 * The plots of the crawl benchmark report, as SVG documents by file name:
 * - `harvest-rate-<b>.svg`: harvest rate over pages fetched, mean per strategy at domain limit b
 *   (solid: ground truth; dashed: the crawler's own classifier);
 * - `relevant-domains-<b>.svg`: relevant domains over pages fetched;
 * - `pareto.svg`: harvest rate against relevant domains, one point per strategy and limit, the
 *   Pareto front highlighted (the paper's Figure 3);
 * - `frontier-<b>.svg`: frontier size and, for strategies that report them, Tree-Frontier leaves
 *   over pages fetched, log scale (the paper's Figure 4).
 */

import type { RunResult } from '../crawl/index.js';
import { type ConfigRow, configLabel, meanCurve } from '../crawl/index.js';
import { CHART_PALETTE, type ChartSeries, lineChart, scatterChart } from './svg-chart.js';

/** What the charts are drawn from. */
export interface CrawlChartsInput {
  topic: string;
  strategies: readonly string[];
  domainLimits: readonly string[];
  runs: readonly RunResult[];
  rows: readonly ConfigRow[];
}

/** One chart: its file name and a sentence saying what it shows (used as the report's caption). */
export interface ChartFile {
  file: string;
  /** Domain limit it belongs to; undefined for charts over all limits. */
  domainLimit: string | undefined;
  caption: string;
  svg: string;
}

const percent = (v: number) => `${Math.round(v * 100)}%`;

/** File-name form of a domain limit. */
function limitSlug(limit: string): string {
  return limit.replace(/[^A-Za-z0-9_]/g, '-');
}

/** Every chart of the report, in the order the report shows them. */
export function crawlCharts(input: CrawlChartsInput): ChartFile[] {
  const colorOf = (strategy: string) =>
    CHART_PALETTE[Math.max(0, input.strategies.indexOf(strategy)) % CHART_PALETTE.length]!;
  const charts: ChartFile[] = [];
  for (const limit of input.domainLimits) {
    const groups = input.strategies
      .map((strategy) => ({
        strategy,
        runs: input.runs.filter((r) => r.strategy === strategy && r.domainLimit === limit),
      }))
      .filter((g) => g.runs.length > 0);
    if (groups.length === 0) continue;
    const runCounts = [...new Set(groups.map((g) => g.runs.length))].join('/');
    const where = `${input.topic}, domain limit ${limit} (mean of ${runCounts} runs)`;
    const dry = groups.some((g) => g.runs.some((r) => r.steps < r.maxPages))
      ? ' Where a run ran dry, the curve averages the runs still going (a step in the line).'
      : '';
    const harvest: ChartSeries[] = groups.flatMap((g) => [
      {
        name: `${g.strategy}`,
        color: colorOf(g.strategy),
        points: meanCurve(g.runs, (p) => p.harvestRate),
      },
      {
        name: `${g.strategy} (classifier)`,
        color: colorOf(g.strategy),
        isDashed: true,
        points: meanCurve(g.runs, (p) => p.classifierHarvestRate),
      },
    ]);
    charts.push({
      file: `harvest-rate-${limitSlug(limit)}.svg`,
      domainLimit: limit,
      caption: `Harvest rate over pages fetched, ${where}. Solid: judged by the ground-truth labels; dashed: judged by the crawler's own classifier.${dry}`,
      svg: lineChart({
        title: `Harvest rate: ${where}`,
        xLabel: 'pages fetched',
        yLabel: 'harvest rate',
        yFormat: percent,
        yMin: 0,
        yMax: 1,
        series: harvest,
      }),
    });
    charts.push({
      file: `relevant-domains-${limitSlug(limit)}.svg`,
      domainLimit: limit,
      caption: `Relevant domains (sites with at least one relevant page, ground truth) over pages fetched, ${where}.${dry}`,
      svg: lineChart({
        title: `Relevant domains: ${where}`,
        xLabel: 'pages fetched',
        yLabel: 'relevant domains',
        series: groups.map((g) => ({
          name: g.strategy,
          color: colorOf(g.strategy),
          points: meanCurve(g.runs, (p) => p.relevantDomains),
        })),
      }),
    });
    const frontier: ChartSeries[] = groups.flatMap((g) => {
      const size = meanCurve(g.runs, (p) => p.stats['frontier/size']);
      const leaves = meanCurve(g.runs, (p) => p.stats['frontier/leaves']);
      return [
        { name: `${g.strategy} frontier`, color: colorOf(g.strategy), points: size },
        ...(leaves.length > 0
          ? [{ name: `${g.strategy} leaves`, color: colorOf(g.strategy), isDashed: true, points: leaves }]
          : []),
      ];
    });
    if (frontier.some((s) => s.points.length > 0))
      charts.push({
        file: `frontier-${limitSlug(limit)}.svg`,
        domainLimit: limit,
        caption: `Frontier size (solid) and Tree-Frontier leaves (dashed, strategies that report \`frontier/leaves\`) over pages fetched, log scale, ${where}.`,
        svg: lineChart({
          title: `Frontier and leaves: ${where}`,
          xLabel: 'pages fetched',
          yLabel: 'URLs in the frontier / leaves (log)',
          yScale: 'log',
          series: frontier,
        }),
      });
  }
  if (input.rows.length > 0)
    charts.unshift({
      file: 'pareto.svg',
      domainLimit: undefined,
      caption:
        'Harvest rate (ground truth) against relevant domains, mean over runs, one point per strategy (colour) and domain limit b (shape); the labelled, outlined points joined by the dashed line form the Pareto front (no other point is better in both). Hollow markers: configurations whose frontier ran dry early (unranked in the table); not comparable, so not on the front.',
      svg: scatterChart({
        title: `Pareto front: ${input.topic}`,
        xLabel: 'relevant domains (mean over runs)',
        yLabel: 'harvest rate (mean over runs)',
        yFormat: percent,
        yMin: 0,
        yMax: 1,
        frontLabel: 'Pareto front',
        hollowLabel: 'ran dry early (unranked)',
        labels: 'highlighted',
        points: input.rows.map((r) => ({
          x: r.relevantDomains.mean,
          y: r.harvestRate.mean,
          label: configLabel(r.strategy, r.domainLimit),
          group: r.strategy,
          color: colorOf(r.strategy),
          marker: `b = ${r.domainLimit}`,
          isHollow: !r.isRanked,
          isHighlighted: r.isParetoOptimal,
        })),
      }),
    });
  return charts;
}
