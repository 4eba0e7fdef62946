/**
 * Addressing of a procedural synthetic web: page (host, internal index) <-> URL, the topic of a
 * page, a page's own random streams. Holds only the host table and the vocabulary.
 *
 * URLs: the home page (index 0) is `http://<host>/`; page i >= 1 is `http://<host>/p/<n>.html`
 * where n = permutation(i - 1) is a keyed bijection of [0, size - 1), so page numbers do not
 * reveal a page's topic block or its depth.
 */
import { createRng, type Rng } from '../../common/index.js';
import { type HostTable, MAX_BLOCKS } from './host-table.js';
import { IndexPermutation } from './permutation.js';
import type { SyntheticWebOptions } from './synthetic-options.js';
import type { Vocabulary } from './vocabulary.js';

/** A page of the web by host index and internal index. */
export interface PageRef {
  /** Host index (row of the host table). */
  host: number;
  /** Internal index on the host; 0 is the home page. */
  index: number;
}

const PAGE_PATH = /^\/p\/(0|[1-9]\d{0,9})\.html$/;

/** The addressing layer shared by link generation and rendering. */
export class WebModel {
  constructor(
    readonly options: SyntheticWebOptions,
    readonly vocabulary: Vocabulary,
    readonly table: HostTable,
  ) {}

  /** Number of hosts. */
  get hostCount(): number {
    return this.table.sizes.length;
  }

  /** Pages of host `h`, home page included. */
  sizeOf(h: number): number {
    return this.table.sizes[h] as number;
  }

  /** Global page id (0..pageCount-1) of a page. */
  globalId(h: number, index: number): number {
    return (this.table.offsets[h] as number) + index;
  }

  /** The page with this global id. */
  pageOfGlobalId(id: number): PageRef {
    const offsets = this.table.offsets;
    let lo = 0;
    let hi = this.hostCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((offsets[mid] as number) <= id) lo = mid;
      else hi = mid - 1;
    }
    return { host: lo, index: id - (offsets[lo] as number) };
  }

  /** Topic index of a page (a lookup in its host's topic blocks). */
  topicOf(h: number, index: number): number {
    const base = h * MAX_BLOCKS;
    for (let b = 0; b < MAX_BLOCKS; b++) {
      if (index < (this.table.blockEnd[base + b] as number)) return this.table.blockTopic[base + b] as number;
    }
    return this.table.mainTopic[h] as number;
  }

  /** Internal index range [start, end) of topic `t` on host `h`, or undefined if the host has none. */
  blockOf(h: number, t: number): [number, number] | undefined {
    const base = h * MAX_BLOCKS;
    let start = 0;
    for (let b = 0; b < MAX_BLOCKS; b++) {
      const topic = this.table.blockTopic[base + b] as number;
      if (topic < 0) return undefined;
      const end = this.table.blockEnd[base + b] as number;
      if (topic === t) return [start, end];
      start = end;
    }
    return undefined;
  }

  /** Topics present on host `h`, main topic first. */
  topicsOnHost(h: number): number[] {
    const topics: number[] = [];
    for (let b = 0; b < MAX_BLOCKS; b++) {
      const topic = this.table.blockTopic[h * MAX_BLOCKS + b] as number;
      if (topic < 0) break;
      topics.push(topic);
    }
    return topics;
  }

  /** The bijection page index - 1 -> page number n of `/p/<n>.html` on host `h`. */
  permutationOf(h: number): IndexPermutation {
    return new IndexPermutation(this.sizeOf(h) - 1, this.table.permutationKeys[h] as number);
  }

  /** URL path of a page: `/` or `/p/<n>.html`. */
  pathOf(h: number, index: number): string {
    return index === 0 ? '/' : `/p/${this.permutationOf(h).forward(index - 1)}.html`;
  }

  /** Absolute URL of a page. */
  urlOf(h: number, index: number): string {
    return `http://${this.table.names[h]}${this.pathOf(h, index)}`;
  }

  /** Internal index of a URL path on host `h` (query and fragment ignored), or undefined if no such page. */
  indexOfPath(h: number, path: string): number | undefined {
    const cut = path.search(/[?#]/);
    const bare = cut < 0 ? path : path.slice(0, cut);
    if (bare === '/') return 0;
    const match = PAGE_PATH.exec(bare);
    if (!match) return undefined;
    const n = Number(match[1]);
    if (n >= this.sizeOf(h) - 1) return undefined;
    return this.permutationOf(h).inverse(n) + 1;
  }

  /** The page an absolute http(s) URL names (port ignored), or undefined if it is not one of this web's. */
  locate(url: string): PageRef | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    const host = this.table.byName.get(parsed.hostname.toLowerCase());
    if (host === undefined) return undefined;
    const index = this.indexOfPath(host, parsed.pathname);
    return index === undefined ? undefined : { host, index };
  }

  /** A random stream private to one page and one purpose ('links', 'text', ...). */
  pageRng(h: number, index: number, stream: string): Rng {
    return createRng(`${this.options.seed}|${h}|${index}|${stream}`);
  }

  /** True if the page is a hub (many out-links, mostly to other hosts). */
  isHub(h: number, index: number): boolean {
    return index > 0 && this.pageRng(h, index, 'kind').next() < this.options.hubShare;
  }
}
