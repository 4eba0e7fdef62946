// What a resume costs at 100k pages. Builds a crawl store of N pages (default
// 100,000) the way the crawl loop does, without HTTP: the strategy (default tres) chooses each
// page from its frontier, the page is recorded in crawl.sqlite (L new outlinks with anchor texts
// and probabilities, and 24 context words when the strategy reads contexts; the reward drawn at
// random with P = 0.5) and observed, and the strategy's checkpoint is stored every 500 pages as
// the crawler stores it. Then `tres crawl --resume`'s work on that store is timed:
// a Crawler resumes it with the page budget already spent, so it opens the store, restores the
// checkpoint, replays every page and stops (once with the checkpoint, once without). Prints the
// checkpoint's size and time to take and store, and the resume's time with its parts.
// npx vite-node lab/src/bench/analysis/resume-cost.ts -- [PAGES] [LINKS_PER_PAGE] [STRATEGY]

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DiscoveredLink, Outcome } from 'tres-crawler';
import { Crawler, CrawlStore, createRng, createStrategy, type SelectionContext } from 'tres-crawler';
import { KeywordSet } from 'tres-crawler/internals';

const args = process.argv.slice(2).filter((a) => a !== '--');
const PAGES = Number(args[0] ?? 100_000);
const LINKS = Number(args[1] ?? 10);
const STRATEGY = args[2] ?? 'tres';
/** Words around a link, when the strategy reads them (about what a DocWeb link carries). */
const CONTEXT_WORDS = 24;
const HOSTS = 2_000;
const EVERY = 500;
const KEYWORDS = ['computer', 'hardware'];
const WORDS = [
  'computer',
  'hardware',
  'cpu',
  'memory',
  'recipe',
  'garden',
  'league',
  'hotel',
  'jazz',
  'stock',
];

/** Anchor and context words: the topic words, then 20,000 others drawn with a Zipf-like skew. */
const VOCABULARY = [...WORDS, ...Array.from({ length: 20_000 }, (_, k) => `w${k.toString(36)}`)];
const word = (): string => VOCABULARY[Math.floor(rng.next() ** 3 * VOCABULARY.length)] as string;

const dir = mkdtempSync(join(tmpdir(), 'tres-resume-cost-'));
const rng = createRng('resume-cost');
const strategy = createStrategy(STRATEGY, {
  rng: createRng(1).fork('strategy'),
  keywords: new KeywordSet(KEYWORDS, []),
});
let nextPage = 0;
const link = (depth: number, nearHost?: number): DiscoveredLink => {
  const host = nearHost !== undefined && rng.next() < 0.7 ? nearHost : rng.int(HOSTS);
  const name = `h${host}.example`;
  const words = [word(), word()].join(' ');
  const context =
    strategy.needsLinkContext === true
      ? {
          tokens: Array.from({ length: CONTEXT_WORDS }, word),
          offsets: Int8Array.from(
            { length: CONTEXT_WORDS },
            (_, i) => Math.round((i * 10) / CONTEXT_WORDS) - 5,
          ),
        }
      : undefined;
  return {
    url: `http://${name}/p${nextPage++}`,
    host: name,
    domain: name,
    anchorText: words,
    depth,
    anchorProbability: rng.next(),
    ...(context ? { context } : {}),
  };
};
const seeds = [link(0), link(0)];
const store = CrawlStore.open(dir, {
  mode: 'create',
  warc: false,
  seeds,
  meta: { config: { strategy: STRATEGY } },
});
strategy.seed(seeds);
const fetched = new Set<string>();
const ctx: SelectionContext = {
  isHostReady: () => true,
  isDomainOpen: () => true,
  isDomainClosed: () => false,
  isFetched: (url) => fetched.has(url),
  step: 0,
  domainLimit: Number.POSITIVE_INFINITY,
};
const checkpointMs: number[] = [];
let checkpointBytes = 0;
const started = performance.now();
for (let step = 1; step <= PAGES; step++) {
  ctx.step = step - 1;
  const action = strategy.next(ctx);
  if (!action) throw new Error(`the frontier ran dry at step ${step}`);
  fetched.add(action.url);
  const hostId = Number(action.host.slice(1, action.host.indexOf('.')));
  const links = Array.from({ length: LINKS }, () => link(action.depth + 1, hostId));
  const reward = rng.next() < 0.5 ? 1 : 0;
  const probability = reward === 1 ? 0.5 + rng.next() / 2 : rng.next() / 2;
  const title = `${rng.pick(WORDS)} ${rng.pick(WORDS)}`;
  store.recordPage({
    url: action.url,
    status: 200,
    host: action.host,
    domain: action.domain,
    depth: action.depth,
    reward,
    probability,
    title,
    isPage: true,
    outlinks: links,
    ...(action.parentUrl === undefined ? {} : { parentUrl: action.parentUrl }),
  });
  const outcome: Outcome = { action, finalUrl: action.url, isPage: true, reward, probability, title, links };
  strategy.observe(outcome);
  if (step % EVERY === 0 || step === PAGES) {
    const t0 = performance.now();
    checkpointBytes = store.saveCheckpoint({
      strategy: strategy.name,
      config: strategy.config ?? null,
      afterPage: store.lastPageId,
      data: strategy.checkpoint!(),
    });
    checkpointMs.push(performance.now() - t0);
  }
  if (step % 10_000 === 0)
    console.log(`built ${step} pages in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
store.close({ status: 'interrupted' });
const last = checkpointMs.slice(-5);
console.log(
  `store of ${PAGES} pages x ${LINKS} outlinks: crawl.sqlite ${(statSync(join(dir, 'crawl.sqlite')).size / 1e6).toFixed(1)} MB; ` +
    `checkpoint at the end ${(checkpointBytes / 1e6).toFixed(2)} MB, taken and stored in ${last.map((ms) => ms.toFixed(0)).join(' / ')} ms (last 5), ` +
    `${(checkpointMs.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s for all ${checkpointMs.length} (every ${EVERY} pages)`,
);

for (const checkpointEveryPages of [EVERY, false] as const) {
  const crawler = new Crawler({
    outDir: dir,
    isResume: true,
    strategy: STRATEGY,
    seed: 1,
    keywords: KEYWORDS,
    maxPages: PAGES,
    shouldWriteWarc: false,
    checkpointEveryPages,
  });
  let restoreMs = 0;
  crawler.on('checkpoint', (e) => {
    if (e.kind === 'restored') restoreMs = e.elapsedMs;
  });
  const t0 = performance.now();
  const summary = await crawler.run();
  const ms = performance.now() - t0;
  console.log(
    `resume ${checkpointEveryPages === false ? 'without the checkpoint' : 'with the checkpoint'}: ${(ms / 1000).toFixed(1)} s to open, ${checkpointEveryPages === false ? '' : `restore (${(restoreMs / 1000).toFixed(1)} s), `}replay ${summary.steps} pages and stop (frontier ${summary.frontierSize}); heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`,
  );
}
rmSync(dir, { recursive: true, force: true });
