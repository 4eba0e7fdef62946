/**
 * The judge's oracle: the bench's oracle (best-first on labels known before fetching,
 * least-fetched site first among relevant links) given the verdicts of the crawl's judge on every
 * DocWeb page (P >= 0.5 on the page's file, parsed as the crawler parses it) instead of the truth.
 * Its harvest rate and sites by the truth bound what a crawler led by that judge can reach from a
 * seed: it never fetches a page its judge will call irrelevant while one it will call relevant is
 * linked. Writes one run file per seed in the crawl benchmark's form (OUT/runs/), measured by the
 * truth as every benchmark run is.
 *
 *   npx vite-node lab/src/bench/analysis/judge-oracle.ts -- TOPIC MODEL_DIR OUT [--cache DIR] [--runs N] [--pages N]
 *
 * --cache defaults to the DocWeb cache of `npm run lab -- docweb` ($TRES_CACHE_DIR/docweb);
 * --runs to 5 (seeds 0..N-1), --pages to 3,000.
 *
 * TOPIC is a name of data/topics/ (hardware, ...); MODEL_DIR the judge (`tres train --out`).
 * Scoring the DocWeb's 250k pages takes about 4 minutes, each run under a minute.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { PageToJudge } from 'tres-crawler';
import { loadModel, parseHtml } from 'tres-crawler/internals';
import { defaultCacheDir } from '../../docweb/cache-layout.js';
import { DocwebDb } from '../../docweb/docweb-db.js';
import { servedPageLookup } from '../../docweb/link-graph.js';
import { pageKey } from '../../docweb/seed-check.js';
import { runOnce } from '../crawl/crawl-bench-run.js';
import { openBenchWeb } from '../crawl/crawl-bench-topic.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    cache: { type: 'string', default: defaultCacheDir() },
    runs: { type: 'string', default: '5' },
    pages: { type: 'string', default: '3000' },
  },
});
const [topicName, modelDir, outDir] = positionals;
if (!topicName || !modelDir || !outDir) {
  console.error(
    'usage: npx vite-node lab/src/bench/analysis/judge-oracle.ts -- TOPIC MODEL_DIR OUT [--cache DIR] [--runs N] [--pages N]',
  );
  process.exit(2);
}
const runs = Number(values.runs);
const maxPages = Number(values.pages);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(maxPages) || maxPages < 1) {
  console.error(
    `--runs and --pages must be whole numbers of at least 1, got ${values.runs} and ${values.pages}`,
  );
  process.exit(2);
}
const cache = values.cache as string;
mkdirSync(join(outDir, 'runs'), { recursive: true });

/** Keys (`pageKey`) of the DocWeb pages the judge calls relevant. */
async function judgedRelevant(): Promise<Set<string>> {
  const model = await loadModel(modelDir as string);
  const db = new DocwebDb(cache);
  const dirOf = new Map(db.sites().map((s) => [s.id, db.siteDir(s)]));
  const judged = new Set<string>();
  let batch: (PageToJudge & { key: string })[] = [];
  const flush = async () => {
    const p = await model.scorePages(batch);
    batch.forEach((b, i) => {
      if ((p[i] ?? 0) >= 0.5) judged.add(b.key);
    });
    batch = [];
  };
  const pages = db.pages();
  const start = Date.now();
  try {
    for (const [i, page] of pages.entries()) {
      if (i % 50_000 === 0)
        console.error(
          `${i}/${pages.length} pages judged, ${judged.size} relevant, ${((Date.now() - start) / 1000).toFixed(0)} s`,
        );
      const key = pageKey(page.url);
      if (!key) continue;
      let body: Buffer;
      try {
        body = readFileSync(join(dirOf.get(page.siteId) as string, page.path));
      } catch {
        continue; // a page the build lists but no longer has: the server answers 404 too
      }
      // PDFs: the judge would read their text; the DocWeb's few are counted as irrelevant here.
      if (body.subarray(0, 5).toString('latin1') === '%PDF-') continue;
      const { title, text } = parseHtml(body.toString('utf8'), page.url);
      batch.push({ url: page.url, title, text, key });
      if (batch.length >= 256) await flush();
    }
    await flush();
  } finally {
    db.close();
    model.dispose?.();
  }
  console.error(`${judged.size} of ${pages.length} pages judged relevant`);
  return judged;
}

const judged = await judgedRelevant();
const lookupDb = new DocwebDb(cache);
const lookup = servedPageLookup(lookupDb);
lookupDb.close();
const judge = await loadModel(modelDir);
const web = await openBenchWeb(`data/topics/${topicName}.yaml`, { cacheDir: cache });
try {
  const topic = {
    ...web.topic,
    // What the oracle ranks by; the run is still measured by the truth (`labelOf`).
    isRelevantPage: (url: string) => {
      const landing = lookup(url);
      const key = landing === undefined ? undefined : pageKey(landing);
      return key !== undefined && judged.has(key);
    },
  };
  for (let run = 0; run < runs; run++) {
    const result = await runOnce({
      topic,
      strategy: 'oracle',
      domainLimit: 'none',
      run,
      maxPages,
      concurrency: 1,
      curvePoints: 100,
      relevanceThreshold: 0.5,
      net: web.net,
      urlFilter: web.urlFilter,
      judge,
      servedHosts: web.servedHosts,
      isClosedWorld: true,
      ...(web.hasPage ? { hasPage: web.hasPage } : {}),
    });
    const file = join(outDir, 'runs', `judge-oracle__run${run}.json`);
    writeFileSync(
      file,
      `${JSON.stringify({ setting: { judge: modelDir }, result: { ...result, strategy: 'judge-oracle' } })}\n`,
    );
    console.error(
      `run ${run}: harvest rate ${(result.harvestRate * 100).toFixed(1)}%, ${result.relevantDomains} relevant sites (the judge: ${(result.classifierHarvestRate * 100).toFixed(1)}%)`,
    );
  }
} finally {
  await web.close();
}
