/**
 * robots.txt per origin (scheme, host, port: RFC 9309 section 2.3), cached, parsed and matched
 * by `robots-rules.ts` (linear in the path for any pattern). How a fetch outcome maps to rules (RFC 9309 section 2.3.1):
 * - 2xx: the rules are parsed (the first 500 KiB; section 2.5) and cached for `cacheTtlMs`;
 * - redirects are followed up to 5 hops (2.3.1.2); more count as unavailable -> allow all;
 * - 4xx (404 included): "unavailable", everything is allowed;
 * - 429, 5xx, timeouts, connection failures: "unreachable", everything is disallowed for
 *   now (2.3.1.4) and robots.txt is fetched again after `errorTtlMs`, doubling with each failure
 *   in a row up to `maxErrorTtlMs`. Callers get `isUnavailable` and a `retryAfterMs` so the URL
 *   waits instead of being dropped, and `hasAnswered`: whether the origin ever answered with an
 *   HTTP response (a server that is up and asks to wait) or never did (refused, reset, timed
 *   out: as often as not a dead host). Once the origin has been unreachable for
 *   `maxUnreachableMs` its URLs fail with `TRES_ROBOTS_UNAVAILABLE` (a SkipUrlError) until
 *   `cacheTtlMs` passes;
 * - a failure no retry will cure (unknown host, refused address) is cached and re-thrown.
 * Concurrent lookups for one origin share one fetch.
 */
import { type Clock, SkipUrlError, systemClock, TresError } from '../common/index.js';
import { type FetchResult, parseHttpUrl } from './fetch-result.js';
import type { FetchRequestOptions } from './fetcher.js';
import { checkBoolean, checkNumber, withDefaults } from './option-checks.js';
import { decidingRule, groupFor, parseRobotsTxt, type RobotsRules } from './robots-rules.js';

/** Options of {@link RobotsTxtCache}. */
export interface RobotsTxtOptions {
  /** Obey robots.txt. With false every URL is allowed and nothing is fetched. @default true */
  respectRobotsTxt?: boolean;
  /** Product token matched against User-agent lines (RFC 9309 2.2.1). @default 'tres' */
  userAgentToken?: string;
  /** How long parsed rules (and 4xx "allow all") are kept, in ms. @default 86_400_000 (24 h) */
  cacheTtlMs?: number;
  /**
   * How long an unreachable robots.txt (429, 5xx, timeout, reset) disallows its origin before the
   * first new try, in ms; doubles with each failure in a row. @default 30_000
   */
  errorTtlMs?: number;
  /** Cap on the doubled wait between two tries of an unreachable robots.txt, in ms. @default 600_000 */
  maxErrorTtlMs?: number;
  /**
   * How long an origin's robots.txt may stay unreachable before its URLs are given up
   * (`TRES_ROBOTS_UNAVAILABLE`), in ms; `false` waits as long as the crawl runs. @default 3_600_000
   */
  maxUnreachableMs?: number | false;
  /** Bytes of robots.txt parsed; the rest is ignored (RFC 9309 2.5 asks for at least 500 KiB). @default 512_000 */
  maxRobotsBytes?: number;
  /** Redirect hops followed when fetching robots.txt. @default 5 */
  maxRobotsRedirects?: number;
  /**
   * Origins whose robots.txt was read (rules, or none: allow all) kept in the cache; the least
   * recently fetched is dropped first. @default 10_000
   */
  maxCachedOrigins?: number;
  /**
   * Origins whose robots.txt could not be read (unreachable, or failed) kept apart from those
   * read, so that failing origins never push a read one out, and an origin keeps its streak of
   * failures (the wait between tries doubles, and it is given up after `maxUnreachableMs`) while
   * many others fail too; the least recently fetched is dropped first. @default 100_000
   */
  maxFailedOrigins?: number;
}

/** Defaults of {@link RobotsTxtOptions}. */
export const DEFAULT_ROBOTS_TXT_OPTIONS: Readonly<Required<RobotsTxtOptions>> = Object.freeze({
  respectRobotsTxt: true,
  userAgentToken: 'tres',
  cacheTtlMs: 86_400_000,
  errorTtlMs: 30_000,
  maxErrorTtlMs: 600_000,
  maxUnreachableMs: 3_600_000,
  maxRobotsBytes: 512_000,
  maxRobotsRedirects: 5,
  maxCachedOrigins: 10_000,
  maxFailedOrigins: 100_000,
});

/** How robots.txt fetches are made: one hop, no redirects followed (a Fetcher's `fetch`). */
export type RobotsFetch = (url: string, options: FetchRequestOptions) => Promise<FetchResult>;

/** What robots.txt says about one URL. */
export interface RobotsDecision {
  /** May the URL be fetched? */
  isAllowed: boolean;
  /** Crawl-delay for our token (else `*`), in ms; undefined when not given. */
  crawlDelayMs?: number;
  /** True when robots.txt could not be fetched (5xx, 429, network): all disallowed for now. */
  isUnavailable: boolean;
  /** With `isUnavailable`: ms until robots.txt is fetched again. */
  retryAfterMs?: number;
  /**
   * With `isUnavailable`: the origin has answered an HTTP request for its robots.txt (now with a
   * 429 or 5xx, or earlier in the crawl); false when no request to it ever got a response.
   */
  hasAnswered?: boolean;
}

