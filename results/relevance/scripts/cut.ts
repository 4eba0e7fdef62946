// Cuts docweb datasets for each topic and caches them as JSON.
import { readFileSync, writeFileSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHtml } from '../../../src/html/parse-html.js';
import { DEFAULT_TOPICS_DIR, loadTopic, sampleTrainingData } from '../../../src/sandbox/docweb/index.js';
const topics = process.argv.slice(2);
for (const name of topics) {
  const out = `.tmp/rel/ds-${name}.json`;
  if (existsSync(out)) continue;
  const t0 = performance.now();
  const topic = loadTopic(join(DEFAULT_TOPICS_DIR, `${name}.yaml`));
  const dir = mkdtempSync(join(tmpdir(), 'cut-'));
  sampleTrainingData({ topic, outDir: dir, cacheDir: '/work/cache/docweb', relevant: 100, ratio: 9, seed: 'bench' });
  const rows = readFileSync(join(dir, 'manifest.tsv'), 'utf8').trim().split('\n').slice(1);
  const docs = rows.map((row) => {
    const [file, label, url, site] = row.split('\t') as [string, string, string, string];
    const p = parseHtml(readFileSync(join(dir, file), 'utf8'), url);
    const seen = new Set<string>();
    const links: [string, string, number][] = [];
    for (const l of p.links) { if (seen.has(l.url)) continue; seen.add(l.url); links.push([l.url, l.anchorText, topic.labelOf(l.url) ? 1 : 0]); }
    return { url, site, title: p.title, text: p.text, label: label === 'relevant' ? 1 : 0, source: url, links };
  });
  rmSync(dir, { recursive: true, force: true });
  writeFileSync(out, JSON.stringify({ name, keywords: topic.keywords, keyphrases: topic.keyphrases, docs }));
  console.log(name, docs.length, docs.filter((d) => d.label === 1).length, ((performance.now() - t0) / 1000).toFixed(1), 's');
}
