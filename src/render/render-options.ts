/** Options of the renderer (renderer.ts): documented fields, defaults in one constant, checks run once. */
import { availableParallelism } from 'node:os';
import { ConfigError } from '../common/index.js';

/** Options of {@link Renderer} (`CrawlerOptions.render`). */
export interface RenderOptions {
  /**
   * Hosts whose pages are rendered (exact host names, lowercased), or `'all'`.
   * @default 'all'
   */
  hosts?: readonly string[] | 'all';
  /** The chromium binary (Debian's `apt-get install chromium`). @default '/usr/bin/chromium' */
  executablePath?: string;
  /**
   * Pages rendered at the same time (browser tabs, each in its own context). A rendering tab
   * keeps about one core busy while its scripts run. @default min(2, cores)
   */
  maxPages?: number;
  /** Time one render may take (load, scripts, settling), in ms; past it the page is parsed unrendered. @default 20_000 */
  timeoutMs?: number;
  /**
   * Quiet time (no request of the page pending) after `load` that ends a render, in ms; then one
   * round trip into the page checks it started no request meanwhile. A script that waits on a
   * timer longer than this after its last request is read before the timer fires. @default 100
   */
  settleMs?: number;
  /** Requests one render may make besides the page itself; more are refused. @default 64 */
  maxRequests?: number;
  /** Cap on the rendered document (serialised DOM), in characters; past it the render is cut there. @default 5 MiB */
  maxDomChars?: number;
  /**
   * Resource types refused without a request (Playwright's `resourceType()` names): what a
   * crawler does not need to find links. @default ['image', 'stylesheet', 'font', 'media']
   */
  blockedResourceTypes?: readonly string[];
  /** Script responses kept for the next renders (by URL), saving requests to the site. @default 256 */
  maxCachedScripts?: number;
  /**
   * Render a host's next page in the tab that rendered its last one, cleared in between (the
   * document unloaded, cookies, storage, session storage and window name emptied), instead of a
   * fresh browser context per page; about twice as fast (opening a tab is most of a render's
   * cost). Hosts never share a tab; a tab whose render failed is closed. `false`: a fresh context
   * per page. @default true
   */
  shouldReuseTabs?: boolean;
}

/** Defaults of {@link RenderOptions}. */
export const DEFAULT_RENDER_OPTIONS: Readonly<Required<RenderOptions>> = Object.freeze({
  hosts: 'all',
  executablePath: '/usr/bin/chromium',
  maxPages: Math.max(1, Math.min(2, availableParallelism())),
  timeoutMs: 20_000,
  settleMs: 100,
  maxRequests: 64,
  maxDomChars: 5 * 1024 * 1024,
  blockedResourceTypes: ['image', 'stylesheet', 'font', 'media'],
  maxCachedScripts: 256,
  shouldReuseTabs: true,
});

/**
 * Fills in and checks renderer options.
 * @throws ConfigError naming the field (`render.maxPages`).
 */
export function resolveRenderOptions(options: RenderOptions = {}): Required<RenderOptions> {
  const merged = { ...DEFAULT_RENDER_OPTIONS, ...options };
  for (const key of [
    'maxPages',
    'timeoutMs',
    'settleMs',
    'maxRequests',
    'maxDomChars',
    'maxCachedScripts',
  ] as const) {
    const v = merged[key];
    const min = key === 'settleMs' || key === 'maxCachedScripts' ? 0 : 1;
    if (!Number.isInteger(v) || v < min)
      throw new ConfigError(`render.${key} must be an integer >= ${min}, got ${JSON.stringify(v)}`, {
        context: { field: `render.${key}` },
      });
  }
  if (typeof merged.shouldReuseTabs !== 'boolean')
    throw new ConfigError(
      `render.shouldReuseTabs must be true or false, got ${JSON.stringify(merged.shouldReuseTabs)}`,
      {
        context: { field: 'render.shouldReuseTabs' },
      },
    );
  if (merged.hosts !== 'all' && (!Array.isArray(merged.hosts) || merged.hosts.length === 0))
    throw new ConfigError('render.hosts must be "all" or a list of host names', {
      context: { field: 'render.hosts' },
    });
  if (merged.hosts !== 'all') merged.hosts = merged.hosts.map((h) => h.trim().toLowerCase());
  return merged;
}