interface Entry {
  kind: 'rules' | 'allow-all' | 'unreachable' | 'failed';
  robot?: RobotsRules;
  error?: TresError;
  expiresAtMs: number;
  /** 'unreachable': failures in a row, and when the first of them happened (monotonic ms). */
  failures?: number;
  unreachableSinceMs?: number;
  /** 'unreachable': an HTTP response came from the origin, in this failure or an earlier fetch. */
  hasAnswered?: boolean;
}

function validate(o: Required<RobotsTxtOptions>): void {
  const c = 'RobotsTxt';
  checkBoolean(c, 'respectRobotsTxt', o.respectRobotsTxt);
  if (typeof o.userAgentToken !== 'string' || !/^[a-zA-Z_-]+$/.test(o.userAgentToken)) {
    checkNumber(c, 'userAgentToken (letters, "_" and "-" only)', o.userAgentToken, Number.NaN);
  }
  checkNumber(c, 'cacheTtlMs', o.cacheTtlMs, 1);
  checkNumber(c, 'errorTtlMs', o.errorTtlMs, 1);
  checkNumber(c, 'maxErrorTtlMs', o.maxErrorTtlMs, o.errorTtlMs);
  if (o.maxUnreachableMs !== false) checkNumber(c, 'maxUnreachableMs (or false)', o.maxUnreachableMs, 0);
  checkNumber(c, 'maxRobotsBytes', o.maxRobotsBytes, 1, true);
  checkNumber(c, 'maxRobotsRedirects', o.maxRobotsRedirects, 0, true);
  checkNumber(c, 'maxCachedOrigins', o.maxCachedOrigins, 1, true);
  checkNumber(c, 'maxFailedOrigins', o.maxFailedOrigins, 1, true);
}

/** Per-origin robots.txt cache. */
export class RobotsTxtCache {
  /** The options in effect (defaults filled in). */
  readonly options: Readonly<Required<RobotsTxtOptions>>;
  private readonly clock: Clock;
  /** Origins whose robots.txt was read ('rules', 'allow-all'), in the order fetched. */
  private readonly entries = new Map<string, Entry>();
  /** Origins whose robots.txt could not be read ('unreachable', 'failed'), in the order fetched. */
  private readonly failed = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<Entry>>();

  /** @throws ConfigError naming the first bad option. */
  constructor(
    private readonly fetch: RobotsFetch,
    options: RobotsTxtOptions = {},
    deps: { clock?: Clock } = {},
  ) {
    const merged = withDefaults<Required<RobotsTxtOptions>>(DEFAULT_ROBOTS_TXT_OPTIONS, options);
    validate(merged);
    this.options = merged;
    this.clock = deps.clock ?? systemClock;
  }

  /** Number of origins cached. */
  get size(): number {
    return this.entries.size + this.failed.size;
  }

  /**
   * What robots.txt says about `url`, fetching it first when not cached or expired.
   * @throws SkipUrlError for an invalid URL, and the cached SkipUrlError of a robots.txt fetch
   *   that no retry will cure (`TRES_DNS`, `TRES_ADDRESS_BLOCKED`, `TRES_TLS`, ...).
   */
  async isAllowed(url: string): Promise<RobotsDecision> {
    if (!this.options.respectRobotsTxt) return { isAllowed: true, isUnavailable: false };
    const parsed = parseHttpUrl(url);
    const entry = await this.entryFor(parsed.origin);
    switch (entry.kind) {
      case 'allow-all':
        return { isAllowed: true, isUnavailable: false };
      case 'unreachable':
        return {
          isAllowed: false,
          isUnavailable: true,
          retryAfterMs: Math.max(0, entry.expiresAtMs - this.clock.monotonicMs()),
          hasAnswered: entry.hasAnswered === true,
        };
      case 'failed':
        throw entry.error;
      default: {
        const group = groupFor(entry.robot as RobotsRules, this.options.userAgentToken);
        const rule = decidingRule(group, parsed.pathname + parsed.search);
        const isAllowed = rule === undefined || rule.isAllow;
        const delaySeconds = group?.crawlDelaySeconds;
        const crawlDelayMs =
          typeof delaySeconds === 'number' && delaySeconds > 0 ? Math.round(delaySeconds * 1000) : undefined;
        return crawlDelayMs === undefined
          ? { isAllowed, isUnavailable: false }
          : { isAllowed, crawlDelayMs, isUnavailable: false };
      }
    }
  }

  /** Sitemap URLs listed in the robots.txt of `origin` (e.g. `https://example.org`). */
  async sitemaps(origin: string): Promise<string[]> {
    if (!this.options.respectRobotsTxt) return [];
    const entry = await this.entryFor(parseHttpUrl(origin).origin);
    return entry.robot ? [...entry.robot.sitemaps] : [];
  }

