/**
 * What the crawl loop tracks itself: fetches in flight, per URL, host and domain. Everything about
 * recorded fetches (fetched yet? pages of a domain? the counters) is read from the crawl store's
 * one tally, so a resumed crawl needs no second count rebuilt beside it.
 */
import type { CrawlCounters } from '../store/index.js';

/** The store's view of recorded fetches that the loop reads (a {@link CrawlStore}). */
export interface RecordedFetches {
  isFetched(url: string): boolean;
  isRedirectTarget(url: string): boolean;
  domainCount(domain: string): number;
  readonly counters: Readonly<CrawlCounters>;
}

export class CrawlState {
  private readonly inFlight = new Set<string>();
  private readonly inFlightHosts = new Map<string, number>();
  private readonly inFlightDomains = new Map<string, number>();
  /**
   * URLs waiting for a retry or a deferral. They count as known, as URLs in flight do: a link to
   * one found meanwhile must not queue it again, or the strategy fetches it and the retry then
   * records it a second time (the store refuses that and the crawl stops).
   */
  private readonly waiting = new Set<string>();

  constructor(private readonly recorded: RecordedFetches) {}

  /** The counters of recorded fetches (live). */
  get counters(): Readonly<CrawlCounters> {
    return this.recorded.counters;
  }

  /** True if `url` was requested, was a redirect target, is being fetched or waits for a retry. */
  isFetchedOrInFlight(url: string): boolean {
    return (
      this.inFlight.has(url) ||
      this.waiting.has(url) ||
      this.recorded.isFetched(url) ||
      this.recorded.isRedirectTarget(url)
    );
  }

  isHostBusy(host: string): boolean {
    return (this.inFlightHosts.get(host) ?? 0) > 0;
  }

  /** Pages fetched from `domain` (in flight excluded). */
  domainCount(domain: string): number {
    return this.recorded.domainCount(domain);
  }

  /** Pages fetched from `domain` plus fetches of it in flight. */
  domainLoad(domain: string): number {
    return this.recorded.domainCount(domain) + (this.inFlightDomains.get(domain) ?? 0);
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  start(url: string, host: string, domain: string): void {
    this.inFlight.add(url);
    bump(this.inFlightHosts, host, 1);
    bump(this.inFlightDomains, domain, 1);
  }

  finish(url: string, host: string, domain: string): void {
    this.inFlight.delete(url);
    bump(this.inFlightHosts, host, -1);
    bump(this.inFlightDomains, domain, -1);
  }

  /** `url` waits for a retry or a deferral (known until {@link unwait}). */
  wait(url: string): void {
    this.waiting.add(url);
  }

  /** `url` no longer waits: its retry starts (or is dropped). */
  unwait(url: string): void {
    this.waiting.delete(url);
  }
}

function bump(map: Map<string, number>, key: string, delta: number): void {
  const value = (map.get(key) ?? 0) + delta;
  if (value === 0) map.delete(key);
  else map.set(key, value);
}
