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
import type { Browser, BrowserContext, Route } from 'playwright-core';
import { ConfigError, SkipUrlError } from '../common/errors.js';
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
];

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
}

/** What the crawl lets the browser request (the crawl's URL filter, file extensions aside). */
export interface RendererDeps {
  isUrlAllowed: (url: string) => boolean;
}

/** Renders pages; call {@link Renderer.close} when done. */
export class Renderer {
  readonly options: Readonly<Required<RenderOptions>>;
  readonly stats: RenderStats = { pages: 0, failures: 0, fetched: 0, cached: 0, refused: 0 };
  private browser: Promise<Browser> | undefined;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly scripts = new Map<string, { status: number; contentType: string; body: Buffer }>();
  private readonly hosts: ReadonlySet<string> | undefined;

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
    await this.acquire();
    let context: BrowserContext | undefined;
    let timer: NodeJS.Timeout | undefined;
    const url = fetched.finalUrl;
    try {
      context = await browser.newContext({
        serviceWorkers: 'block',
        acceptDownloads: false,
        userAgent: this.client.fetcher.options.userAgent,
      });
      const ctx = context;
      const work = this.renderIn(ctx, fetched, signal);
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
      return html.length > this.options.maxDomChars ? html.slice(0, this.options.maxDomChars) : html;
    } catch (error) {
      this.stats.failures++;
      if (error instanceof SkipUrlError || error instanceof ConfigError) throw error;
      throw new SkipUrlError('TRES_RENDER_FAILED', `rendering ${url} failed: ${String(error)}`, {
        cause: error,
        context: { url },
      });
    } finally {
      clearTimeout(timer);
      await context?.close().catch(() => {});
      this.release();
    }
  }

  /** Closes the browser. */
  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = undefined;
    if (browser) await (await browser.catch(() => undefined))?.close();
  }

  private async renderIn(context: BrowserContext, fetched: PageFetch, signal?: AbortSignal): Promise<string> {
    const mainUrl = fetched.finalUrl;
    let pending = 0;
    let lastActivityMs = performance.now();
    let requests = 0;
    await context.routeWebSocket(/.*/, (ws) => ws.close());
    await context.route('**/*', async (route: Route) => {
      const request = route.request();
      const reqUrl = request.url();
      if (request.isNavigationRequest() && request.frame().parentFrame() === null) {
        // The page itself comes from the response the crawl fetched; the main frame goes nowhere else.
        if (reqUrl.split('#')[0] === mainUrl.split('#')[0]) return fulfill(route, fetched.result);
        this.stats.refused++;
        return route.abort('blockedbyclient');
      }
      const type = request.resourceType();
      if (
        request.method() !== 'GET' ||
        this.options.blockedResourceTypes.includes(type) ||
        !/^https?:/.test(reqUrl) ||
        ++requests > this.options.maxRequests
      ) {
        this.stats.refused++;
        return route.abort('blockedbyclient');
      }
      const cached = type === 'script' ? this.scripts.get(reqUrl) : undefined;
      if (cached) {
        this.stats.cached++;
        return route.fulfill({ status: cached.status, contentType: cached.contentType, body: cached.body });
      }
      pending++;
      try {
        const page = await this.client.fetchPage(reqUrl, {
          isUrlAllowed: this.deps.isUrlAllowed,
          allowedContentTypes: false,
          ...(signal ? { signal } : {}),
        });
        this.stats.fetched++;
        if (type === 'script' && this.options.maxCachedScripts > 0) this.remember(reqUrl, page.result);
        await fulfill(route, page.result);
      } catch {
        this.stats.refused++;
        // The guard, robots.txt, a size cap or the network said no: the page sees a failed request.
        await route.abort('failed').catch(() => {});
      } finally {
        pending--;
        lastActivityMs = performance.now();
      }
    });
    const page = await context.newPage();
    await page.goto(mainUrl, { waitUntil: 'load', timeout: this.options.timeoutMs });
    // Scripts often fetch their data after `load`: wait for a quiet spell.
    for (;;) {
      const quietMs = performance.now() - lastActivityMs;
      if (pending === 0 && quietMs >= this.options.settleMs) break;
      await new Promise((r) => setTimeout(r, Math.max(10, Math.min(50, this.options.settleMs - quietMs))));
    }
    return page.content();
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
