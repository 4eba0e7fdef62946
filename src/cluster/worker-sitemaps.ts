/**
 * A worker reads the sitemaps of a request's origin (the crawl's `--sitemaps`) as a local crawl
 * does, through its own client (its politeness, robots.txt and fencing), archiving each sitemap
 * response in its WARC file, and sends what it finds as it goes.
 */
import type { LinkProcessor } from '../crawl/index.js';
import { readSitemaps, toWarcPayload } from '../crawl/index.js';
import type { WebClient } from '../net/index.js';
import type { WorkerWarcFile } from '../store/index.js';
import type { FetchRequest, OutcomeMessage } from './messages.js';

/** What {@link readSitemapsFor} needs of its worker. */
export interface WorkerSitemapsOptions {
  client: WebClient;
  links: LinkProcessor;
  warc: WorkerWarcFile | undefined;
  /** The shard's lease: aborted when it is lost. */
  signal: AbortSignal;
  /** True once the worker is stopping. */
  isStopping: () => boolean;
  /** Sends one sitemap message to the coordinator (found URLs, a sitemap read or failed). */
  send: (sitemap: NonNullable<OutcomeMessage['sitemap']>) => Promise<unknown>;
}

/**
 * Reads the sitemaps of `request`'s origin, sending what it finds as it goes.
 * @returns true when the reading ran to its end (the request is then acknowledged with a last
 *   message); false when the lease was lost or the worker stops midway: the request stays
 *   pending and the next holder reads again (the coordinator stores a seed once).
 */
export async function readSitemapsFor(request: FetchRequest, o: WorkerSitemapsOptions): Promise<boolean> {
  const sends: Promise<unknown>[] = [];
  const send = (sitemap: NonNullable<OutcomeMessage['sitemap']>) => sends.push(o.send(sitemap));
  try {
    await readSitemaps(o.client, [request.url], request.sitemaps as NonNullable<FetchRequest['sitemaps']>, {
      isUrlAllowed: (url) => o.links.isUrlAllowed(url),
      isSitemapAllowed: (url) => o.links.isResourceAllowed(url),
      onUrls: (urls) => send({ urls }),
      onSitemap: (event) => send({ event }),
      onResponse: (fetched) => {
        o.warc?.append(toWarcPayload(fetched.result), 0);
      },
      shouldStop: () => o.isStopping() || o.signal.aborted,
      signal: o.signal,
    });
  } catch {
    // Aborted: the lease is gone, and the next holder reads the sitemaps again.
  }
  await Promise.all(sends);
  return !(o.signal.aborted || o.isStopping());
}
