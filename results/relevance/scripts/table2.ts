import { readFileSync, writeFileSync } from 'node:fs';
import { pageTokens } from '../../../src/text/tokenizer.js';
import { loadWordVectors } from '../../../src/text/vector-cache.js';
import { expandKeywords } from '../../../src/text/keyword-expansion.js';
import { keywordStatistics } from '../../../src/text/keyword-stats.js';
import { KeywordSet } from '../../../src/text/keyword-set.js';
const v = await loadWordVectors();
const ratios: (number | false)[] = [false, 2, 3, 4];
const out: any[] = [];
for (const name of ['hardware', 'statistics', 'programming-languages', 'typesetting', 'system-administration']) {
  const ds = JSON.parse(readFileSync(`.tmp/rel/ds-${name}.json`, 'utf8'));
  const toks: string[][] = ds.docs.map((d: any) => pageTokens(d.title, d.text));
  const rel = toks.filter((_, i) => ds.docs[i].label === 1);
  const irr = toks.filter((_, i) => ds.docs[i].label === 0);
  const seeds = new KeywordSet(ds.keywords).keywords;
  for (const r of ratios) {
    const e = expandKeywords(seeds, rel, v, { irrelevant: irr, minDocFreqRatio: r });
    const s = keywordStatistics(seeds, e.discovered.map((d) => d.word), rel, irr);
    out.push({ topic: name, ratio: r, threshold: e.threshold, stats: s, discovered: e.discovered.map((d) => d.word), rejected: e.rejected.map((d) => d.word) });
    console.log(name.padEnd(22), String(r).padEnd(6), 'disc', String(s.discoveredKeywords).padStart(4), 'discRel', s.meanDiscoveredPerRelevant.toFixed(1).padStart(6), 'discIrr', s.meanDiscoveredPerIrrelevant.toFixed(1).padStart(6), 'allRel', s.meanKeywordsPerRelevant.toFixed(1).padStart(6), 'allIrr', s.meanKeywordsPerIrrelevant.toFixed(1).padStart(6), 'sc1', s.shortcut1);
    if (r === 3) console.log('   kept:', e.discovered.slice(0, 60).map((d) => d.word).join(' '), '\n   rejected:', e.rejected.slice(0, 40).map((d) => d.word).join(' '));
  }
}
writeFileSync('.tmp/rel/table2.json', JSON.stringify(out, null, 1));
