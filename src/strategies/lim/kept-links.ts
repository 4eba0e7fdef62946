/**
 * The links of skipped pages that Lim's crawler keeps aside until its stack runs empty (see
 * ./lim-strategy.ts), stored compactly (issue 13: at most 300 bytes per frontier URL): a link is
 * an id into a {@link SampleTable} (URL string, interned host and domain, depth), not the
 * parser's link object with its anchor text, and a page is a run of ids on one stack.
 */

import type { SampleInput } from '../../frontier/sample-table.js';
import { SampleTable } from '../../frontier/sample-table.js';
import type { DiscoveredLink } from '../strategy.js';

/** A stack of skipped pages, each with its links in page order. */
export class KeptLinks {
  private readonly table = new SampleTable({ isUrlIndexed: false });
  /** Link ids of every kept page, page after page. */
  private ids = new Int32Array(1024);
  private idCount = 0;
  /** Start of each kept page's ids in `ids`, and the page's URL. */
  private readonly starts: number[] = [];
  private readonly parentUrls: string[] = [];

  /** Number of kept pages. */
  get length(): number {
    return this.starts.length;
  }

  /** Keeps a skipped page's links (nothing if it has none). */
  push(parentUrl: string, links: readonly DiscoveredLink[]): void {
    if (links.length === 0) return;
    if (this.idCount + links.length > this.ids.length) {
      const ids = new Int32Array(Math.ceil((this.idCount + links.length) * 1.5));
      ids.set(this.ids.subarray(0, this.idCount));
      this.ids = ids;
    }
    this.starts.push(this.idCount);
    this.parentUrls.push(parentUrl);
    for (const link of links) this.ids[this.idCount++] = this.table.add(link, 0);
  }

  /** The most recently kept page and its links in page order, removed from the stack. */
  pop(): { parentUrl: string; links: SampleInput[] } | undefined {
    const start = this.starts.pop();
    if (start === undefined) return undefined;
    const parentUrl = this.parentUrls.pop() as string;
    const t = this.table;
    const links: SampleInput[] = [];
    for (let i = start; i < this.idCount; i++) {
      const id = this.ids[i] as number;
      links.push({ url: t.url(id), host: t.host(id), domain: t.domain(id), depth: t.depth(id) });
      t.remove(id);
    }
    this.idCount = start;
    return { parentUrl, links };
  }
}
