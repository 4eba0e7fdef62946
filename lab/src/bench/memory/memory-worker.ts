/**
 * Child process of the memory benchmark (run with `--expose-gc`): one strategy driven through the
 * Strategy interface, without HTTP, by a generated link stream, until its frontier holds each
 * checkpoint's number of samples. At each checkpoint it collects garbage twice and prints one
 * JSON line: { strategy, frontierSize, steps, seconds, heapBytes, rssBytes, baseHeapBytes, baseRssBytes }.
 *
 * With `maxFrontierUrls` (and `storeDir`) the pages are recorded in a real crawl store, and the
 * crawl loop's bound on the frontier in memory (FrontierSpill) stands between them and the
 * strategy: links past the bound wait in the store. The frontier is then the strategy's URLs
 * plus the held links, and each line adds `inMemory` (the strategy's) and `diskBytes` (the
 * crawl database's files).
 *
 * The links are made as the crawl loop makes them: `normalizeUrl` (a fresh, flat URL string per
 * link), `hostOf` and `registrableDomain`, so a strategy that keeps a link's strings keeps what
 * it would keep in a crawl. Per page: `linksPerPage` outlinks, 80% on the page's own host (the
 * generated webs' topical locality), page numbers drawn from a space large enough that most URLs
 * are new and some repeat; anchor texts of 3 words, half of them topical.
 */

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DiscoveredLink, Outcome, Strategy } from 'tres-crawler';
import { CrawlStore, createRng, createStrategy, type SelectionContext } from 'tres-crawler';
import {
  FrontierSpill,
  growableBytes,
  hostOf,
  KeywordSet,
  normalizeUrl,
  registrableDomain,
} from 'tres-crawler/internals';

interface WorkerArgs {
  strategy: string;
  checkpoints: number[];
  linksPerPage: number;
  hostCount: number;
  timeLimitSec: number;
  seed: string;
  /** The crawl loop's bound on the frontier in memory; false: none, and no store. */
  maxFrontierUrls: number | false;
  /** Folder of the crawl store when `maxFrontierUrls` is set. */
  storeDir?: string;
}

/** Bytes of the crawl database in `dir` (crawl.sqlite and its WAL), where held links wait. */
function databaseBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir))
    if (name.startsWith('crawl.sqlite')) total += statSync(join(dir, name)).size;
  return total;
}

const TOPIC = ['telescope', 'astronomy', 'galaxy', 'orbit', 'planet', 'nebula'];
const OTHER = ['recipe', 'football', 'garden', 'league', 'soup', 'travel', 'music', 'market'];

const gc = (globalThis as { gc?: () => void }).gc;

/**
 * Two GCs, then the process's memory; `growable` is the frontier columns' resizable buffers,
 * which V8 counts in neither heapUsed nor external (the event loop turns once so that the
 * finalizers of collected ones have run).
 */
