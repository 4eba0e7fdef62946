/**
 * Writes a crawl benchmark's reports again from its stored results.json, without crawling: the
 * check that a change to the report writers (or their templates, lab/src/bench/report/templates/)
 * changes no byte of a report.
 *
 *   npx vite-node lab/src/bench/report/bench-report.ts -- crawl DIR        (report.md of DIR/results.json)
 *   npx vite-node lab/src/bench/report/bench-report.ts -- summary DIR...   (the summary over those folders)
 *
 * Prints the Markdown. The charts are made again from the stored runs, for their file names and
 * captions only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTopicResults, summaryReport } from '../index.js';
import { crawlReport } from './report-crawl.js';
import { crawlCharts } from './report-crawl-charts.js';

const [part, ...dirs] = process.argv.slice(2).filter((a) => a !== '--');
if (part === 'crawl' && dirs.length === 1) {
  const dir = dirs[0]!;
  const r = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
  const o = r.options;
  const charts = crawlCharts({
    topic: r.topic.name,
    strategies: o.strategies,
    domainLimits: o.domainLimits,
    runs: r.runs,
    rows: r.rows,
  });
  process.stdout.write(
    crawlReport({
      topic: r.topic.name,
      topicFile: r.topic.file,
      webDescription: r.web,
      judgeDescription: r.judge,
      strategies: o.strategies,
      domainLimits: o.domainLimits,
      maxPages: o.maxPages,
      runsPerConfig: o.runs,
      concurrency: o.concurrency,
      seeds: r.topic.seeds,
      rows: r.rows,
      runs: r.runs,
      charts,
      command: o.command,
      env: r.env,
      runCommits: r.runCommits,
    }),
  );
} else if (part === 'summary' && dirs.length > 0) {
  process.stdout.write(summaryReport(dirs.map(readTopicResults), 'tres', 'bench-report.ts summary'));
} else {
  console.error('usage: npx vite-node lab/src/bench/report/bench-report.ts -- crawl DIR | summary DIR...');
  process.exitCode = 2;
}
