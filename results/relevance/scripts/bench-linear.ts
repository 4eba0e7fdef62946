import { runRelevanceBench } from '../../../src/bench/relevance-bench.js';
const models = (process.argv[2] ?? 'svm,nb,fast').split(',') as any;
const datasets = (process.argv[3] ?? 'docweb-hardware,docweb-statistics,docweb-programming-languages,docweb-typesetting,docweb-system-administration').split(',') as any;
await runRelevanceBench({ models, datasets, docwebCacheDir: process.argv[6] ?? '/work/cache/docweb', outDir: process.argv[4] ?? 'results/relevance/docweb-linear', config: JSON.parse(process.argv[5] ?? '{}') });
