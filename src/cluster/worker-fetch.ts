/**
 * What a worker does with one fetch request: refuses it when it is out of scope or of another
 * shard, fetches its redirect chain while the hosts are in shards the worker holds, parses and
 * judges the page and writes it to the worker's WARC file, and turns a thrown error into the
 * failure the crawl loop would classify it as.
 */
import { DeferUrlError, errorCode, RetryLaterError, SkipUrlError } from '../common/index.js';
import type { LinkProcessor, PageJudge } from '../crawl/index.js';
import { processFetch } from '../crawl/index.js';
import { DEFAULT_WEB_CLIENT_OPTIONS, type PageFetch, type WebClient } from '../net/index.js';
import type { WorkerWarcFile } from '../store/index.js';
import type { Action } from '../types/index.js';
import { hostOf } from '../url/index.js';
import { shardOf } from './cluster-options.js';
import { ForeignHostError } from './lease-scripts.js';
import {
  type FetchFailure,
  type FetchRequest,
  type OutcomeMessage,
  pageMessage,
  type WorkerCrawlConfig,
} from './messages.js';

/**
 * Fetches the request's page, following redirects while their hosts are in shards this worker
 * holds (`isHeld`); a redirect to another shard's host ends here as `moved` (the coordinator
 * sends the rest of the chain to that shard's holder). A chain continued from another worker
 * (`via`) starts at its last target and counts the redirects before it, for loops and the
 * redirect cap.
 * @throws SkipUrlError TRES_REDIRECT_LOOP / TRES_TOO_MANY_REDIRECTS across workers; what
 *   `WebClient.fetchPage` throws.
 */
export async function fetchChain(
  client: WebClient,
  request: FetchRequest,
  o: { signal: AbortSignal; shards: number; isHeld: (shard: number) => boolean; config: WorkerCrawlConfig },
): Promise<PageFetch | { moved: { to: string; redirects: string[] } }> {
  const fetched = await client.fetchPage(request.via?.at ?? request.url, {
    signal: o.signal,
    shouldFollow: (next) => {
      try {
        return o.isHeld(shardOf(hostOf(next), o.shards));
      } catch {
        return true; // not a URL with a host: fetchPage refuses it with the usual error
      }
    },
  });
  const redirects = [...(request.via?.redirects ?? []), ...fetched.redirects];
  const status = fetched.result.status;
  const next = status >= 300 && status < 400 ? fetched.result.location : undefined;
  const chain = next === undefined ? redirects : [...redirects, next];
  const max = o.config.net.maxRedirects ?? DEFAULT_WEB_CLIENT_OPTIONS.maxRedirects;
  const seen = new Set<string>([withoutHash(request.url)]);
  for (const url of chain) {
    if (seen.has(withoutHash(url))) {
      throw new SkipUrlError(
        'TRES_REDIRECT_LOOP',
        `Redirect loop: ${chain.join(' -> ')} (from ${request.url})`,
        {
          context: { url: request.url, status, redirects: chain },
        },
      );
    }
    seen.add(withoutHash(url));
  }
  if (chain.length > max) {
    throw new SkipUrlError('TRES_TOO_MANY_REDIRECTS', `More than ${max} redirects from ${request.url}`, {
      context: { url: request.url, status, redirects: chain },
    });
  }
  // fetchPage stops at a 3xx with a Location only when shouldFollow refused it: another shard's.
  if (next !== undefined) return { moved: { to: next, redirects: chain } };
  return { ...fetched, requestedUrl: request.url, redirects };
}

/**
 * Parses and judges a fetched page and appends it to the worker's WARC file (before the outcome
 * is sent: a page in the store is always in a WARC file): its outcome. `counts.fetched` grows
 * once the page is written.
 */
export async function pageOutcome(
  fetched: PageFetch,
  action: Action,
  judged: { judge: PageJudge; version: number },
  base: { epoch: number; url: string; worker: string; crawl?: string },
  o: {
    config: WorkerCrawlConfig;
    links: LinkProcessor;
    warc: WorkerWarcFile | undefined;
    counts: { fetched: number };
  },
): Promise<OutcomeMessage> {
  const c = o.config;
  const processed = await processFetch(fetched, action, {
    judge: judged.judge,
    threshold: c.threshold,
    links: o.links,
    shouldFollowNofollow: c.shouldFollowNofollow,
    withLinkContext: c.withLinkContext,
    ...(c.linkContextWindow === undefined ? {} : { linkContextWindow: c.linkContextWindow }),
    shouldScoreAnchors: c.shouldScoreAnchors,
    parseTimeBudgetMs: c.parseTimeBudgetMs,
    isKnown: () => false,
  });
  processed.record.judgeVersion = judged.version;
  const warc = o.warc;
  const at =
    warc && processed.warc ? warc.append(processed.warc.warc, processed.record.probability) : undefined;
  o.counts.fetched++;
  return pageMessage(processed, base, at && warc ? { file: warc.path, ...at } : undefined);
}

/** Why a worker will not fetch `request` read from `shard` (scope, shard), or undefined. */
export function refusal(
  request: FetchRequest,
  shard: number,
  links: LinkProcessor,
  shards: number,
): FetchFailure | undefined {
  const skip = (code: string, message: string): FetchFailure => ({
    kind: 'skip',
    code,
    message,
    status: 0,
  });
  // A continued redirect chain is fetched from its last target, on this shard's host.
  const target = request.via?.at ?? request.url;
  let host: string;
  try {
    host = hostOf(target);
  } catch {
    return skip('TRES_URL_FILTERED', `not a URL: ${target}`);
  }
  // A sitemap request names an origin; each sitemap URL is checked as it is read.
  if (request.sitemaps === undefined && !links.isUrlAllowed(request.url))
    return skip('TRES_URL_FILTERED', `${request.url} is outside the crawl's scope`);
  const expectedHost = request.via === undefined ? request.host : host;
  if (host !== expectedHost || shardOf(host, shards) !== shard) {
    return skip('TRES_CLUSTER_WRONG_SHARD', `${target} was sent to shard ${shard}, not its host's`);
  }
  return undefined;
}

/** A thrown fetch error as the crawl loop would classify it. */
export function failureOf(error: unknown): FetchFailure {
  if (error instanceof ForeignHostError) {
    return { kind: 'skip', code: 'TRES_CLUSTER_FOREIGN_HOST', message: error.message, status: 0 };
  }
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  const status = (error as { context?: { status?: number } }).context?.status ?? 0;
  if (error instanceof DeferUrlError) {
    return {
      kind: 'defer',
      code,
      message,
      status,
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    };
  }
  if (error instanceof RetryLaterError) {
    return {
      kind: 'retry',
      code,
      message,
      status,
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    };
  }
  return { kind: 'skip', code, message, status };
}

function withoutHash(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}
