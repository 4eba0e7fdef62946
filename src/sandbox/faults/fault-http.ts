/**
 * Fault sites that misbehave at the HTTP level: server errors, transient errors with per-path
 * counters, rate limits and redirect loops and chains. See the table in `fault-sites.ts`.
 */

import type { HandlerSite } from '../replay/index.js';
import { sendHtml, sendRedirect, sendStatus } from '../replay/index.js';
import { faultSite, okPageHtml } from './fault-page.js';

/** Per-path request counts, bounded so a long crawl cannot grow them without limit. */
class PathCounter {
  private readonly counts = new Map<string, number>();
  constructor(private readonly maxPaths = 100_000) {}
  /** How many times `path` was seen before this call. */
  hit(path: string): number {
    const seen = this.counts.get(path) ?? 0;
    if (this.counts.size >= this.maxPaths && seen === 0) this.counts.clear();
    this.counts.set(path, seen + 1);
    return seen;
  }
}

const SAMPLE_LINKS = [
  ['/a.html', 'page a'],
  ['/b.html', 'page b'],
  ['/deep/c.html', 'page c'],
] as const;

/** `error500.fault.test`: every page but the index answers 500. */
export function error500Site(): HandlerSite {
  const host = 'error500.fault.test';
  return faultSite({
    host,
    description: 'Every other page answers 500.',
    links: SAMPLE_LINKS,
    handle: (req, res) => {
      sendStatus(req, res, 500);
    },
  });
}

/** `flaky503.fault.test`: 503 for the first two requests of each path, then 200. */
export function flaky503Site(): HandlerSite {
  const host = 'flaky503.fault.test';
  const counter = new PathCounter();
  return faultSite({
    host,
    description: 'Each page answers 503 twice, then 200.',
    links: SAMPLE_LINKS,
    handle: (req, res, rel) => {
      const seen = counter.hit(rel);
      if (seen < 2) return sendStatus(req, res, 503);
      sendHtml(res, 200, okPageHtml(host, `/${rel}`, `Answered on attempt ${seen + 1}.`));
    },
  });
}

/** `ratelimit.fault.test`: 429 with `Retry-After: 1` for the first request of each path, then 200. */
export function rateLimitSite(): HandlerSite {
  const host = 'ratelimit.fault.test';
  const counter = new PathCounter();
  return faultSite({
    host,
    description: 'Each page answers 429 (Retry-After: 1) once, then 200.',
    links: SAMPLE_LINKS,
    handle: (req, res, rel) => {
      const seen = counter.hit(rel);
      if (seen === 0) {
        res.setHeader('Retry-After', '1');
        return sendStatus(req, res, 429);
      }
      sendHtml(res, 200, okPageHtml(host, `/${rel}`, `Answered on attempt ${seen + 1}.`));
    },
  });
}

/** `redirect-loop.fault.test`: `/a` -> `/b` -> `/a`, and `/self` -> `/self`. */
export function redirectLoopSite(): HandlerSite {
  const host = 'redirect-loop.fault.test';
  return faultSite({
    host,
    description: 'Redirects that never end.',
    links: [
      ['/a', '/a -> /b -> /a'],
      ['/self', '/self -> /self'],
    ],
    handle: (req, res, rel) => {
      if (rel === 'a') return sendRedirect(res, 302, '/b');
      if (rel === 'b') return sendRedirect(res, 302, '/a');
      if (rel === 'self') return sendRedirect(res, 301, '/self');
      sendStatus(req, res, 404);
    },
  });
}

/** Statuses the chain cycles through, so every kind of redirect is exercised. */
const CHAIN_STATUSES = [301, 302, 307, 308] as const;

/**
 * `redirect-chain.fault.test`: `/r/N` redirects to `/r/N-1` (N <= 100), `/r/0` is a page. With a
 * limit of 5 redirects, `/r/5` is reached and `/r/7` is not.
 */
export function redirectChainSite(): HandlerSite {
  const host = 'redirect-chain.fault.test';
  return faultSite({
    host,
    description: '/r/N takes N redirects (301, 302, 307, 308 in turn) to reach /r/0.',
    links: [
      ['/r/1', 'one hop'],
      ['/r/5', 'five hops'],
      ['/r/7', 'seven hops (beyond a limit of 5)'],
    ],
    handle: (req, res, rel) => {
      const match = /^r\/(\d{1,3})$/.exec(rel);
      const hops = match ? Number(match[1]) : -1;
      if (hops < 0 || hops > 100) return sendStatus(req, res, 404);
      if (hops === 0) return sendHtml(res, 200, okPageHtml(host, '/r/0', 'The end of the redirect chain.'));
      sendRedirect(res, CHAIN_STATUSES[hops % CHAIN_STATUSES.length] as number, `/r/${hops - 1}`);
    },
  });
}
