// How well ways of counting a topic's keywords in a page separate its relevant DocWeb pages from
// the rest, offline: N documentation pages drawn by a fixed hash of their id, read from the DocWeb
// cache, scored by each way of counting; precision and recall at 0.5, and ROC AUC (how well the
// count ranks pages whatever the threshold). The product's keyword judge is the first row.
// npx vite-node lab/src/bench/analysis/keyword-judge-variants.ts -- CACHE_DIR N TOPIC_FILE...
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parseHtml } from 'tres-crawler/internals';
import { parse as parseYaml } from 'yaml';

const [cacheDir, nText, ...topicFiles] = process.argv.slice(2).filter((a) => a !== '--');
const n = Number(nText);
const db = new Database(join(cacheDir as string, 'docweb.sqlite'), { readonly: true });
const rows = db
  .prepare(
    `SELECT p.id, p.url, p.path, s.dir FROM pages p JOIN sites s ON s.id = p.site_id ORDER BY (p.id * 2654435761) % 4294967296 LIMIT ?`,
  )
  .all(n * 2) as { id: number; url: string; path: string; dir: string }[];
const pages: { id: number; title: string; text: string; words: string[]; titleWords: string[] }[] = [];
const WORD = /[\p{L}\p{N}]+/gu;
for (const r of rows) {
  const file = join(cacheDir as string, r.dir, r.path);
  if (!existsSync(file) || !/\.html?$/.test(file)) continue;
  const parsed = parseHtml(readFileSync(file, 'utf8'), r.url);
  const words = [...parsed.text.toLowerCase().matchAll(WORD)].map((m) => m[0]);
  const titleWords = [...parsed.title.toLowerCase().matchAll(WORD)].map((m) => m[0]);
  pages.push({ id: r.id, title: parsed.title, text: parsed.text, words, titleWords });
  if (pages.length >= n) break;
}
console.log(`pages read: ${pages.length}`);
type Variant = (p: (typeof pages)[number], kw: Set<string>) => number;
const count = (ws: string[], kw: Set<string>) => ws.reduce((c, w) => c + (kw.has(w) ? 1 : 0), 0);
const distinct = (ws: string[], kw: Set<string>) => new Set(ws.filter((w) => kw.has(w))).size;
const variants: Record<string, Variant> = {
  'occurrences n/(n+3)': (p, kw) => {
    const c = count(p.titleWords, kw) * 2 + count(p.words, kw);
    return c / (c + 3);
  },
  'distinct d/(d+3)': (p, kw) => {
    const d = distinct([...p.titleWords, ...p.words], kw);
    return d / (d + 3);
  },
  'distinct d/(d+2)': (p, kw) => {
    const d = distinct([...p.titleWords, ...p.words], kw);
    return d / (d + 2);
  },
  'per 100 words': (p, kw) => {
    const c = count(p.titleWords, kw) * 2 + count(p.words, kw);
    const x = (100 * c) / Math.max(50, p.words.length);
    return x / (x + 1);
  },
  'occ*distinct': (p, kw) => {
    const c = count(p.titleWords, kw) * 2 + count(p.words, kw);
    const d = distinct([...p.titleWords, ...p.words], kw);
    const x = Math.sqrt(c * d);
    return x / (x + 3);
  },
  'per 100 words x distinct': (p, kw) => {
    const c = count(p.titleWords, kw) * 2 + count(p.words, kw);
    const d = distinct([...p.titleWords, ...p.words], kw);
    const x = ((100 * c) / Math.max(50, p.words.length)) * Math.min(1, d / 3);
    return x / (x + 1);
  },
};
for (const topicFile of topicFiles) {
  const topic = parseYaml(readFileSync(topicFile, 'utf8')) as { name: string; keywords: string[] };
  const kw = new Set(topic.keywords.map((k) => k.toLowerCase()));
  const rel = new Set(
    (db.prepare('SELECT page_id FROM labels WHERE topic = ?').all(topic.name) as { page_id: number }[]).map(
      (r) => r.page_id,
    ),
  );
  const positives = pages.filter((p) => rel.has(p.id)).length;
  console.log(`\n## ${topic.name}: ${positives} relevant of ${pages.length}`);
  console.log('| variant | called relevant | precision | recall | F1 | AUC |');
  for (const [name, f] of Object.entries(variants)) {
    const scored = pages.map((p) => ({ s: f(p, kw), y: rel.has(p.id) }));
    const called = scored.filter((x) => x.s >= 0.5);
    const tp = called.filter((x) => x.y).length;
    const precision = tp / Math.max(1, called.length);
    const recall = tp / Math.max(1, positives);
    // AUC by ranks (ties half).
    scored.sort((a, b) => a.s - b.s);
    let rankSum = 0;
    for (let i = 0; i < scored.length; ) {
      let j = i;
      while (j < scored.length && scored[j]?.s === scored[i]?.s) j++;
      const mid = (i + j + 1) / 2;
      for (let k = i; k < j; k++) if (scored[k]?.y) rankSum += mid;
      i = j;
    }
    const neg = scored.length - positives;
    const auc = (rankSum - (positives * (positives + 1)) / 2) / Math.max(1, positives * neg);
    const f1 = (2 * precision * recall) / Math.max(1e-9, precision + recall);
    console.log(
      `| ${name} | ${called.length} | ${(100 * precision).toFixed(1)} | ${(100 * recall).toFixed(1)} | ${(100 * f1).toFixed(1)} | ${auc.toFixed(3)} |`,
    );
  }
}
