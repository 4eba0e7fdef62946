import { readFileSync } from 'node:fs';
import { trainModel } from '../../../src/relevance/training.js';
import { pageTokens } from '../../../src/text/tokenizer.js';
import { loadWordVectors } from '../../../src/text/vector-cache.js';
const v = await loadWordVectors();
for (const name of process.argv.slice(2)) {
  const ds = JSON.parse(readFileSync(`.tmp/rel/ds-${name}.json`, 'utf8'));
  const tm = await trainModel('svm', ds.docs, { vectors: v, config: { seed: 'bench' } });
  const m = tm.model as any;
  const w: Float32Array = m.weights; const words: string[] = m.vocab.words;
  const order = [...w.keys()].sort((a, b) => w[b]! - w[a]!);
  const top = order.slice(0, 50).map((i) => words[i]!);
  const covered = top.filter((t) => v.has(t));
  // token coverage and share of the first 80 vector words drawn from the first 150 tokens
  let tok = 0, cov = 0;
  for (const d of ds.docs) { const t = pageTokens(d.title, d.text); tok += t.length; cov += t.filter((x) => v.has(x)).length; }
  console.log(`${name}: tokens with a vector ${(100 * cov / tok).toFixed(1)}%; SVM's 50 most relevant-weighted words with a vector ${covered.length}/50; without: ${top.filter((t) => !v.has(t)).join(' ')}\n  top 25: ${top.slice(0, 25).join(' ')}`);
}
