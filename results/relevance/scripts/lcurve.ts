import { readFileSync, appendFileSync } from 'node:fs';
import { createRng } from '../../../src/common/rng.js';
import { pageExamples } from '../../../src/relevance/features.js';
import { confusion, metricsOf } from '../../../src/relevance/metrics.js';
import { stratifiedFolds } from '../../../src/relevance/split.js';
import { trainOnExamples } from '../../../src/relevance/training.js';
import { loadWordVectors } from '../../../src/text/vector-cache.js';
const [name = 'hardware', models = 'svm,fast'] = process.argv.slice(2);
const ds = JSON.parse(readFileSync(`.tmp/rel/ds-${name}.json`, 'utf8'));
const vectors = await loadWordVectors();
const examples = pageExamples(ds.docs);
const labels = Int8Array.from(ds.docs, (d: any) => d.label);
const folds = stratifiedFolds(labels, 5, createRng('bench').fork('folds'));
for (const model of models.split(',')) for (const frac of [0.25, 0.5, 1]) {
  const f1s: number[] = [];
  for (let f = 0; f < 5; f++) {
    const tr: number[] = [], te: number[] = [];
    folds.forEach((x, i) => (x === f ? te : tr).push(i));
    const rng = createRng(`lc${f}`);
    const pos = rng.shuffle(tr.filter((i) => labels[i] === 1)), neg = rng.shuffle(tr.filter((i) => labels[i] === 0));
    const sub = [...pos.slice(0, Math.round(pos.length * frac)), ...neg.slice(0, Math.round(neg.length * frac))];
    const t = await trainOnExamples(model as any, sub.map((i) => examples[i]!), Int8Array.from(sub, (i) => labels[i]!), { vectors, topic: { keywords: ds.keywords, keyphrases: ds.keyphrases }, config: { seed: `bench/fold${f}` } });
    const p = await t.model.scoreExamples(te.map((i) => examples[i]!));
    f1s.push(metricsOf(confusion(te.map((i) => labels[i]!), p, 0.5)).macroF1);
  }
  const m = f1s.reduce((a, b) => a + b) / 5;
  const line = `lcurve\t${name}\t${model}\ttrain fraction ${frac}\tF ${(100 * m).toFixed(1)}\tfolds ${f1s.map((x) => (100 * x).toFixed(1)).join(',')}`;
  console.log(line); appendFileSync('.tmp/rel/results.tsv', `${new Date().toISOString()}\t${line}\n`);
}
