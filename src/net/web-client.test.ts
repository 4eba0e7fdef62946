import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DeferUrlError, type RetryLaterError, SkipUrlError } from '../common/index.js';
import { sendHtml, startServer, type TestServer } from './test-servers.js';
import { WebClient, type WebClientOptions } from './web-client.js';

let server: TestServer;
let clients: WebClient[] = [];

function client(options: WebClientOptions = {}): WebClient {
  const c = new WebClient({ resolveRules: [server.rule], allowLoopback: true, minDelayMs: 0, ...options });
  clients.push(c);
  return c;
}

function redirect(res: ServerResponse, location: string, status = 301): void {
  res.writeHead(status, { location });
  res.end();
}

async function failure(promise: Promise<unknown>): Promise<{ error: unknown; code: string }> {
  try {
    await promise;
  } catch (error) {
    return { error, code: (error as { code?: string }).code ?? 'none' };
  }
  throw new Error('expected the fetch to fail');
}

/** Requests the server saw for one host, robots.txt excluded. */
function pagesOf(host: string) {
  return server.requests.filter((r) => r.host === host && r.path !== '/robots.txt');
}

beforeAll(async () => {
  server = await startServer((req, res, host) => {
    const path = (req.url ?? '/').replace(/\?.*$/, '');
    if (path === '/robots.txt') {
      if (host === 'site-a.test')
        return sendHtml(res, 'User-agent: *\nDisallow: /private\n', 200, { 'content-type': 'text/plain' });
      if (host === 'down.test') return sendHtml(res, 'oops', 500);
      if (host === 'slow-crawl.test')
        return sendHtml(res, 'User-agent: tres\nCrawl-delay: 0.3\n', 200, { 'content-type': 'text/plain' });
      return sendHtml(res, 'none', 404);
    }
    if (host === 'site-a.test') {
      const chain = /^\/chain\/(\d+)$/.exec(path);
      if (chain && Number(chain[1]) < 6) return redirect(res, `/chain/${Number(chain[1]) + 1}`, 302);
      switch (path) {
        case '/start':
          return redirect(res, '/step1');
        case '/step1':
          return redirect(res, 'http://site-b.test/step2', 302);
        case '/loop-a':
          return redirect(res, '/loop-b');
        case '/loop-b':
          return redirect(res, '/loop-a#again');
        case '/to-private':
          return redirect(res, '/private/x');
        case '/to-internal':
          return redirect(res, 'http://10.0.0.1/admin');
        case '/to-ftp':
          return redirect(res, 'ftp://site-a.test/file');
        case '/busy':
          res.writeHead(429, { 'retry-after': '2' });
          return res.end();
      }
    }
    if (path === '/slow') {
      setTimeout(() => sendHtml(res, 'slow'), 100);
      return;
    }
    return sendHtml(res, `<p>${host}${path}</p>`);
  });
});

afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
});

afterAll(async () => {
  await server.close();
});

