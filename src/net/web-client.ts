/**
 * The web as the crawl loop sees it: fetch a page politely, following redirects one hop at a
 * time, each hop checked like a new URL (scheme, URL filter, address guard, robots.txt) and
 * scheduled by per-host politeness. Composes {@link Fetcher}, {@link RobotsTxtCache} and
 * {@link Politeness}; robots.txt requests go through the same politeness as pages.
 */
import { isIP } from 'node:net';
import {
  type Clock,
  ConfigError,
  DeferUrlError,
  RetryLaterError,
  SkipUrlError,
  systemClock,
} from '../common/index.js';
import { type FetchResult, parseHttpUrl } from './fetch-result.js';
import {
  DEFAULT_FETCHER_OPTIONS,
  Fetcher,
  type FetcherOptions,
  type FetchRequestOptions,
} from './fetcher.js';
import { toFetchError } from './http-errors.js';
import { checkNumber, withDefaults } from './option-checks.js';
import { DEFAULT_POLITENESS_OPTIONS, Politeness, type PolitenessOptions } from './politeness.js';
import { DEFAULT_ROBOTS_TXT_OPTIONS, RobotsTxtCache, type RobotsTxtOptions } from './robots-txt.js';

/** Options of {@link WebClient}: those of its parts, plus redirects and a URL filter. */
export interface WebClientOptions extends FetcherOptions, RobotsTxtOptions, PolitenessOptions {
  /** Redirects followed per page; one more is TRES_TOO_MANY_REDIRECTS. @default 5 */
  maxRedirects?: number;
  /**
   * Filter applied to every hop, redirect targets included (scope, URL patterns); a URL it
   * rejects is skipped with TRES_URL_FILTERED. @default undefined (every URL)
   */
  isUrlAllowed?: (url: string) => boolean;
  /**
   * Called right before each request leaves (every page hop and robots.txt request), once the
   * host's politeness slot is taken; what it throws ends that fetch as thrown. A cluster worker
   * confirms its lease on the host's shard here (fencing). @default undefined (no check)
   */
  beforeRequest?: (url: string) => Promise<void>;
}

/** Defaults of {@link WebClientOptions} (every field but the two functions). */
export const DEFAULT_WEB_CLIENT_OPTIONS: Readonly<
  Required<Omit<WebClientOptions, 'isUrlAllowed' | 'beforeRequest'>>
> = Object.freeze({
  ...DEFAULT_FETCHER_OPTIONS,
  ...DEFAULT_ROBOTS_TXT_OPTIONS,
  ...DEFAULT_POLITENESS_OPTIONS,
  maxRedirects: 5,
});

/** A page fetched with its redirect chain. */
export interface PageFetch {
  /** The URL the loop asked for. */
  requestedUrl: string;
  /** The URL of the last hop (equal to requestedUrl without redirects). */
  finalUrl: string;
  /** Redirect targets in order (absolute URLs); empty without redirects. */
  redirects: string[];
  /** Every hop's result in order (3xx hops included), e.g. for WARC records. */
  hops: FetchResult[];
  /** The last hop's result. */
  result: FetchResult;
}

/** Options of {@link WebClient.fetchPage}. */
export interface FetchPageOptions {
  /** Aborts waiting and fetching; its reason is thrown as is. */
  signal?: AbortSignal;
  /**
   * This fetch's URL filter instead of the client's (sitemaps: `.xml.gz` is no page link;
   * a rendering browser's scripts). Scheme, address guard and robots.txt still apply.
   * @default the client's `isUrlAllowed`
   */
  isUrlAllowed?: (url: string) => boolean;
  /** Media types read for this fetch; false reads any type. @default the fetcher's */
  allowedContentTypes?: readonly string[] | false;
  /** Cap on body bytes for this fetch. @default the fetcher's `maxBodyBytes` */
  maxBodyBytes?: number;
  /**
   * Whether to follow a redirect to `url` here. One it refuses ends the chain: the 3xx hop comes
   * back as the result (its `location` the refused target), for the caller to continue elsewhere
   * (a cluster worker hands the rest of the chain to the worker owning the target's host).
   * Loops and too many redirects are refused first, as usual.
   * @default undefined (follow every redirect)
   */
  shouldFollow?: (url: string) => boolean;
}

