/**
 * Counts each page once in the kept crawl stores of the benchmark at the commit before the
 * duplicate fix (3472273), whose crawler and benchmark counted every fetch.
 *
 * Run from a worktree at HEAD (its parser, fingerprints and duplicate index are the measure), with
 * the old commit's DocWeb server listening (`tres docweb serve --cache SNAPSHOT --port PORT`,
 * started from the old worktree: it serves every page under http and https alike):
 *
 *   npx vite-node /work/main/results/docweb2/duplicates/analyze-stores.ts -- \
 *     STORES_DIR TOPIC_FILE PORT > before-counted-once.json
 *
 * For each store (`<strategy>-<limit>-<run>/crawl.sqlite`, rows in fetch order) and each fetched
 * HTML page, the page is fetched again from the server (same bytes as in the run) and checked, in
 * fetch order, against the pages before it at three levels:
 *  - `url`: the same page by its address (scheme dropped, `dir/index.html` read as `dir/`), as
 *    HEAD's benchmark does (`pageIdentity`);
 *  - `exact`: ... or the same words (HEAD's content hash: SHA-1 of the lowercased words);
 *  - `near`: ... or a near copy (HEAD's SimHash, at most 3 differing bits: HEAD's crawler default).
 * A duplicate counts as an attempt, never as relevant; ground truth is the topic file's labels.
 */
import http from 'node:http';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { pageIdentity } from '/work/wt-after/src/bench/crawl-bench-run.ts';
import { parseHtml } from '/work/wt-after/src/html/index.ts';
import { loadTopic } from '/work/wt-after/src/sandbox/docweb/topic.ts';
import { DuplicateIndex } from '/work/wt-after/src/store/duplicate-index.ts';
import { contentFingerprint } from '/work/wt-after/src/text/content-fingerprint.ts';

const [storesDir, topicFile, portText] = process.argv.slice(2).filter((a) => a !== '--');
if (!storesDir || !topicFile || !portText) throw new Error('usage: STORES_DIR TOPIC_FILE PORT');
const port = Number(portText);
const topic = loadTopic(topicFile);

function get(url: string): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: `${u.pathname}${u.search}`, headers: { host: u.host } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(Buffer.concat(chunks).toString('utf8'))
            : reject(new Error(`${url}: HTTP ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
  });
}

interface Row {
  id: number;
  url: string;
  final_url: string;
  status: number;
  is_page: number;
  domain: string;
}

interface Level {
  duplicates: number;
  relevant: number;
  domains: Set<string>;
}

const out: Record<string, unknown>[] = [];
for (const name of readdirSync(storesDir).sort()) {
  const db = new Database(join(storesDir, name, 'crawl.sqlite'), { readonly: true });
  const rows = db
    .prepare('SELECT id, url, final_url, status, is_page, domain FROM pages ORDER BY id')
    .all() as Row[];
  db.close();
  const levels = { counted: mk(), url: mk(), exact: mk(), near: mk() };
  const seen = new Set<string>();
  const exactIndex = new DuplicateIndex(false);
  const nearIndex = new DuplicateIndex(3);
  let pages = 0;
  let httpAttempts = 0;
  let failures = 0;
  for (const r of rows) {
    if (r.url.startsWith('http://')) httpAttempts++;
    if (!r.is_page) {
      failures++;
      continue;
    }
    pages++;
    const isRelevant = topic.labelOf(r.final_url);
    const html = await get(r.final_url);
    const page = parseHtml(html, r.final_url);
    const fp = contentFingerprint(`${page.title} ${page.text}`);
    const identity = pageIdentity(r.final_url);
    const isUrlCopy = seen.has(identity);
    seen.add(identity);
    const isExactCopy = isUrlCopy || exactIndex.find(fp) !== undefined;
    const isNearCopy = isExactCopy || nearIndex.find(fp) !== undefined;
    // Copies are not indexed (their original is), as in HEAD's store.
    if (!exactIndex.find(fp)) exactIndex.add(r.id, fp);
    if (!nearIndex.find(fp)) nearIndex.add(r.id, fp);
    count(levels.counted, false, isRelevant, r.domain);
    count(levels.url, isUrlCopy, isRelevant, r.domain);
    count(levels.exact, isExactCopy, isRelevant, r.domain);
    count(levels.near, isNearCopy, isRelevant, r.domain);
  }
  const steps = rows.length;
  const summary = Object.fromEntries(
    Object.entries(levels).map(([k, l]) => [
      k,
      {
        duplicates: l.duplicates,
        duplicateShare: round4(l.duplicates / steps),
        relevant: l.relevant,
        harvestRate: round4(l.relevant / steps),
        relevantDomains: l.domains.size,
      },
    ]),
  );
  const entry = { run: name, steps, pages, failures, httpAttempts, ...summary };
  out.push(entry);
  console.error(
    `${name}: steps ${steps} pages ${pages} failures ${failures} http ${httpAttempts} | HR counted ${pct(levels.counted.relevant / steps)} url ${pct(levels.url.relevant / steps)} exact ${pct(levels.exact.relevant / steps)} near ${pct(levels.near.relevant / steps)} | dup share exact ${pct(levels.exact.duplicates / steps)}`,
  );
}
console.log(JSON.stringify(out, null, 1));

function mk(): Level {
  return { duplicates: 0, relevant: 0, domains: new Set() };
}
function count(l: Level, isCopy: boolean, isRelevant: boolean, domain: string): void {
  if (isCopy) {
    l.duplicates++;
    return;
  }
  if (isRelevant) {
    l.relevant++;
    l.domains.add(domain);
  }
}
function round4(v: number): number {
  return Math.round(v * 10000) / 10000;
}
function pct(v: number): string {
  return `${(100 * v).toFixed(1)}%`;
}
