/**
 * Ways of counting a topic's keywords, on the pages a crawl fetched: each page of the kept crawl
 * stores (`npm run lab -- bench crawl ... --keep-stores DIR`) is read again from the DocWeb cache
 * and judged by each variant (relevant when the rule holds), against the DocWeb's labels:
 * precision, recall and F1 per variant, and each keyword's document frequency over the pages.
 * `store` is the crawl's own verdict (P >= 0.5). keyword-judge-variants.ts does the same on a
 * uniform sample of the DocWeb, which a crawl does not see.
 *   npx vite-node lab/src/bench/analysis/keyword-judge-on-crawl.ts -- CACHE_DIR TOPIC_FILE STORE_DIR...
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { pageTokens, parseHtml } from 'tres-crawler/internals';
import { parse as parseYaml } from 'yaml';

const [cache, topicFile, ...stores] = process.argv.slice(2).filter((a) => a !== '--');
if (cache === undefined || topicFile === undefined || stores.length === 0) {
  process.stderr.write('usage: keyword-judge-on-crawl.ts CACHE_DIR TOPIC_FILE STORE_DIR...\n');
  process.exit(2);
}
const tokenize = (text: string) => pageTokens('', text);
const topic = parseYaml(readFileSync(topicFile, 'utf8')) as { name: string; keywords: string[] };
const web = new Database(join(cache, 'docweb.sqlite'), { readonly: true });
const byUrl = web.prepare(
  'SELECT p.id, p.path, s.dir FROM pages p JOIN sites s ON s.id = p.site_id WHERE p.url = ?',
);
const label = web.prepare('SELECT 1 FROM labels WHERE topic = ? AND page_id = ?');
const kw = new Set(topic.keywords.flatMap((k) => tokenize(k)));

interface Page {
  truth: boolean;
  titleTokens: string[];
  tokens: string[];
  storeP: number;
}
const pages: Page[] = [];
for (const store of stores) {
  const db = new Database(join(store, 'crawl.sqlite'), { readonly: true });
  const rows = db
    .prepare(
      'SELECT final_url, probability FROM pages WHERE is_page = 1 AND status = 200 AND duplicate_of IS NULL ORDER BY id',
    )
    .all() as { final_url: string; probability: number }[];
  for (const r of rows) {
    const alt = r.final_url.startsWith('https:')
      ? r.final_url.replace('https:', 'http:')
      : r.final_url.replace('http:', 'https:');
    const row = (byUrl.get(r.final_url) ?? byUrl.get(alt)) as
      | { id: number; path: string; dir: string }
      | undefined;
    if (!row) continue;
    let file = join(cache, row.dir, row.path);
    if (!existsSync(file) && existsSync(join(file, 'index.html'))) file = join(file, 'index.html');
    if (!existsSync(file)) continue;
    const html = readFileSync(file, 'latin1');
    const parsed = parseHtml(html, r.final_url);
    pages.push({
      truth: label.get(topic.name, row.id) !== undefined,
      titleTokens: tokenize(parsed.title),
      tokens: tokenize(parsed.text).slice(0, 5000),
      storeP: r.probability,
    });
  }
}

function counts(p: Page): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of p.titleTokens) if (kw.has(t)) m.set(t, (m.get(t) ?? 0) + 2);
  for (const t of p.tokens) if (kw.has(t)) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}
// Document frequency of each keyword over the pages judged so far (crawl order, all stores in turn).
const df = new Map<string, number>();
const variants: Record<string, (p: Page, i: number) => boolean> = {
  store: (p) => p.storeP >= 0.5,
  'count>=3': (p) => [...counts(p).values()].reduce((a, b) => a + b, 0) >= 3,
  'count>=6': (p) => [...counts(p).values()].reduce((a, b) => a + b, 0) >= 6,
  'distinct>=2': (p) => counts(p).size >= 2,
  'distinct>=3': (p) => counts(p).size >= 3,
  'distinct>=4': (p) => counts(p).size >= 4,
  'logsum>=3': (p) => [...counts(p).values()].reduce((a, c) => a + Math.log2(1 + c), 0) >= 3,
  'logsum>=4': (p) => [...counts(p).values()].reduce((a, c) => a + Math.log2(1 + c), 0) >= 4,
  'density>=1%': (p) =>
    [...counts(p).values()].reduce((a, b) => a + b, 0) / Math.max(50, p.tokens.length) >= 0.01,
  'density>=2%': (p) =>
    [...counts(p).values()].reduce((a, b) => a + b, 0) / Math.max(50, p.tokens.length) >= 0.02,
  'idf-logsum>=3': (p, i) => {
    let s = 0;
    for (const [k, c] of counts(p)) {
      const share = ((df.get(k) ?? 0) + 1) / (i + 2);
      s += Math.log2(1 + c) * Math.min(1, Math.log(1 / share) / Math.log(10));
    }
    return s >= 3;
  },
};
const tally: Record<string, { tp: number; fp: number; fn: number }> = {};
for (const name of Object.keys(variants)) tally[name] = { tp: 0, fp: 0, fn: 0 };
pages.forEach((p, i) => {
  for (const [name, f] of Object.entries(variants)) {
    const v = f(p, i);
    const t = tally[name]!;
    if (v && p.truth) t.tp++;
    else if (v) t.fp++;
    else if (p.truth) t.fn++;
  }
  for (const k of new Set([...p.titleTokens, ...p.tokens].filter((t) => kw.has(t))))
    df.set(k, (df.get(k) ?? 0) + 1);
});
const relevant = pages.filter((p) => p.truth).length;
console.log(
  `${topic.name}: ${pages.length} pages, ${relevant} relevant (${((100 * relevant) / pages.length).toFixed(1)}%)`,
);
console.log('| variant | called relevant | precision | recall | F1 |');
for (const [name, t] of Object.entries(tally)) {
  const pr = t.tp / Math.max(1, t.tp + t.fp);
  const rc = t.tp / Math.max(1, t.tp + t.fn);
  console.log(
    `| ${name} | ${t.tp + t.fp} | ${(100 * pr).toFixed(1)} | ${(100 * rc).toFixed(1)} | ${((200 * pr * rc) / Math.max(1e-9, pr + rc)).toFixed(1)} |`,
  );
}
const top = [...df.entries()]
  .sort((a, b) => b[1] - a[1])
  .map(([k, n]) => `${k} ${((100 * n) / pages.length).toFixed(0)}%`);
console.log('keyword document frequency:', top.join(', '));