function withoutHash(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}

/** Fetches pages politely. Call {@link WebClient.close} when done. */
export class WebClient {
  /** The single-hop fetcher (its options, guard and resolve rules). */
  readonly fetcher: Fetcher;
  /** The robots.txt cache (e.g. for `sitemaps(origin)`). */
  readonly robots: RobotsTxtCache;
  /** The per-host scheduler. */
  readonly politeness: Politeness;
  private readonly maxRedirects: number;
  private readonly isUrlAllowed: ((url: string) => boolean) | undefined;
  private readonly beforeRequest: ((url: string) => Promise<void>) | undefined;

  /**
   * `deps.onWarning` receives one line when a condition needs the operator (the system out of
   * file descriptors).
   * @throws ConfigError naming the first bad option.
   */
  constructor(
    options: WebClientOptions = {},
    deps: { clock?: Clock; onWarning?: (message: string) => void } = {},
  ) {
    const clock = deps.clock ?? systemClock;
    const maxRedirects = options.maxRedirects ?? DEFAULT_WEB_CLIENT_OPTIONS.maxRedirects;
    checkNumber('WebClient', 'maxRedirects', maxRedirects, 0, true);
    if (options.isUrlAllowed !== undefined && typeof options.isUrlAllowed !== 'function') {
      throw new ConfigError('WebClient option isUrlAllowed must be a function (url) => boolean', {
        context: { field: 'isUrlAllowed' },
      });
    }
    this.maxRedirects = maxRedirects;
    this.isUrlAllowed = options.isUrlAllowed;
    this.beforeRequest = options.beforeRequest;
    this.fetcher = new Fetcher(withDefaults<FetcherOptions>(DEFAULT_FETCHER_OPTIONS, options), {
      clock,
      ...(deps.onWarning ? { onWarning: deps.onWarning } : {}),
    });
    this.politeness = new Politeness(withDefaults<PolitenessOptions>(DEFAULT_POLITENESS_OPTIONS, options), {
      clock,
    });
    this.robots = new RobotsTxtCache(
      (url, request) => this.politeFetch(url, request),
      withDefaults<RobotsTxtOptions>(DEFAULT_ROBOTS_TXT_OPTIONS, options),
      { clock },
    );
  }

  /** True when a request to `host` (a URL's hostname) may start now. */
  isHostReady(host: string): boolean {
    return this.politeness.isHostReady(host);
  }

  /** Monotonic time (clock.monotonicMs) from which `host` is ready; Infinity while it is busy. */
  nextReadyAtMs(host: string): number {
    return this.politeness.nextReadyAtMs(host);
  }

  /**
   * Fetches `url`, following up to `maxRedirects` redirects one hop at a time. Waits for each
   * hop's host to be ready (the loop should call only when the first host is ready).
   * @returns the chain and the last hop's result (2xx, 4xx, or a 3xx without Location).
   * @throws SkipUrlError `TRES_ROBOTS_DISALLOWED`, `TRES_URL_FILTERED`, `TRES_REDIRECT_LOOP`,
   *   `TRES_TOO_MANY_REDIRECTS`, `TRES_ADDRESS_BLOCKED`, `TRES_UNSUPPORTED_SCHEME` and the
   *   fetcher's skips; DeferUrlError `TRES_ROBOTS_UNAVAILABLE` (robots.txt unreachable, with
   *   `retryAfterMs`) and the fetcher's retryable failures. 429/5xx with Retry-After also push
   *   the host's next slot back.
   * @throws the signal's reason when aborted.
   */
  async fetchPage(url: string, options: FetchPageOptions = {}): Promise<PageFetch> {
    const hops: FetchResult[] = [];
    const redirects: string[] = [];
    const seen = new Set<string>();
    let current = url;
    for (;;) {
      seen.add(withoutHash(current));
      const result = await this.fetchHop(current, options);
      hops.push(result);
      const next = result.status >= 300 && result.status < 400 ? result.location : undefined;
      if (next === undefined) return { requestedUrl: url, finalUrl: current, redirects, hops, result };
      const context = {
        url: current,
        host: new URL(current).hostname,
        status: result.status,
        requestedUrl: url,
      };
      if (seen.has(withoutHash(next))) {
        throw new SkipUrlError('TRES_REDIRECT_LOOP', `Redirect loop: ${current} -> ${next} (from ${url})`, {
          context: { ...context, redirects: [...redirects, next] },
        });
      }
      if (redirects.length >= this.maxRedirects) {
        throw new SkipUrlError(
          'TRES_TOO_MANY_REDIRECTS',
          `More than ${this.maxRedirects} redirects from ${url}`,
          {
            context: { ...context, redirects: [...redirects, next] },
          },
        );
      }
      if (options.shouldFollow && !options.shouldFollow(next))
        return { requestedUrl: url, finalUrl: current, redirects, hops, result };
      redirects.push(next);
      current = next;
    }
  }

