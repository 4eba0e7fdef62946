/** The readable report of the relevance benchmark (`relevance-bench.md`). */
import { formatTable1, MODEL_TITLES } from 'tres-crawler/internals';
import type { RelevanceBenchRecord } from './relevance-bench-record.js';

const minutes = (ms: number) => (ms / 60_000).toFixed(1);

/** Markdown of a relevance-benchmark record: Table 1, throughput and crawl-loop rate per dataset. */
export function relevanceMarkdown(record: RelevanceBenchRecord): string {
  const { env, options, results, skipped, defaults } = record;
  const lines = [
    '# Relevance benchmark',
    '',
    `Commit ${env.commit}, ${env.date}; ${env.cores} cores (${env.cpu}), Node ${env.node}, tfjs backend ${record.backend.name}; ` +
      `load average ${record.loadAverage.start[0]?.toFixed(1)} at start, ${record.loadAverage.end[0]?.toFixed(1)} at end; ` +
      `${minutes(record.elapsedMs)} min in all. Seed ${options.seed}.`,
    '',
    `${options.folds}-fold stratified cross-validation, mean ± standard deviation over folds, precision and recall of the ` +
      `relevant class; ${options.relevantPages} relevant and ${options.relevantPages * 9} irrelevant pages per synthetic ` +
      `dataset, ${options.docwebRelevantPages} and ${options.docwebRelevantPages * 9} per DocWeb dataset ` +
      `(\`npm run lab -- docweb sample\` with seed ${options.seed}). Config overrides: \`${JSON.stringify(options.config)}\`.`,
    '',
    `Throughput: each model of the first fold, saved and loaded; pages/s over up to ${options.throughputPages} sampled ` +
      `pages (batched), anchors/s and anchor F-macro (against the labels of the link targets) over up to ` +
      `${options.throughputAnchors} sampled anchors. Crawl loop: the default page model (${defaults.pageModel}) on one ` +
      `page, then the default anchor model (${defaults.anchorModel}) on all its distinct out-links, per step; the crawl ` +
      'scores only links it has not seen, so this is an upper bound on the classifier work per page. ' +
      '"per CPU s": the same rates per second of the process\'s CPU time (what one core sustains; wall-time rates fall ' +
      'when other work shares the machine).',
  ];
  for (const s of skipped) lines.push('', `**${s.dataset} skipped**: ${s.reason}`);
  if (results.length > 0) {
    lines.push(
      '',
      '## Crawl loop with the default models',
      '',
      '| Dataset | links per step | ms page + anchors per step | pages/s | pages per CPU s |',
      '|---|---|---|---|---|',
    );
    for (const r of results) {
      const c = r.crawlLoop;
      if (c === undefined) continue;
      lines.push(
        `| ${r.dataset} | ${c.meanAnchorsPerStep.toFixed(1)} | ${c.pageMsPerStep.toFixed(2)} + ${c.anchorMsPerStep.toFixed(2)} | ${Math.round(c.pagesPerSec)} | ${Math.round(c.pagesPerCpuSec)} |`,
      );
    }
  }
  for (const r of results) {
    lines.push(
      '',
      `## ${r.dataset}`,
      '',
      `${r.documents} pages (${r.relevant} relevant), ${r.anchors} anchors (${r.meanLinksPerPage.toFixed(1)} per page); ${minutes(r.elapsedMs)} min.`,
      '',
      formatTable1(r.evaluations, r.dataset),
      '',
      '| Model | backend | train s (fold 1) | pages/s | anchors/s | pages per CPU s | anchors per CPU s | anchor F-macro |',
      '|---|---|---|---|---|---|---|---|',
    );
    for (const t of r.throughput) {
      lines.push(
        `| ${MODEL_TITLES[t.model]} | ${t.backend ?? '-'} | ${(t.trainMs / 1000).toFixed(1)} | ${Math.round(t.pagesPerSec)} | ${Math.round(t.anchorsPerSec)} | ${Math.round(t.pagesPerCpuSec)} | ${Math.round(t.anchorsPerCpuSec)} | ${(100 * t.anchorMacroF1).toFixed(1)} |`,
      );
    }
    const c = r.crawlLoop;
    if (c) {
      lines.push(
        '',
        `Crawl loop, ${c.pageModel} page + ${c.anchorModel} anchors (${c.meanAnchorsPerStep.toFixed(1)} links per step, ${c.steps} steps): ` +
          `**${Math.round(c.pagesPerSec)} pages/s** sustainable by the classifiers ` +
          `(${c.pageMsPerStep.toFixed(2)} ms page + ${c.anchorMsPerStep.toFixed(2)} ms anchors per step).`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
