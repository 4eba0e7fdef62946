/**
 * Shared pieces of the fault sites: their options and the index page each one serves at `/`.
 */
import type { ServerResponse } from 'node:http';
import type { HandlerSite, SiteHandler } from '../replay/index.js';
import { escapeHtml, htmlDocument, sendHtml } from '../replay/index.js';

/** Options of {@link faultSites}; sizes are small enough by default for tests to use as-is. */
export interface FaultSitesOptions {
  /** Delay in milliseconds of `slow.fault.test/page` when the URL has no `?ms=`. @default 3000 */
  defaultSlowMs?: number;
  /** Largest delay in milliseconds `?ms=` may ask for (larger values are clamped). @default 60_000 */
  maxSlowMs?: number;
  /** Milliseconds between two bytes of `stall-body.fault.test`. @default 2000 */
  dripIntervalMs?: number;
  /** Body size in bytes of the pages of `huge.fault.test`. @default 50 MiB (52_428_800) */
  hugeBodyBytes?: number;
  /** Decompressed size in bytes of `bomb.fault.test/bomb.html`. @default 1 GiB */
  bombBytes?: number;
}

/** Defaults of {@link FaultSitesOptions}. */
export const FAULT_SITES_DEFAULTS: Required<FaultSitesOptions> = {
  defaultSlowMs: 3000,
  maxSlowMs: 60_000,
  dripIntervalMs: 2000,
  hugeBodyBytes: 50 * 1024 * 1024,
  bombBytes: 1024 ** 3,
};

/** A link of a fault index page: target (path or absolute URL) and anchor text. */
export type FaultLink = readonly [href: string, text: string];

/** HTML of a fault site's index page: what the fault is, and links that trigger it. */
export function faultIndexHtml(host: string, description: string, links: readonly FaultLink[]): string {
  const items = links.map(([href, text]) => `<li><a href="${escapeHtml(href)}">${escapeHtml(text)}</a></li>`);
  return htmlDocument(
    `${host}: fault test site`,
    `<h1>${escapeHtml(host)}</h1>\n<p>${escapeHtml(description)}</p>\n<ul>\n${items.join('\n')}\n</ul>\n` +
      `<p><a href="http://index.fault.test/">All fault sites</a></p>`,
  );
}

/** Sends the index page of a fault site. */
export function sendFaultIndex(
  res: ServerResponse,
  host: string,
  description: string,
  links: readonly FaultLink[],
): void {
  sendHtml(res, 200, faultIndexHtml(host, description, links));
}

/** What a fault site is: its host, its index page, and how it answers every other path. */
export interface FaultSiteSpec extends Omit<HandlerSite, 'handle'> {
  /** One sentence on the index page: what the fault is. */
  description: string;
  /** Links of the index page that trigger the fault. */
  links: readonly FaultLink[];
  /** Answers every path but the index (`rel` without its leading '/'), a 404 included. */
  handle: SiteHandler;
}

/** A fault site: its index page at `/` ({@link faultIndexHtml}), every other path to `spec.handle`. */
export function faultSite(spec: FaultSiteSpec): HandlerSite {
  const { description, links, handle, ...site } = spec;
  return {
    ...site,
    handle: (req, res, rel) =>
      rel === '' ? sendFaultIndex(res, site.host, description, links) : handle(req, res, rel),
  };
}

/** A plain, valid page (the "good" answer of flaky or rate-limited sites). */
export function okPageHtml(host: string, path: string, note: string): string {
  return htmlDocument(
    `${host}${path}`,
    `<h1>${escapeHtml(path)}</h1>\n<p>${escapeHtml(note)}</p>\n<p><a href="/">Back to the index</a></p>`,
  );
}
