import { readFileSync } from 'node:fs';
import { pageTokens, tokenize } from '../../../src/text/tokenizer.js';
import { STOPWORDS } from '../../../src/text/stopwords.js';
for (const name of ['hardware', 'statistics', 'programming-languages', 'typesetting', 'system-administration']) {
  const ds = JSON.parse(readFileSync(`.tmp/rel/ds-${name}.json`, 'utf8'));
  const toks: string[][] = ds.docs.map((d: any) => tokenize(`${d.title} ${d.text}`, { keepStopwords: true }));
  const rel = toks.filter((_, i) => ds.docs[i].label === 1);
  const irr = toks.filter((_, i) => ds.docs[i].label === 0);
  const df = (docs: string[][]) => { const m = new Map<string, number>(); for (const d of docs) for (const w of new Set(d)) m.set(w, (m.get(w) ?? 0) + 1); return m; };
  const dr = df(rel), di = df(irr);
  const r = (w: string) => ((dr.get(w) ?? 0) + 1) / (rel.length + 2) / (((di.get(w) ?? 0) + 1) / (irr.length + 2));
  const sw = [...STOPWORDS].filter((w) => (dr.get(w) ?? 0) >= 5).map(r).sort((a, b) => a - b);
  console.log(name, 'stopword ratio median', sw[sw.length >> 1]?.toFixed(2), 'n', sw.length, ' the', r('the').toFixed(2), 'would', r('would').toFixed(2));
}
