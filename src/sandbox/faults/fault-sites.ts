/**
 * Fault sites: one host per way a real site can hurt a crawler. Every site's `/` is a normal
 * index page linking to its fault URLs, so a crawl seeded with `http://index.fault.test/` (which
 * links every site) exercises them all. No fault site has a robots.txt except `robots.fault.test`;
 * `/robots.txt` never reaches a fault handler, so it never stalls or fails.
 *
 * | host                         | behaviour                                                                  |
 * |------------------------------|----------------------------------------------------------------------------|
 * | index.fault.test             | links to every fault site                                                  |
 * | slow.fault.test              | `/page?ms=N` answers after N ms (default 3000, clamped to 60 000)          |
 * | stall-headers.fault.test     | every page but `/` accepts the request and never sends headers             |
 * | stall-body.fault.test        | `/drip.html`: headers + first chunk, then one byte every 2 s, forever      |
 * | reset.fault.test             | `/before-headers.html` resets at once; `/mid-body.html` after 1 kB of 100 kB |
 * | error500.fault.test          | every page but `/` answers 500                                             |
 * | flaky503.fault.test          | each path answers 503 twice, then 200 (per-path counters)                  |
 * | ratelimit.fault.test         | each path answers 429 + `Retry-After: 1` once, then 200                    |
 * | redirect-loop.fault.test     | `/a` -> `/b` -> `/a`; `/self` -> `/self`                                    |
 * | redirect-chain.fault.test    | `/r/N` -> `/r/N-1` (301/302/307/308 in turn); `/r/0` is a page; `/r/7` > 5 hops |
 * | huge.fault.test              | `/with-length.html` and `/chunked.html`: 50 MiB bodies                     |
 * | bomb.fault.test              | `/bomb.html`: ~1 MB gzip -> 1 GiB of zeros; `/small-gzip.html` is sane     |
 * | charset.fault.test           | windows-1252 (meta only), ISO-8859-1 (wrong header), UTF-8 BOM, Shift_JIS  |
 * | broken-html.fault.test       | unclosed/stray tags, nested anchors, NUL bytes, unquoted attributes        |
 * | robots.fault.test            | robots.txt `Disallow: /private/`, `Crawl-delay: 1`; pages link to /private/ |
 * | binary.fault.test            | `/image.png`, `/paper.pdf`, `/mislabelled.html` (PNG sent as text/html)    |
 *
 * All hosts share the registrable domain `fault.test`, so per-domain limits treat them as one site.
 */

import type { HandlerSite } from '../replay/index.js';
import { sendStatus } from '../replay/index.js';
import { binarySite, brokenHtmlSite, charsetSite, robotsSite } from './fault-content.js';
import {
  error500Site,
  flaky503Site,
  rateLimitSite,
  redirectChainSite,
  redirectLoopSite,
} from './fault-http.js';
import { bombSite, hugeSite, resetSite, slowSite, stallBodySite, stallHeadersSite } from './fault-network.js';
import { FAULT_SITES_DEFAULTS, type FaultSitesOptions, sendFaultIndex } from './fault-page.js';

/** Seed URL that reaches every fault site. */
export const FAULT_INDEX_URL = 'http://index.fault.test/';

/**
 * The fault sites, with fresh per-path counters (flaky503, ratelimit) for each call.
 * @throws RangeError if a size or delay option is negative or not finite.
 */
export function faultSites(options: FaultSitesOptions = {}): HandlerSite[] {
  const o = { ...FAULT_SITES_DEFAULTS, ...options };
  for (const [field, value] of Object.entries(o)) {
    if (!Number.isFinite(value) || value < 0)
      throw new RangeError(`faultSites: ${field} must be >= 0, got ${value}`);
  }
  const sites = [
    slowSite(o),
    stallHeadersSite(),
    stallBodySite(o),
    resetSite(),
    error500Site(),
    flaky503Site(),
    rateLimitSite(),
    redirectLoopSite(),
    redirectChainSite(),
    hugeSite(o),
    bombSite(o),
    charsetSite(),
    brokenHtmlSite(),
    robotsSite(),
    binarySite(),
  ];
  const directory: HandlerSite = {
    host: 'index.fault.test',
    handle: (req, res, rel) => {
      if (rel !== '') return sendStatus(req, res, 404);
      sendFaultIndex(
        res,
        'index.fault.test',
        'Every fault site of the tres sandbox.',
        sites.map((site) => [`http://${site.host}/`, site.host] as const),
      );
    },
  };
  return [directory, ...sites];
}
