/**
 * Renders pages that need JavaScript in Debian's chromium through playwright-core, with every
 * request the browser makes served by the crawl's own {@link WebClient}: the page itself from the
 * response already fetched, its scripts and XHR/fetch calls through the same per-host
 * politeness, robots.txt rules, address guard, timeouts and size caps as any page (route
 * interception). The browser reaches nothing by itself: its DNS answers nothing
 * (`--host-resolver-rules`) and its proxy is a closed port, so a request that escaped
 * interception (a worker's, a WebSocket) fails. Service workers are blocked, WebSockets closed.
 *
 * playwright-core is an optional dependency, loaded only when a crawl renders.
 */

// Types only: erased from the build, so dist never loads playwright-core unless a crawl renders.
import type { Browser, BrowserContext, CDPSession, Page, Route } from 'playwright-core';
import { ConfigError, SkipUrlError } from '../common/index.js';
import type { FetchResult, PageFetch, WebClient } from '../net/index.js';
import { type RenderOptions, resolveRenderOptions } from './render-options.js';

/** Flags of every launch: no sandbox (containers, root), no GPU, no calls home. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
  // Nothing the browser would fetch by itself can reach the network (see above).
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  // A page left is gone, not kept in the back/forward cache, and a tab's next page loads in its
  // renderer process instead of a new one: clearing a tab and loading the next page took 30%
  // longer without this (render benchmark, load 12).
  '--disable-features=BackForwardCache,ProactivelySwapBrowsingInstance,RenderDocument',
];

/** The render a tab is busy with, as its request handler sees it. */
interface RenderJob {
  fetched: PageFetch;
  signal?: AbortSignal;
  /** Requests of the page being served now. */
  pending: number;
  lastActivityMs: number;
  /** Requests made (against `maxRequests`). */
  requests: number;
  /** Origins the page reached (their storage is cleared after it). */
  origins: Set<string>;
}

/** A browser context with one tab, rendering pages of one host. */
interface Tab {
  host: string;
  context: BrowserContext;
  page: Page;
  /** A DevTools session of the tab, kept for its life: serialising and clearing go through it. */
  cdp: CDPSession;
  job: RenderJob | undefined;
}

/** Counts of a renderer's work, for benchmarks and tests. */
export interface RenderStats {
  pages: number;
  /** Renders that failed or timed out (the page was then parsed unrendered). */
  failures: number;
  /** Requests served through the web client. */
  fetched: number;
  /** Script responses served from the cache. */
  cached: number;
  /** Requests refused: a blocked type, a method other than GET, a fetch error (guard, robots, size), over maxRequests. */
  refused: number;
  /** Renders in a tab reused from the host's previous page (`shouldReuseTabs`). */
  reusedTabs: number;
  /** Time spent in each phase of a render, summed over renders, in ms (see {@link RenderPhases}). */
  phaseMs: RenderPhases;
}

/** The phases of a render, for the benchmark's account of where the time goes. */
export interface RenderPhases {
  /** Waiting for a free tab slot (`maxPages` renders at once). */
  queue: number;
  /** Opening a browser context and tab (0 for a reused tab). */
  open: number;
  /** From navigation to the `load` event (the page's scripts fetched and run). */
  load: number;
  /** After `load`, until no request was pending for `settleMs`. */
  settle: number;
  /** Serialising the document. */
  serialise: number;
  /** Clearing the tab for the next page of its host, or closing it. */
  clear: number;
  /** Requests of the page served through the web client (politeness waits included); overlaps `load` and `settle`. */
  subrequests: number;
}

/** What the crawl lets the browser request (the crawl's URL filter, file extensions aside). */
export interface RendererDeps {
  isUrlAllowed: (url: string) => boolean;
}