  /** Closes all connections after in-flight requests finish. */
  async close(): Promise<void> {
    await this.fetcher.close();
  }

  /** One hop checked like a new URL: scheme, filter, literal address, robots.txt; then fetched politely. */
  private async fetchHop(url: string, options: FetchPageOptions): Promise<FetchResult> {
    const parsed = parseHttpUrl(url);
    const host = parsed.hostname;
    const context = { url, host };
    const isUrlAllowed = options.isUrlAllowed ?? this.isUrlAllowed;
    if (isUrlAllowed && !isUrlAllowed(url)) {
      throw new SkipUrlError('TRES_URL_FILTERED', `URL filter rejected ${url}`, { context });
    }
    const literal = host.replace(/^\[|\]$/g, '');
    if (isIP(literal) !== 0 && !this.fetcher.resolveRules.match(literal)) {
      // Refuse before robots.txt is even requested from such an address.
      try {
        this.fetcher.guard.check(literal, host);
      } catch (error) {
        throw toFetchError(error, context);
      }
    }
    const decision = await this.robots.isAllowed(url).catch((error: unknown) => {
      if (!(error instanceof SkipUrlError)) throw error;
      // robots.txt could not be fetched for a reason the page shares (DNS, guard, TLS).
      throw new SkipUrlError(error.code, `${error.message}; needed for ${url}`, { cause: error, context });
    });
    if (decision.isUnavailable) {
      const retryAfterMs = decision.retryAfterMs;
      if (retryAfterMs !== undefined) this.politeness.retryAfter(host, retryAfterMs);
      // An origin that never answered is tried as a page of a dead host would be: a few retries,
      // then a failed fetch the strategy learns from. Deferred for as long as it stays
      // unreachable, the URLs of every dead host a crawl finds would take its time (their
      // robots.txt tried again and again) and give no outcome to learn from.
      if (decision.hasAnswered !== true) {
        throw new RetryLaterError(
          'TRES_ROBOTS_UNAVAILABLE',
          `robots.txt of ${parsed.origin} is unreachable and the host has never answered; ${url} is retried as a failed fetch`,
          { context, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) },
        );
      }
      throw new DeferUrlError(
        'TRES_ROBOTS_UNAVAILABLE',
        `robots.txt of ${parsed.origin} is unreachable; ${url} waits`,
        {
          context,
          retryAfterMs,
        },
      );
    }
    if (!decision.isAllowed) {
      throw new SkipUrlError('TRES_ROBOTS_DISALLOWED', `robots.txt disallows ${url}`, { context });
    }
    this.politeness.setCrawlDelay(host, decision.crawlDelayMs);
    const { signal, allowedContentTypes, maxBodyBytes } = options;
    return this.politeFetch(url, {
      ...(signal === undefined ? {} : { signal }),
      ...(allowedContentTypes === undefined ? {} : { allowedContentTypes }),
      ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
    });
  }

  /** Fetches one hop inside the host's politeness slot. */
  private async politeFetch(url: string, request: FetchRequestOptions): Promise<FetchResult> {
    const host = parseHttpUrl(url).hostname;
    await this.politeness.acquireWhenReady(host, request.signal);
    try {
      if (this.beforeRequest) await this.beforeRequest(url);
      return await this.fetcher.fetch(url, request);
    } catch (error) {
      if (error instanceof RetryLaterError && error.retryAfterMs !== undefined) {
        this.politeness.retryAfter(host, error.retryAfterMs);
      }
      throw error;
    } finally {
      this.politeness.release(host);
    }
  }
}