  /** Forgets every cached origin. */
  clear(): void {
    this.entries.clear();
    this.failed.clear();
  }

  /** Origins whose robots.txt is being fetched now (a crawl's pages of them wait for it). */
  pendingOrigins(): string[] {
    return [...this.inFlight.keys()];
  }

  private async entryFor(origin: string): Promise<Entry> {
    const cached = this.entries.get(origin) ?? this.failed.get(origin);
    if (cached && cached.expiresAtMs > this.clock.monotonicMs()) return cached;
    let pending = this.inFlight.get(origin);
    if (!pending) {
      pending = this.load(origin).finally(() => this.inFlight.delete(origin));
      this.inFlight.set(origin, pending);
    }
    return pending;
  }

  private async load(origin: string): Promise<Entry> {
    const robotsUrl = `${origin}/robots.txt`;
    const previous = this.entries.get(origin) ?? this.failed.get(origin);
    let entry = await this.download(robotsUrl);
    if (entry.kind === 'unreachable') entry = this.unreachable(robotsUrl, entry, previous);
    this.entries.delete(origin);
    this.failed.delete(origin);
    const isRead = entry.kind === 'rules' || entry.kind === 'allow-all';
    const cache = isRead ? this.entries : this.failed;
    cache.set(origin, entry);
    if (cache.size > (isRead ? this.options.maxCachedOrigins : this.options.maxFailedOrigins)) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    return entry;
  }

  /**
   * A new failure to reach robots.txt (`failure`), after `previous`: wait longer, or give up past
   * the limit.
   */
  private unreachable(robotsUrl: string, failure: Entry, previous: Entry | undefined): Entry {
    const { errorTtlMs, maxErrorTtlMs, maxUnreachableMs, cacheTtlMs } = this.options;
    const now = this.clock.monotonicMs();
    const isStreak = previous?.kind === 'unreachable';
    const failures = isStreak ? (previous.failures ?? 1) + 1 : 1;
    const sinceMs = isStreak ? (previous.unreachableSinceMs ?? now) : now;
    if (maxUnreachableMs !== false && now - sinceMs >= maxUnreachableMs) {
      const minutes = Math.round((now - sinceMs) / 60_000);
      const error = new SkipUrlError(
        'TRES_ROBOTS_UNAVAILABLE',
        `${robotsUrl} stayed unreachable for ${minutes} min (${failures} tries); its origin is given up`,
        { context: { url: robotsUrl } },
      );
      return { kind: 'failed', error, expiresAtMs: now + cacheTtlMs };
    }
    const waitMs = Math.min(maxErrorTtlMs, errorTtlMs * 2 ** (failures - 1));
    const hasAnswered =
      failure.hasAnswered === true ||
      previous?.kind === 'rules' ||
      previous?.kind === 'allow-all' ||
      (isStreak && previous.hasAnswered === true);
    return {
      kind: 'unreachable',
      expiresAtMs: now + waitMs,
      failures,
      unreachableSinceMs: sinceMs,
      hasAnswered,
    };
  }

  private async download(robotsUrl: string): Promise<Entry> {
    const { cacheTtlMs, errorTtlMs, maxRobotsBytes, maxRobotsRedirects } = this.options;
    const until = (ms: number) => this.clock.monotonicMs() + ms;
    let url = robotsUrl;
    for (let hop = 0; hop <= maxRobotsRedirects; hop++) {
      let result: FetchResult;
      try {
        parseHttpUrl(url);
        result = await this.fetch(url, {
          allowedContentTypes: false,
          maxBodyBytes: maxRobotsBytes,
          shouldTruncateBody: true,
        });
      } catch (error) {
        if (error instanceof SkipUrlError) {
          // A redirect to somewhere unusable means there is no robots.txt to follow.
          if (hop > 0) return { kind: 'allow-all', expiresAtMs: until(cacheTtlMs) };
          return { kind: 'failed', error, expiresAtMs: until(errorTtlMs) };
        }
        if (error instanceof TresError) {
          // 429 and 5xx are answers: the server is there and asks to wait.
          const hasAnswered = error.code === 'TRES_HTTP_429' || error.code === 'TRES_HTTP_5XX';
          return { kind: 'unreachable', expiresAtMs: until(errorTtlMs), hasAnswered };
        }
        throw error;
      }
      if (result.status >= 300 && result.status < 400 && result.location) {
        url = result.location;
        continue;
      }
      if (result.status >= 200 && result.status < 300) {
        // Rules apply to the origin asked about, wherever the file was served from.
        const text = result.text ?? result.body.toString('utf8');
        return { kind: 'rules', robot: parseRobotsTxt(text), expiresAtMs: until(cacheTtlMs) };
      }
      return { kind: 'allow-all', expiresAtMs: until(cacheTtlMs) };
    }
    return { kind: 'allow-all', expiresAtMs: until(cacheTtlMs) };
  }
}
