/**
 * The types of a synthetic web, apart from its generator (synthetic-web.ts) and its files
 * (synthetic-files.ts), so that neither of those two imports the other's types.
 */

import type { HandlerSite } from '../replay/index.js';
import type { HostTable } from './host-table.js';
import type { LinkTarget } from './page-links.js';
import type { SyntheticWebOptions } from './synthetic-options.js';
import type { PageRef } from './web-model.js';

/** Options of {@link materializeWeb}. */
export interface MaterializeOptions {
  /**
   * Also write every page as an HTML file. `'auto'` writes them when the web has at most
   * `maxPageFiles` pages.
   * @default 'auto'
   */
  writePages?: boolean | 'auto';
  /** Most pages written as files; more with `writePages: true` throws. @default 100_000 */
  maxPageFiles?: number;
}

/** One page of the ground truth. */
export interface PageLabel {
  url: string;
  isRelevant: boolean;
  topic: string;
}

/** A synthetic web: its hosts, pages, labels, and sites for the replay server. */
export interface SyntheticWeb {
  /** The options it was made from, defaults filled in (what `web.json` holds). */
  readonly options: Readonly<SyntheticWebOptions>;
  /** Hostnames, host 0 (the largest) first. */
  readonly hosts: readonly string[];
  /** Total pages, home pages included. */
  readonly pageCount: number;
  /** The host table (for statistics and benchmarks; do not modify). */
  readonly table: Readonly<HostTable>;
  /**
   * The page at `path` (query and fragment ignored) of `host`: 200 with its HTML, 404 with an
   * error page if the host exists but the page does not, undefined for an unknown host.
   */
  renderPage(host: string, path: string): { status: number; html: string } | undefined;
  /** True if the URL's page is relevant, false if not, undefined if it is not a page of this web. */
  labelOf(url: string): boolean | undefined;
  /** Topic name of the URL's page, undefined if it is not a page of this web. */
  topicOf(url: string): string | undefined;
  /** Host and internal index of the URL's page, undefined if it is not a page of this web. */
  locate(url: string): PageRef | undefined;
  /** Topic name of page (host index, internal index). */
  topicAt(host: number, index: number): string;
  /** The page with this global id (0..pageCount-1, host by host in table order). */
  pageAt(id: number): PageRef;
  /** True if the page is a hub (many out-links, mostly to other hosts). */
  isHub(host: number, index: number): boolean;
  /** URL of page (host index, internal index); index 0 is the home page. */
  urlOf(host: number, index: number): string;
  /** Out-links of a page, as the generator made them (the rendered page also links `/` from its header). */
  outLinks(host: number, index: number): LinkTarget[];
  /** Label of every page, host by host, home page first, then `/p/0.html`, `/p/1.html`, ... */
  labels(): Generator<PageLabel>;
  /**
   * `n` home-page URLs of distinct hosts, in a seeded order: of hosts whose main topic is the
   * relevant one (`relevant: true`), is not (`false`), or any (omitted). Fewer if too few hosts.
   */
  seedUrls(n: number, filter?: { relevant?: boolean }): string[];
  /** One handler site per host, for {@link startReplayServer}. */
  sites(): HandlerSite[];
  /** Approximate bytes held in memory: the host table and the vocabularies (pages are not held). */
  memoryBytes(): number;
  /** Streams `url\tlabel\ttopic` (label 1 or 0) for every page to `path`, after a header line. */
  writeLabels(path: string): Promise<number>;
  /** Writes `web.json`, `labels.tsv` and (small webs) the pages as files under `dir`. */
  materialize(dir: string, options?: MaterializeOptions): Promise<void>;
}
