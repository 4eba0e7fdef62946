// usage: cvsub.ts TOPIC MODEL FOLDS(e.g. 0,1) LABEL CONFIGJSON...  (paired screening on chosen folds of the 5)
import { readFileSync, appendFileSync } from 'node:fs';
import { createRng } from '../../../src/common/rng.js';
import { pageExamples } from '../../../src/relevance/features.js';
import { confusion, metricsOf } from '../../../src/relevance/metrics.js';
import { stratifiedFolds } from '../../../src/relevance/split.js';
import { trainOnExamples } from '../../../src/relevance/training.js';
import { loadWordVectors } from '../../../src/text/vector-cache.js';
const [name = 'hardware', model = 'kwbilstm', foldList = '0,1', label = '', ...cfgs] = process.argv.slice(2);
const ds = JSON.parse(readFileSync(`.tmp/rel/ds-${name}.json`, 'utf8'));
const vectors = await loadWordVectors();
const examples = pageExamples(ds.docs);
const labels = Int8Array.from(ds.docs, (d: any) => d.label);
const folds = stratifiedFolds(labels, 5, createRng('bench').fork('folds'));
for (const cfg of cfgs) {
  const t0 = performance.now();
  const res: string[] = [];
  for (const f of foldList.split(',').map(Number)) {
    const tr: number[] = [], te: number[] = [];
    folds.forEach((x, i) => (x === f ? te : tr).push(i));
    const trained = await trainOnExamples(model as any, tr.map((i) => examples[i]!), Int8Array.from(tr, (i) => labels[i]!), {
      vectors, topic: { keywords: ds.keywords, keyphrases: ds.keyphrases }, config: { ...JSON.parse(cfg), seed: `bench/fold${f}` },
      onProgress: (p) => { if (p.valLoss !== undefined) process.stderr.write(`e${p.epoch}:${p.trainLoss?.toFixed(3)}/${p.valLoss.toFixed(3)}${p.isBest ? '*' : ''} `); },
    });
    const probs = await trained.model.scoreExamples(te.map((i) => examples[i]!));
    const m = metricsOf(confusion(te.map((i) => labels[i]!), probs, 0.5));
    trained.model.dispose();
    res.push(`${(100 * m.macroF1).toFixed(1)}(P${(100 * m.precision).toFixed(0)},R${(100 * m.recall).toFixed(0)})`);
    process.stderr.write(`\n fold ${f}: ${res.at(-1)} ${(trained.trainMs / 1000).toFixed(0)}s sc1 ${trained.topic?.shortcut1}\n`);
  }
  const line = `${new Date().toISOString()}\t${label}\t${name}\t${model}\t${cfg}\tsub folds ${foldList}\t${res.join(' ')}\t${((performance.now() - t0) / 60000).toFixed(1)}min`;
  console.log(line);
  appendFileSync('.tmp/rel/results.tsv', `${line}\n`);
}
