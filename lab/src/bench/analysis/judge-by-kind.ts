// How a relevance model judges the DocWeb's pages by kind: documentation pages, the directory
// hub's pages (packages.debian.org) and project home pages. For each kind, up to 400 pages the
// topic labels relevant and 400 it does not (a fixed pseudo-random draw by page id), the share
// the model calls relevant (P >= 0.5) and its mean P. The relevant sites of a DocWeb
// topic are mostly home pages, the judge's weakest kind.
// npx vite-node lab/src/bench/analysis/judge-by-kind.ts -- TOPIC MODEL_DIR [CACHE_DIR] [--exclude SAMPLE_DIR]...
// --exclude (repeatable): leave out the pages of a `tres docweb sample` folder (its manifest.tsv), the pages
// the model was trained on, so the shares are on pages it never saw.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { LabeledDocument } from 'tres-crawler/internals';
import { loadModel, readDocumentFile } from 'tres-crawler/internals';

const args = process.argv.slice(2).filter((a) => a !== '--');
const sampleDirs: string[] = [];
for (let at = args.indexOf('--exclude'); at >= 0; at = args.indexOf('--exclude')) {
  sampleDirs.push(...args.splice(at, 2).slice(1));
}
const [topic, modelDir, cacheDir = '/work/cache/docweb'] = args;
if (topic === undefined || modelDir === undefined) {
  process.stderr.write('usage: judge-by-kind.ts TOPIC MODEL_DIR [CACHE_DIR] [--exclude SAMPLE_DIR]\n');
  process.exit(2);
}
const seen = new Set<string>();
for (const sampleDir of sampleDirs) {
  const manifest = join(sampleDir, 'manifest.tsv');
  if (!existsSync(manifest)) {
    process.stderr.write(
      `judge-by-kind: ${manifest} does not exist (--exclude takes a tres docweb sample folder)\n`,
    );
    process.exit(2);
  }
  for (const line of readFileSync(manifest, 'utf8').split('\n').slice(1)) {
    const url = line.split('\t')[2];
    if (url) seen.add(url);
  }
}
const db = new Database(join(cacheDir, 'docweb.sqlite'), { readonly: true });
const model = await loadModel(modelDir);
const kinds: Record<string, string> = {
  documentation: "s.host <> 'packages.debian.org' AND s.dir NOT LIKE 'homepages%'",
  hub: "s.host = 'packages.debian.org'",
  'home page': "s.dir LIKE 'homepages%'",
};
console.log(`| ${topic}: kind | label | pages | judged relevant % | mean P |`);
console.log('|---|---|---:|---:|---:|');
for (const [kind, where] of Object.entries(kinds)) {
  for (const isRelevant of [true, false]) {
    const rows = db
      .prepare(
        `SELECT s.dir, p.path, p.url FROM pages p JOIN sites s ON s.id = p.site_id
         WHERE ${where} AND ${isRelevant ? '' : 'NOT'} EXISTS
           (SELECT 1 FROM labels l WHERE l.page_id = p.id AND l.topic = ?)
         ORDER BY (p.id * 2654435761) % 1000003 LIMIT ?`,
      )
      .all(topic, 400 + seen.size) as { dir: string; path: string; url: string }[];
    const docs: LabeledDocument[] = [];
    for (const r of rows.filter((row) => !seen.has(row.url)).slice(0, 400)) {
      const doc = readDocumentFile(join(cacheDir, r.dir, r.path), isRelevant ? 1 : 0);
      if (!('why' in doc)) docs.push({ ...doc, url: r.url });
    }
    const scores = await model.scorePages(docs);
    const judged = scores.filter((s) => s >= 0.5).length;
    const mean = scores.reduce((a, b) => a + b, 0) / Math.max(1, scores.length);
    const share = (100 * judged) / Math.max(1, docs.length);
    console.log(
      `| ${kind} | ${isRelevant ? 'relevant' : 'not relevant'} | ${docs.length} | ${share.toFixed(1)} | ${mean.toFixed(3)} |`,
    );
  }
}
model.dispose();
db.close();