async function collect(): Promise<NodeJS.MemoryUsage & { growable: number }> {
  gc?.();
  gc?.();
  await new Promise((resolve) => setTimeout(resolve, 0));
  return { ...process.memoryUsage(), growable: growableBytes() };
}

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2] ?? '{}') as WorkerArgs;
  if (!gc) throw new Error('memory-worker needs node --expose-gc');
  const rng = createRng(args.seed).fork('memory-web');
  const keywords = new KeywordSet(TOPIC);
  const strategy: Strategy = createStrategy(args.strategy, {
    rng: createRng(args.seed).fork('strategy'),
    keywords,
  });
  const wantsContext = strategy.needsLinkContext === true;
  const wantsAnchors = strategy.needsAnchorScores === true;
  const hostName = (h: number) =>
    h % 3 === 0
      ? `www.site${h}.example.com`
      : h % 3 === 1
        ? `blog.site${h}.example.org`
        : `site${h}.example.net`;
  const fetched = new Set<string>();
  const makeLink = (host: number, depth: number): DiscoveredLink => {
    const page = rng.int(5_000_000);
    const raw = `https://${hostName(host)}/section-${page % 97}/page-${page}.html`;
    const url = normalizeUrl(raw) as string;
    const linkHost = hostOf(url);
    const words = [0, 1, 2].map(() => (rng.next() < 0.5 ? rng.pick(TOPIC) : rng.pick(OTHER)) as string);
    const link: DiscoveredLink = {
      url,
      host: linkHost,
      domain: registrableDomain(linkHost),
      anchorText: words.join(' '),
      depth,
    };
    if (wantsAnchors) link.anchorProbability = rng.next();
    if (wantsContext) link.context = { tokens: words, offsets: Int8Array.from([-1, 0, 1]) };
    return link;
  };
  const seeds = [0, 1, 2, 3].map((h) => makeLink(h, 0));
  const ctx: SelectionContext = {
    isHostReady: () => true,
    isDomainOpen: () => true,
    isDomainClosed: () => false,
    isFetched: (url) => fetched.has(url),
    step: 0,
  };
  const store =
    args.maxFrontierUrls === false
      ? undefined
      : CrawlStore.open(args.storeDir as string, { mode: 'create', warc: false, seeds });
  const spill =
    store === undefined
      ? undefined
      : new FrontierSpill({
          store,
          strategy,
          isKnown: (url) => fetched.has(url),
          maxFrontierUrls: args.maxFrontierUrls,
        });
  const base = await collect();
  strategy.seed(seeds);
  const start = performance.now();
  const pending = [...args.checkpoints].sort((a, b) => a - b);
  let steps = 0;
  while (pending.length > 0) {
    spill?.refill();
    const action = strategy.next(ctx);
    if (!action) throw new Error(`${args.strategy}: empty frontier at step ${steps}`);
    fetched.add(action.url);
    const ownHost = Number(/site(\d+)/.exec(action.host)?.[1] ?? 0);
    const links: DiscoveredLink[] = [];
    for (let i = 0; i < args.linksPerPage; i++) {
      const host = rng.next() < 0.8 ? ownHost : rng.int(args.hostCount);
      const link = makeLink(host, action.depth + 1);
      if (!fetched.has(link.url)) links.push(link);
    }
    const reward = rng.next() < 0.3 ? 1 : 0;
    const outcome: Outcome = {
      action,
      finalUrl: action.url,
      isPage: true,
      reward,
      probability: reward > 0 ? 0.6 + 0.4 * rng.next() : 0.5 * rng.next(),
      title: 'page title',
      links,
    };
    if (store && spill) {
      const isHeld = spill.shouldHold(links.length);
      store.recordPage({ ...action, status: 200, reward, probability: outcome.probability, outlinks: links });
      if (isHeld) {
        spill.held(store.lastPageId, links.length, outcome.probability);
        strategy.observe({ ...outcome, links: [], areLinksHeld: true });
      } else strategy.observe(outcome);
    } else strategy.observe(outcome);
    steps++;
    ctx.step = steps;
    const inMemory = strategy.stats()['frontier/size'];
    const size = inMemory + (spill?.heldLinks ?? 0);
    const seconds = (performance.now() - start) / 1000;
    if (size >= (pending[0] as number)) {
      pending.shift();
      const m = await collect();
      const line = {
        strategy: args.strategy,
        frontierSize: size,
        steps,
        seconds,
        heapBytes: m.heapUsed + m.external + m.growable,
        rssBytes: m.rss,
        baseHeapBytes: base.heapUsed + base.external + base.growable,
        baseRssBytes: base.rss,
        ...(store ? { inMemory, diskBytes: databaseBytes(args.storeDir as string) } : {}),
      };
      process.stdout.write(`${JSON.stringify(line)}\n`);
    }
    if (seconds > args.timeLimitSec) break;
  }
  store?.close({ status: 'finished' });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
