import { readFileSync } from 'node:fs';
import { pageTokens } from '../../../src/text/tokenizer.js';
for (const name of process.argv.slice(2)) {
  const ds = JSON.parse(readFileSync(`.tmp/rel/ds-${name}.json`, 'utf8'));
  const toks: string[][] = ds.docs.map((d: any) => pageTokens(d.title, d.text));
  const rel = toks.filter((_, i) => ds.docs[i].label === 1);
  const irr = toks.filter((_, i) => ds.docs[i].label === 0);
  const df = (docs: string[][]) => { const m = new Map<string, number>(); for (const d of docs) for (const w of new Set(d)) m.set(w, (m.get(w) ?? 0) + 1); return m; };
  const dr = df(rel), di = df(irr);
  const ratios: number[] = [];
  for (const [w, c] of dr) if (c >= 5) ratios.push(((c + 1) / (rel.length + 2)) / (((di.get(w) ?? 0) + 1) / (irr.length + 2)));
  ratios.sort((a, b) => a - b);
  const ml = (d: string[][]) => d.reduce((a, b) => a + b.length, 0) / d.length;
  const med = (d: string[][]) => d.map((x) => x.length).sort((a, b) => a - b)[d.length >> 1];
  console.log(name, 'mean len rel', ml(rel).toFixed(0), 'irr', ml(irr).toFixed(0), 'median', med(rel), med(irr), 'ratio quartiles', [0.25, 0.5, 0.75].map((q) => ratios[Math.floor(q * ratios.length)]!.toFixed(2)).join(' '), 'n', ratios.length);
}