/** Renders pages; call {@link Renderer.close} when done. */
export class Renderer {
  readonly options: Readonly<Required<RenderOptions>>;
  readonly stats: RenderStats = {
    pages: 0,
    failures: 0,
    fetched: 0,
    cached: 0,
    refused: 0,
    reusedTabs: 0,
    phaseMs: { queue: 0, open: 0, load: 0, settle: 0, serialise: 0, clear: 0, subrequests: 0 },
  };
  private browser: Promise<Browser> | undefined;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly scripts = new Map<string, { status: number; contentType: string; body: Buffer }>();
  private readonly hosts: ReadonlySet<string> | undefined;
  /** Tabs cleared after a render, each kept for the next page of its host. */
  private readonly idleTabs: Tab[] = [];

  /** @throws ConfigError naming a bad option. */
  constructor(
    private readonly client: WebClient,
    options: RenderOptions = {},
    private readonly deps: RendererDeps = { isUrlAllowed: () => true },
  ) {
    this.options = resolveRenderOptions(options);
    this.hosts = this.options.hosts === 'all' ? undefined : new Set(this.options.hosts);
  }

  /** True when pages of `host` are rendered. */
  shouldRender(host: string): boolean {
    return this.hosts === undefined || this.hosts.has(host);
  }

  /**
   * The document of `fetched` (an HTML response) after its scripts ran, serialised.
   * @throws ConfigError when playwright-core or chromium is missing (the crawl stops: say how to
   *   install them); SkipUrlError `TRES_RENDER_TIMEOUT` past `timeoutMs`, `TRES_RENDER_FAILED`.
   */
  async render(fetched: PageFetch, signal?: AbortSignal): Promise<string> {
    const browser = await this.launch();
    const phase = this.stats.phaseMs;
    let at = performance.now();
    await this.acquire();
    phase.queue += performance.now() - at;
    let tab: Tab | undefined;
    let isReusable = false;
    let isSettled = false;
    let timer: NodeJS.Timeout | undefined;
    const url = fetched.finalUrl;
    try {
      const work = (async () => {
        at = performance.now();
        const taken = await this.takeTab(browser, new URL(url).host);
        phase.open += performance.now() - at;
        if (isSettled) {
          // Timed out while the tab opened: nobody will put it back.
          await taken.context.close().catch(() => {});
          throw new Error('render abandoned');
        }
        tab = taken;
        return this.renderIn(taken, fetched, signal);
      })();
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new SkipUrlError(
                'TRES_RENDER_TIMEOUT',
                `rendering ${url} took more than ${this.options.timeoutMs} ms`,
                {
                  context: { url },
                },
              ),
            ),
          this.options.timeoutMs,
        );
      });
      const html = await Promise.race([work, timeout]);
      this.stats.pages++;
      isReusable = true;
      return html.length > this.options.maxDomChars ? html.slice(0, this.options.maxDomChars) : html;
    } catch (error) {
      this.stats.failures++;
      if (error instanceof SkipUrlError || error instanceof ConfigError) throw error;
      throw new SkipUrlError('TRES_RENDER_FAILED', `rendering ${url} failed: ${String(error)}`, {
        cause: error,
        context: { url },
      });
    } finally {
      isSettled = true;
      clearTimeout(timer);
      // A tab whose render failed or timed out may still be busy: never reused.
      at = performance.now();
      if (tab) await this.putBack(tab, isReusable);
      phase.clear += performance.now() - at;
      this.release();
    }
  }

  /** Closes the browser. */
  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = undefined;
    this.idleTabs.splice(0);
    if (browser) await (await browser.catch(() => undefined))?.close();
  }

  /**
   * A tab for a page of `host`: an idle one that rendered this host's last page (cleared since),
   * else a fresh context and tab, closing idle tabs so that at most `maxPages` exist.
   */
  private async takeTab(browser: Browser, host: string): Promise<Tab> {
    const i = this.idleTabs.findIndex((t) => t.host === host);
    if (i >= 0) {
      this.stats.reusedTabs++;
      return this.idleTabs.splice(i, 1)[0] as Tab;
    }
    // Tabs in use are at most active - 1 (this render holds a slot and no tab yet).
    while (this.idleTabs.length > 0 && this.idleTabs.length + this.active > this.options.maxPages)
      await this.idleTabs
        .shift()
        ?.context.close()
        .catch(() => {});
    const context = await browser.newContext({
      serviceWorkers: 'block',
      acceptDownloads: false,
      userAgent: this.client.fetcher.options.userAgent,
    });
    try {
      const tab: Tab = { host, context, page: undefined as never, cdp: undefined as never, job: undefined };
      await this.routeThroughClient(tab);
      tab.page = await context.newPage();
      tab.cdp = await context.newCDPSession(tab.page);
      return tab;
    } catch (error) {
      await context.close().catch(() => {});
      throw error;
    }
  }

  /**
   * After a render: a tab that rendered without error is cleared for the next page of its host
   * (`shouldReuseTabs`): the document unloaded (about:blank: its scripts and timers end), cookies
   * and every origin's storage it touched deleted, its session storage and window name emptied.
   * Otherwise, or when clearing fails, its context is closed.
   */
  private async putBack(tab: Tab, isReusable: boolean): Promise<void> {
    const job = tab.job;
    tab.job = undefined;
    if (isReusable && this.options.shouldReuseTabs && job && this.browser) {
      try {
        // Session storage lives with the tab, not the origin's storage: emptied from the page
        // (a frame without storage, sandboxed or blank, throws and is skipped).
        for (const frame of tab.page.frames())
          await frame.evaluate('try { sessionStorage.clear(); window.name = ""; } catch {}').catch(() => {});
        await tab.page.goto('about:blank');
        // The document is gone: nothing of the page can write again while these run.
        await Promise.all([
          tab.context.clearCookies(),
          ...[...job.origins].map((origin) =>
            tab.cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' }),
          ),
        ]);
        this.idleTabs.push(tab);
        return;
      } catch {
        // Not cleared: not reused.
      }
    }
    await tab.context.close().catch(() => {});
  }

  /**
   * Every request of the tab's pages goes through the crawl's client (or is refused); set once
   * per context, it serves whichever render the tab holds now (`tab.job`).
   */
  private async routeThroughClient(tab: Tab): Promise<void> {
    await tab.context.routeWebSocket(/.*/, (ws) => ws.close());
    await tab.context.route('**/*', async (route: Route) => {
      const job = tab.job;
      const request = route.request();
      const reqUrl = request.url();
      if (!job) {
        // Between renders (a request of the page just left): nothing goes out.
        this.stats.refused++;
        return route.abort('blockedbyclient');
      }
      const mainUrl = job.fetched.finalUrl;
      if (request.isNavigationRequest() && request.frame().parentFrame() === null) {
        // The page itself comes from the response the crawl fetched; the main frame goes nowhere else.
        if (reqUrl.split('#')[0] === mainUrl.split('#')[0]) return fulfill(route, job.fetched.result);
        this.stats.refused++;
        return route.abort('blockedbyclient');
      }
      const type = request.resourceType();
      if (
        request.method() !== 'GET' ||
        this.options.blockedResourceTypes.includes(type) ||
        !/^https?:/.test(reqUrl) ||
        ++job.requests > this.options.maxRequests
      ) {
        this.stats.refused++;
        return route.abort('blockedbyclient');
      }
      job.origins.add(new URL(reqUrl).origin);
      const cached = type === 'script' ? this.scripts.get(reqUrl) : undefined;
      if (cached) {
        this.stats.cached++;
        job.lastActivityMs = performance.now();
        return route.fulfill({ status: cached.status, contentType: cached.contentType, body: cached.body });
      }
      job.pending++;
      const startMs = performance.now();
      try {
        const page = await this.client.fetchPage(reqUrl, {
          isUrlAllowed: this.deps.isUrlAllowed,
          allowedContentTypes: false,
          ...(job.signal ? { signal: job.signal } : {}),
        });
        this.stats.fetched++;
        if (type === 'script' && this.options.maxCachedScripts > 0) this.remember(reqUrl, page.result);
        await fulfill(route, page.result);
      } catch {
        this.stats.refused++;
        // The guard, robots.txt, a size cap or the network said no: the page sees a failed request.
        await route.abort('failed').catch(() => {});
      } finally {
        job.pending--;
        job.lastActivityMs = performance.now();
        this.stats.phaseMs.subrequests += job.lastActivityMs - startMs;
      }
    });
  }

  private async renderIn(tab: Tab, fetched: PageFetch, signal?: AbortSignal): Promise<string> {
    const mainUrl = fetched.finalUrl;
    const job: RenderJob = {
      fetched,
      pending: 0,
      lastActivityMs: performance.now(),
      requests: 0,
      origins: new Set([new URL(mainUrl).origin]),
      ...(signal ? { signal } : {}),
    };
    tab.job = job;
    const phase = this.stats.phaseMs;
    let at = performance.now();
    await tab.page.goto(mainUrl, { waitUntil: 'load', timeout: this.options.timeoutMs });
    phase.load += performance.now() - at;
    at = performance.now();
    await this.settle(tab, job);
    phase.settle += performance.now() - at;
    at = performance.now();
    // Through DevTools, not a script in the page: the page cannot redefine or stall it, and no
    // script world is made for it (page.content() made one per page: 10 times slower).
    const { root } = await tab.cdp.send('DOM.getDocument', { depth: 0 });
    const { outerHTML } = await tab.cdp.send('DOM.getOuterHTML', { nodeId: root.nodeId });
    phase.serialise += performance.now() - at;
    return outerHTML;
  }

  /**
   * Waits after `load` until no request of the page was pending for `settleMs` (scripts often
   * fetch their data after `load`). The quiet spell counts from `load` at the earliest: the page
   * may have sent a request that has not reached the route handler yet. Once quiet, one round
   * trip into the page (a task queued behind the page's own) checks that it did not just start a
   * request: on a loaded machine a page may sit unscheduled for longer than `settleMs` between a
   * response and the request it triggers.
   */
  private async settle(tab: Tab, job: RenderJob): Promise<void> {
    job.lastActivityMs = Math.max(job.lastActivityMs, performance.now());
    for (;;) {
      const quietMs = performance.now() - job.lastActivityMs;
      if (job.pending === 0 && quietMs >= this.options.settleMs) {
        const seen = job.lastActivityMs;
        await tab.page.evaluate('new Promise((resolve) => setTimeout(resolve, 0))');
        if (job.pending === 0 && job.lastActivityMs === seen) return;
        continue;
      }
      await new Promise((r) => setTimeout(r, Math.max(10, Math.min(50, this.options.settleMs - quietMs))));
    }
  }

  private remember(url: string, result: FetchResult): void {
    if (result.status !== 200) return;
    this.scripts.delete(url);
    this.scripts.set(url, {
      status: 200,
      contentType: result.contentType || 'text/javascript',
      body: result.body,
    });
    if (this.scripts.size > this.options.maxCachedScripts) {
      const oldest = this.scripts.keys().next().value;
      if (oldest !== undefined) this.scripts.delete(oldest);
    }
  }

  private launch(): Promise<Browser> {
    this.browser ??= (async () => {
      let playwright: typeof import('playwright-core');
      try {
        playwright = await import('playwright-core');
      } catch (cause) {
        throw new ConfigError(
          'rendering (--render) needs the package playwright-core: npm install playwright-core',
          { cause, context: { field: 'render' } },
        );
      }
      try {
        return await playwright.chromium.launch({
          executablePath: this.options.executablePath,
          headless: true,
          args: CHROMIUM_ARGS,
        });
      } catch (cause) {
        throw new ConfigError(
          `rendering (--render) cannot start chromium at ${this.options.executablePath}: install it (apt-get install -y chromium) or set render.executablePath (${String(cause).split('\n')[0]})`,
          { cause, context: { field: 'render.executablePath' } },
        );
      }
    })();
    return this.browser;
  }

  private async acquire(): Promise<void> {
    if (this.active < this.options.maxPages) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

function fulfill(route: Route, result: FetchResult): Promise<void> {
  return route.fulfill({
    status: result.status,
    contentType: result.headers['content-type'] ?? result.contentType ?? 'application/octet-stream',
    body: result.body,
  });
}
