/** bench/report/: what the rest of the bench room imports from this folder. */

export { crawlReport, outcomeSentences } from './report-crawl.js';
export { crawlCharts } from './report-crawl-charts.js';
export { readTopicResults, summaryReport } from './report-summary.js';
export { lineChart, type ScatterPoint, scatterChart } from './svg-chart.js';
export { wilcoxonSignedRank } from './wilcoxon.js';
