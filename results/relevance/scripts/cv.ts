// usage: cv.ts TOPIC MODEL 'CONFIGJSON' [folds] [label]
import { readFileSync, appendFileSync } from 'node:fs';
import { crossValidate } from '../../../src/relevance/cross-validation.js';
import { loadWordVectors } from '../../../src/text/vector-cache.js';
import type { ModelName } from '../../../src/relevance/types.js';
const [name = 'hardware', model = 'kwbilstm', cfg = '{}', foldsArg = '5', label = ''] = process.argv.slice(2);
const ds = JSON.parse(readFileSync(`.tmp/rel/ds-${name}.json`, 'utf8'));
const vectors = await loadWordVectors();
const t0 = performance.now();
const config = { seed: 'bench', ...JSON.parse(cfg) };
const folds = Number(foldsArg);
const ev = await crossValidate(ds.docs, {
  models: [model as ModelName], folds, config, vectors,
  topic: { keywords: ds.keywords, keyphrases: ds.keyphrases },
  onProgress: (p) => { if (p.valLoss !== undefined) process.stderr.write(`e${p.epoch}:${p.trainLoss?.toFixed(3)}/${p.valLoss.toFixed(3)}${p.isBest ? '*' : ''} `); },
  onFold: (f) => process.stderr.write(`\n fold ${f.fold}: F ${(100 * f.metrics.macroF1).toFixed(1)} P ${(100 * f.metrics.precision).toFixed(1)} R ${(100 * f.metrics.recall).toFixed(1)} ${(f.trainMs / 1000).toFixed(0)}s\n`),
  onTrained: ({ trained, fold }) => { if (fold === 1 && trained.topic) process.stderr.write(` shortcut1 ${trained.topic.shortcut1} kw ${trained.topic.set.keywords.length}\n`); },
});
const e = ev[0]!;
const line = `${new Date().toISOString()}\t${label}\t${name}\t${model}\t${cfg}\tF ${(100 * e.mean.macroF1).toFixed(1)}±${(100 * e.std.macroF1).toFixed(1)}\tP ${(100 * e.mean.precision).toFixed(1)}\tR ${(100 * e.mean.recall).toFixed(1)}\tfolds ${e.perFold.map((m) => (100 * m.macroF1).toFixed(1)).join(',')}\t${((performance.now() - t0) / 60000).toFixed(1)}min`;
console.log(line);
appendFileSync('.tmp/rel/results.tsv', `${line}\n`);
