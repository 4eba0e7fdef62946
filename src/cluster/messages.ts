/**
 * What travels through Redis: the crawl's configuration for workers, fetch requests (one stream
 * entry each, on the stream of the host's shard) and outcomes (one entry each, on the outcome
 * stream). Stream entries are flat field/value lists; each message is one JSON field `m`, plus
 * the fields Redis-side code and readers need without parsing it.
 */
import { ConfigError } from '../common/index.js';
import type { ProcessedFetch, SitemapEvent, SitemapOptions } from '../crawl/index.js';
import type { WebClientOptions } from '../net/index.js';
import type { PageRecord } from '../store/index.js';
import type { Action, DiscoveredLink, LinkContextWindow, Outcome } from '../types/index.js';
import type { UrlFilterOptions } from '../url/index.js';

/**
 * Version of what travels through Redis (keys, messages, scripts). A worker refuses a crawl whose
 * configuration has another (a coordinator of another tres version).
 */
export const CLUSTER_PROTOCOL = 2;

/** Everything a worker needs to fetch, parse and judge pages of one crawl, as the coordinator set it. */
export interface WorkerCrawlConfig {
  /** {@link CLUSTER_PROTOCOL} of the coordinator that wrote it (absent: protocol 1). */
  protocol?: number;
  /**
   * Identity of the crawl, kept by a resume: outcomes of another crawl under the same name (a
   * worker still finishing a fetch for it) are dropped.
   */
  crawlId?: string;
  /** Coordinator run number; requests of other runs are stale. */
  epoch: number;
  shards: number;
  /** Network options (functions left out): politeness, timeouts, resolve rules, address guard. */
  net: WebClientOptions;
  siteMode: 'domain' | 'host';
  /** The crawl's scope; RegExp patterns travel as their source. */
  urlFilter: UrlFilterOptions;
  maxDepth: number | false;
  /**
   * The relevance judge: topic keywords, or a model folder. `isInRedis`: the coordinator put the
   * folder's files in Redis (`tres:<name>:judge:0`) and workers load them from there, so the
   * folder need not exist on their machines.
   */
  judge: { keywords: string[] } | { modelDir: string; isInRedis?: boolean };
  threshold: number;
  shouldFollowNofollow: boolean;
  withLinkContext: boolean;
  /** The part of each link's context to keep (the strategy's window); absent: all. */
  linkContextWindow?: LinkContextWindow;
  shouldScoreAnchors: boolean;
  parseTimeBudgetMs: number | false;
}

/** A fetch request: the action without the strategy's opaque `data` (which stays in the coordinator). */
export interface FetchRequest {
  epoch: number;
  url: string;
  host: string;
  domain: string;
  depth: number;
  parentUrl?: string;
  /**
   * The rest of a redirect chain that left another worker's shard: fetch `at` (a host of this
   * request's shard) for the action's `url`; `redirects` are the targets so far, `at` the last.
   */
  via?: { at: string; redirects: string[] };
  /** Not a page: read the sitemaps of the origin `url` (the crawl's `--sitemaps`). */
  sitemaps?: Required<SitemapOptions>;
}

/** Where a worker wrote a page's WARC records: its file (by worker) and the byte range. */
export interface WarcLocation {
  file: string;
  start: number;
  end: number;
}

/** A failed fetch, as the crawl loop would have seen the thrown error. */
export interface FetchFailure {
  /** Which error class: retry later, defer (never requested), skip (record and go on). */
  kind: 'retry' | 'defer' | 'skip';
  code: string;
  message: string;
  status: number;
  retryAfterMs?: number;
}

/** One outcome message: a processed page or a failure, for `url`, from `worker`. */
export interface OutcomeMessage {
  epoch: number;
  /** The crawl the worker fetched it for ({@link WorkerCrawlConfig.crawlId}). */
  crawl?: string;
  url: string;
  worker: string;
  page?: { record: PageRecord; outcome: Omit<Outcome, 'action'>; warcAt?: WarcLocation };
  failure?: FetchFailure;
  /**
   * The page redirected to `to`, on a host of a shard this worker does not hold: the coordinator
   * sends the rest of the chain to that shard. `redirects`: the targets so far, `to` the last.
   */
  moved?: { to: string; redirects: string[] };
  /** Sitemap reading of the origin `url`: page URLs found, a document read, or the end. */
  sitemap?: { urls?: string[]; event?: SitemapEvent; isDone?: boolean };
}

/** Request to stream fields; `extra` continues a redirect chain or asks for sitemaps. */
export function encodeRequest(
  action: Action,
  epoch: number,
  extra: Pick<FetchRequest, 'via' | 'sitemaps'> = {},
): string[] {
  const r: FetchRequest = {
    epoch,
    url: action.url,
    host: action.host,
    domain: action.domain,
    depth: action.depth,
    ...extra,
  };
  if (action.parentUrl !== undefined) r.parentUrl = action.parentUrl;
  return ['m', JSON.stringify(r)];
}

/** @throws ConfigError for an entry that is not a tres request (another program's stream). */
export function decodeRequest(fields: readonly string[]): FetchRequest {
  return JSON.parse(fieldOf(fields, 'm')) as FetchRequest;
}

/** Outcome to stream fields; link context offsets (Int8Array) travel as arrays. */
export function encodeOutcome(m: OutcomeMessage): string[] {
  return [
    'u',
    m.url,
    'm',
    JSON.stringify(m, (_k, v) => (v instanceof Int8Array ? { i8: Array.from(v) } : v)),
  ];
}

/** @throws ConfigError for an entry that is not a tres outcome. */
export function decodeOutcome(fields: readonly string[]): OutcomeMessage {
  return JSON.parse(fieldOf(fields, 'm'), (_k, v) =>
    v !== null && typeof v === 'object' && Array.isArray((v as { i8?: unknown }).i8)
      ? Int8Array.from((v as { i8: number[] }).i8)
      : v,
  ) as OutcomeMessage;
}

/** A worker's processed page as an outcome message (the page text travels for the learner). */
export function pageMessage(
  processed: ProcessedFetch,
  base: { epoch: number; url: string; worker: string; crawl?: string },
  warcAt: WarcLocation | undefined,
): OutcomeMessage {
  const { action: _action, ...outcome } = processed.outcome;
  // record.outlinks is outcome.links (one array): send it once.
  const { outlinks: _outlinks, ...record } = processed.record;
  return {
    ...base,
    page: { record: record as PageRecord, outcome, ...(warcAt === undefined ? {} : { warcAt }) },
  };
}

/** Back from a message: the record and outcome the crawl loop commits, for `action`. */
export function toProcessed(
  page: NonNullable<OutcomeMessage['page']>,
  action: Action,
  keepLink: (link: DiscoveredLink) => boolean,
): { record: PageRecord; outcome: Outcome } {
  const links = page.outcome.links.filter(keepLink);
  const record: PageRecord = { ...page.record, outlinks: links };
  if (page.warcAt !== undefined) record.warcAt = page.warcAt;
  return { record, outcome: { ...page.outcome, action, links } };
}

function fieldOf(fields: readonly string[], name: string): string {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1] as string;
  throw new ConfigError(`a stream entry without field "${name}": not written by tres`, {
    context: { field: name },
  });
}
