/**
 * A page's WARC records gzipped in libuv's thread pool ahead of its commit, when that pays: on
 * 300 DocWeb pages of 91 KB on average, gzip on the main thread took 0.86-0.99 ms a page and the
 * thread pool's callback API kept it busy 0.17-0.21 ms; on 5.7 KB the callback API cost the main
 * thread as much as the work (results/engine.md).
 */
import type { CrawlStore, PreparedWarc, WarcPayload } from '../store/index.js';
import type { ProcessedFetch } from './process-fetch.js';

/**
 * Bodies from this size are gzipped for the WARC file in the thread pool: below it zlib's
 * callback API costs the main thread about what the gzip would.
 */
export const THREAD_POOL_WARC_BYTES = 32 * 1024;

/**
 * A page's WARC payload for its commit: gzipped in the thread pool when the body is large and
 * other fetches are in flight to fill the wait (then `afterWait` runs, as other fetches may have
 * been recorded meanwhile), else as fetched (gzipped in `recordPage`, on the main thread).
 */
export async function warcForCommit(
  result: ProcessedFetch,
  store: CrawlStore,
  o: { shouldWriteWarc: boolean; maxConcurrency: number },
  afterWait: (result: ProcessedFetch) => void,
): Promise<{ warc: WarcPayload | PreparedWarc } | undefined> {
  const exchange = result.warc?.warc;
  if (
    exchange === undefined ||
    !o.shouldWriteWarc ||
    o.maxConcurrency < 2 ||
    exchange.body.byteLength < THREAD_POOL_WARC_BYTES
  )
    return result.warc;
  const prepared = await store.prepareWarc(exchange, result.record.probability);
  afterWait(result);
  return { warc: prepared };
}
