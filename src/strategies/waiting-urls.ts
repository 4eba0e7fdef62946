/**
 * The number of URLs waiting in a frontier whose own count holds stale samples (a URL queued
 * again with a better key, a URL a resume's replay observed without drawing it): URLs queued and
 * neither drawn nor observed. A strategy reports it as `frontier/size`, so a resumed crawl starts
 * with the frontier the stopped one ended with, and a finished crawl's figure is the URLs left.
 */
export class WaitingUrls {
  /** URLs drawn and not observed yet (in flight, or waiting for a retry). */
  private readonly drawn = new Set<string>();
  private count = 0;

  /** URLs queued and neither drawn nor observed. */
  get size(): number {
    return this.count;
  }

  /** A URL was queued for the first time. */
  queued(): void {
    this.count++;
  }

  /** `url` came out of the frontier to be fetched. */
  drew(url: string): void {
    if (this.drawn.has(url)) return;
    this.drawn.add(url);
    this.count--;
  }

  /**
   * `url` was fetched (or redirected to). `wasQueued`: it was queued and not observed before
   * (a replayed page, a redirect target found as a link), so it leaves the waiting URLs now.
   */
  observed(url: string, wasQueued: boolean): void {
    if (!this.drawn.delete(url) && wasQueued) this.count--;
  }
}
