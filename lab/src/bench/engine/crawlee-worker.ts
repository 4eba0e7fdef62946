/**
 * Child process of the engine benchmark: Crawlee's CheerioCrawler crawling the same sandbox web
 * as tres, breadth-first, K fetches in flight, no delays, through the replay server used as an
 * HTTP proxy (Crawlee has no resolve rules; the server answers absolute-form requests).
 * Prints one JSON line: { pages, seconds, pagesPerSec, maxRssBytes }.
 *
 * Usage: node lab/dist/bench/engine/crawlee-worker.js '{"proxyUrl":...,"seeds":[...],"maxPages":N,"concurrency":K}'
 */
import { CheerioCrawler, Configuration } from '@crawlee/cheerio';
import { ProxyConfiguration } from '@crawlee/core';
import { MemoryStorage } from '@crawlee/memory-storage';

interface WorkerArgs {
  proxyUrl: string;
  seeds: string[];
  maxPages: number;
  concurrency: number;
}

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2] ?? '{}') as WorkerArgs;
  const config = new Configuration({
    persistStorage: false,
    storageClient: new MemoryStorage({ persistStorage: false, writeMetadata: false }),
    logLevel: 3, // WARNING: keep the benchmark output readable
  } as ConstructorParameters<typeof Configuration>[0]);
  let pages = 0;
  const crawler = new CheerioCrawler(
    {
      proxyConfiguration: new ProxyConfiguration({ proxyUrls: [args.proxyUrl] }),
      maxConcurrency: args.concurrency,
      minConcurrency: args.concurrency,
      maxRequestsPerCrawl: args.maxPages,
      maxRequestRetries: 0,
      useSessionPool: false,
      requestHandlerTimeoutSecs: 30,
      async requestHandler({ enqueueLinks }) {
        pages++;
        await enqueueLinks({ strategy: 'all' });
      },
      failedRequestHandler() {
        pages++;
      },
    },
    config,
  );
  const start = performance.now();
  await crawler.run(args.seeds);
  const seconds = (performance.now() - start) / 1000;
  const maxRssBytes = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(`${JSON.stringify({ pages, seconds, pagesPerSec: pages / seconds, maxRssBytes })}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