describe('WebClient', () => {
  it('follows a redirect chain one hop at a time, across hosts', async () => {
    const page = await client().fetchPage('http://site-a.test/start');
    expect(page.requestedUrl).toBe('http://site-a.test/start');
    expect(page.finalUrl).toBe('http://site-b.test/step2');
    expect(page.redirects).toEqual(['http://site-a.test/step1', 'http://site-b.test/step2']);
    expect(page.hops.map((h) => h.status)).toEqual([301, 302, 200]);
    expect(page.result.text).toContain('site-b.test/step2');
    // robots.txt of the second host was asked for before its page.
    const b = server.requests.filter((r) => r.host === 'site-b.test').map((r) => r.path);
    expect(b.slice(0, 2)).toEqual(['/robots.txt', '/step2']);
  });

  it('detects a redirect loop', async () => {
    const { code, error } = await failure(client().fetchPage('http://site-a.test/loop-a'));
    expect(code).toBe('TRES_REDIRECT_LOOP');
    expect(error).toBeInstanceOf(SkipUrlError);
  });

  it('follows five redirects and refuses the sixth', async () => {
    const ok = await client().fetchPage('http://site-a.test/chain/1');
    expect(ok.redirects.length).toBe(5);
    expect(ok.finalUrl).toBe('http://site-a.test/chain/6');
    const { code } = await failure(client().fetchPage('http://site-a.test/chain/0'));
    expect(code).toBe('TRES_TOO_MANY_REDIRECTS');
    const more = await client({ maxRedirects: 6 }).fetchPage('http://site-a.test/chain/0');
    expect(more.redirects.length).toBe(6);
  });

  it('skips a redirect to a path robots.txt disallows, without fetching it', async () => {
    const { code } = await failure(client().fetchPage('http://site-a.test/to-private'));
    expect(code).toBe('TRES_ROBOTS_DISALLOWED');
    expect(pagesOf('site-a.test').some((r) => r.path.startsWith('/private'))).toBe(false);
  });

  it('skips a URL robots.txt disallows', async () => {
    const { code, error } = await failure(client().fetchPage('http://site-a.test/private/page'));
    expect(code).toBe('TRES_ROBOTS_DISALLOWED');
    expect((error as SkipUrlError).context).toMatchObject({
      url: 'http://site-a.test/private/page',
      host: 'site-a.test',
    });
  });

  it('fetches what robots.txt disallows when respectRobotsTxt is false', async () => {
    const page = await client({ respectRobotsTxt: false }).fetchPage('http://site-a.test/private/page');
    expect(page.result.status).toBe(200);
  });

  it('blocks a redirect to a private address', async () => {
    const { code } = await failure(client().fetchPage('http://site-a.test/to-internal'));
    expect(code).toBe('TRES_ADDRESS_BLOCKED');
  });

  it('skips a redirect to a non-http scheme', async () => {
    const { code } = await failure(client().fetchPage('http://site-a.test/to-ftp'));
    expect(code).toBe('TRES_UNSUPPORTED_SCHEME');
  });

  it('applies the URL filter to redirect targets', async () => {
    const isUrlAllowed = (url: string) => !url.includes('site-b.test');
    const { code } = await failure(client({ isUrlAllowed }).fetchPage('http://site-a.test/start'));
    expect(code).toBe('TRES_URL_FILTERED');
  });

  it('allows everything when robots.txt is 404', async () => {
    const page = await client().fetchPage('http://no-robots.test/private/x');
    expect(page.result.status).toBe(200);
  });

  it('defers pages without requesting them while robots.txt answers 500', async () => {
    const c = client();
    const { code, error } = await failure(c.fetchPage('http://down.test/page'));
    expect(code).toBe('TRES_ROBOTS_UNAVAILABLE');
    expect(error).toBeInstanceOf(DeferUrlError);
    expect((error as DeferUrlError).retryAfterMs).toBeGreaterThan(25_000);
    expect(pagesOf('down.test')).toEqual([]);
    expect(c.isHostReady('down.test')).toBe(false);
  });

  it('refuses the loopback sandbox when allowLoopback is false', async () => {
    const { code } = await failure(client({ allowLoopback: false }).fetchPage('http://site-a.test/page'));
    expect(code).toBe('TRES_ADDRESS_BLOCKED');
  });

  it('waits minDelayMs between two requests to the same host', async () => {
    const c = client({ minDelayMs: 150 });
    await c.fetchPage('http://delay.test/1');
    expect(c.isHostReady('delay.test')).toBe(false);
    expect(c.isHostReady('other.test')).toBe(true);
    await c.fetchPage('http://delay.test/2'); // waits inside for the host
    const [first, second] = pagesOf('delay.test');
    expect((second?.atMs ?? 0) - (first?.atMs ?? 0)).toBeGreaterThanOrEqual(149);
  });

  it('honours the Crawl-delay of robots.txt', async () => {
    const c = client();
    await c.fetchPage('http://slow-crawl.test/1');
    await c.fetchPage('http://slow-crawl.test/2');
    const times = server.requests.filter((r) => r.host === 'slow-crawl.test').map((r) => r.atMs);
    expect(times.length).toBe(3); // robots.txt, /1, /2
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(299);
    expect((times[2] ?? 0) - (times[1] ?? 0)).toBeGreaterThanOrEqual(299);
  });

  it('sends one request at a time to a host', async () => {
    const c = client();
    await Promise.all([1, 2, 3].map((i) => c.fetchPage(`http://serial.test/slow?${i}`)));
    const times = pagesOf('serial.test').map((r) => r.atMs);
    expect(times.length).toBe(3);
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(99);
    expect((times[2] ?? 0) - (times[1] ?? 0)).toBeGreaterThanOrEqual(99);
  });

  it('pushes a host back when it answers 429 with Retry-After', async () => {
    const c = client();
    const { code, error } = await failure(c.fetchPage('http://site-a.test/busy'));
    expect(code).toBe('TRES_HTTP_429');
    expect((error as RetryLaterError).retryAfterMs).toBe(2000);
    expect(c.isHostReady('site-a.test')).toBe(false);
    expect(c.nextReadyAtMs('site-a.test') - performance.now()).toBeGreaterThan(1500);
  });

  it('stops waiting for a host when the signal aborts', async () => {
    const c = client({ minDelayMs: 10_000, respectRobotsTxt: false });
    await c.fetchPage('http://patience.test/1');
    const start = performance.now();
    const { error } = await failure(
      c.fetchPage('http://patience.test/2', { signal: AbortSignal.timeout(100) }),
    );
    expect((error as Error).name).toBe('TimeoutError');
    expect(performance.now() - start).toBeLessThan(2000);
  });

  it('validates its own options', () => {
    expect(() => new WebClient({ maxRedirects: -1 })).toThrow(/maxRedirects/);
    expect(() => new WebClient({ minDelayMs: Number.NaN })).toThrow(/minDelayMs/);
  });
});

describe('WebClient with a *=none resolve rule', () => {
  it('fails a host outside the sandbox as a DNS miss, without a lookup', async () => {
    const c = client({ resolveRules: [`site-a.test=127.0.0.1:${server.port}`, '*=none'] });
    const { error, code } = await failure(c.fetchPage('http://elsewhere.example/page.html'));
    expect(error).toBeInstanceOf(SkipUrlError);
    expect(code).toBe('TRES_DNS');
  });
});
