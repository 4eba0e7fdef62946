/**
 * The links of skipped pages that Lim's crawler keeps aside until its stack runs empty (see
 * ./lim-strategy.ts), stored compactly (bytes per frontier URL): the kept links only
 * ever leave as a whole page, last page first, so they are a stack of columns (URL string,
 * interned host and domain ids, depth; about 20 bytes plus the URL string a link), not the
 * parser's link objects with their anchor texts.
 */
import type { SampleInput } from '../../frontier/index.js';
import { StringIds } from '../../frontier/index.js';
import type { DiscoveredLink } from '../../types/index.js';

/** A stack of skipped pages, each with its links in page order. */
export class KeptLinks {
  private readonly hosts = new StringIds();
  private readonly domains = new StringIds();
  /** The kept links, page after page: URL, host id, domain id and depth. */
  private readonly urls: string[] = [];
  private hostIds = new Int32Array(1024);
  private domainIds = new Int32Array(1024);
  private depths = new Int32Array(1024);
  /** Start of each kept page's links, and the page's URL. */
  private readonly starts: number[] = [];
  private readonly parentUrls: string[] = [];

  /** Number of kept pages. */
  get length(): number {
    return this.starts.length;
  }

  /** Number of kept links, over all kept pages. */
  get linkCount(): number {
    return this.urls.length;
  }

  /** Keeps a skipped page's links (nothing if it has none). */
  push(parentUrl: string, links: readonly DiscoveredLink[]): void {
    if (links.length === 0) return;
    const start = this.urls.length;
    if (start + links.length > this.hostIds.length) this.grow(Math.ceil((start + links.length) * 1.5));
    this.starts.push(start);
    this.parentUrls.push(parentUrl);
    let i = start;
    for (const link of links) {
      this.urls.push(link.url);
      this.hostIds[i] = this.hosts.intern(link.host);
      this.domainIds[i] = this.domains.intern(link.domain);
      this.depths[i] = link.depth;
      i++;
    }
  }

  /** The most recently kept page and its links in page order, removed from the stack. */
  pop(): { parentUrl: string; links: SampleInput[] } | undefined {
    const start = this.starts.pop();
    if (start === undefined) return undefined;
    const parentUrl = this.parentUrls.pop() as string;
    const links: SampleInput[] = [];
    for (let i = start; i < this.urls.length; i++) {
      links.push({
        url: this.urls[i] as string,
        host: this.hosts.string(this.hostIds[i] as number),
        domain: this.domains.string(this.domainIds[i] as number),
        depth: this.depths[i] as number,
      });
    }
    this.urls.length = start;
    return { parentUrl, links };
  }

  private grow(n: number): void {
    for (const key of ['hostIds', 'domainIds', 'depths'] as const) {
      const a = new Int32Array(n);
      a.set(this[key]);
      this[key] = a;
    }
  }
}
