import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebClient } from '../net/index.js';
import { startServer, type TestServer } from '../net/test-servers.js';
import { scriptSiteHandler } from '../sandbox/index.js';
import { Renderer } from './renderer.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(`renderer test skipped: ${CHROMIUM} is not installed (apt-get install chromium)`);

describe.skipIf(!hasChromium)('Renderer in chromium', () => {
  let server: TestServer;
  let client: WebClient;
  let renderer: Renderer;
  beforeAll(async () => {
    server = await startServer(scriptSiteHandler(7));
    client = new WebClient({ minDelayMs: 60, resolveRules: [server.rule], allowLoopback: true });
    // settleMs above the default 100: in a test run at load 5 the page's data request once reached
    // the renderer after the quiet spell had ended (the render then held no links).
    renderer = new Renderer(client, { maxPages: 1, settleMs: 300 });
  });
  afterAll(async () => {
    await renderer?.close();
    await client?.close();
    await server?.close();
  });

  it('runs the page script: links that exist only after it ran are in the document, every request went through the client', async () => {
    const fetched = await client.fetchPage('http://js.test/?p=0');
    expect(fetched.result.text).not.toContain('href="/?p=1"');
    const html = await renderer.render(fetched);
    expect(html).toContain('<a href="/?p=1">');
    expect(html).toContain('<a href="/?p=2">');
    expect(html).toContain('rendered');
    // Metadata and intranet addresses were refused by the address guard, never connected to.
    expect(html).toContain('meta refused');
    expect(html).toContain('intranet refused');
    const paths = server.requests.map((r) => r.path);
    expect(paths).toEqual(['/robots.txt', '/?p=0', '/app.js', '/api/links?page=0']);
    // One politeness for the crawl and the browser: minDelayMs between requests to the host.
    for (let i = 2; i < server.requests.length; i++)
      expect((server.requests[i]?.atMs ?? 0) - (server.requests[i - 1]?.atMs ?? 0)).toBeGreaterThanOrEqual(
        55,
      );
  }, 60_000);

  it('serves a script it fetched before from its cache', async () => {
    const before = server.requests.length;
    const html = await renderer.render(await client.fetchPage('http://js.test/?p=1'));
    expect(html).toContain('<a href="/?p=3">');
    expect(server.requests.slice(before).map((r) => r.path)).toEqual(['/?p=1', '/api/links?page=1']);
    expect(renderer.stats.cached).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('gives up past timeoutMs with TRES_RENDER_TIMEOUT', async () => {
    const hurried = new Renderer(client, { timeoutMs: 1 });
    try {
      await expect(hurried.render(await client.fetchPage('http://js.test/?p=2'))).rejects.toMatchObject({
        code: 'TRES_RENDER_TIMEOUT',
      });
    } finally {
      await hurried.close();
    }
  }, 60_000);
});

/** A page whose script reports what an earlier page left (cookie, storages, window name), then leaves its own. */
const STATE_PAGE = `<!doctype html><html><body><p id="found"></p><script>
const found = [document.cookie, localStorage.getItem('k'), sessionStorage.getItem('k'), window.name].join('|');
document.getElementById('found').textContent = 'found:' + found;
document.cookie = 'k=1; path=/';
localStorage.setItem('k', '1');
sessionStorage.setItem('k', '1');
window.name = 'k';
</script></body></html>`;

describe.skipIf(!hasChromium)('Renderer tab reuse', () => {
  let server: TestServer;
  let client: WebClient;
  beforeAll(async () => {
    server = await startServer((req, res) => {
      if (req.url === '/robots.txt') return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end(STATE_PAGE);
    });
    client = new WebClient({ minDelayMs: 0, resolveRules: [server.rule], allowLoopback: true });
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it("renders a host's next page in the same tab with nothing of the last page left: cookies, local and session storage, window name", async () => {
    const renderer = new Renderer(client, { maxPages: 1 });
    try {
      const first = await renderer.render(await client.fetchPage('http://state.test/1'));
      expect(first).toContain('found:|||');
      const second = await renderer.render(await client.fetchPage('http://state.test/2'));
      expect(second).toContain('found:|||');
      expect(renderer.stats.reusedTabs).toBe(1);
      // Another host gets a tab of its own.
      await renderer.render(await client.fetchPage('http://other.test/1'));
      expect(renderer.stats.reusedTabs).toBe(1);
    } finally {
      await renderer.close();
    }
  }, 60_000);

  it('with shouldReuseTabs false, opens a fresh context for every page', async () => {
    const renderer = new Renderer(client, { maxPages: 1, shouldReuseTabs: false });
    try {
      await renderer.render(await client.fetchPage('http://state.test/1'));
      expect(await renderer.render(await client.fetchPage('http://state.test/2'))).toContain('found:|||');
      expect(renderer.stats.reusedTabs).toBe(0);
    } finally {
      await renderer.close();
    }
  }, 60_000);
});

/** A page whose load takes longer than settleMs, with no request, and whose data comes after load. */
const LATE_PAGE = `<!doctype html><html><body><p id="out">waiting</p><script>
const started = Date.now();
while (Date.now() - started < 600) {}
addEventListener('load', () => setTimeout(async () => {
  const r = await fetch('/data');
  document.getElementById('out').textContent = await r.text();
}, 30));
</script></body></html>`;

describe.skipIf(!hasChromium)('Renderer settling', () => {
  let server: TestServer;
  let client: WebClient;
  beforeAll(async () => {
    server = await startServer((req, res) => {
      if (req.url === '/robots.txt') return res.writeHead(404).end();
      // Slow data: a document read at load, not after the page's request, cannot have it.
      if (req.url === '/data')
        return void setTimeout(
          () => res.writeHead(200, { 'content-type': 'text/plain' }).end('late data'),
          1000,
        );
      res.writeHead(200, { 'content-type': 'text/html' }).end(LATE_PAGE);
    });
    client = new WebClient({ minDelayMs: 0, resolveRules: [server.rule], allowLoopback: true });
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it('counts the quiet spell from load: a page whose load took longer than settleMs still gets the data it fetches after load', async () => {
    const renderer = new Renderer(client, { maxPages: 1, settleMs: 200 });
    try {
      expect(await renderer.render(await client.fetchPage('http://late.test/1'))).toContain(
        '<p id="out">late data</p>',
      );
    } finally {
      await renderer.close();
    }
  }, 60_000);
});

describe('Renderer options', () => {
  it('refuses a bad option, naming it, and says how to install a missing chromium', async () => {
    const client = new WebClient();
    try {
      expect(() => new Renderer(client, { maxPages: 0 })).toThrow(/render\.maxPages must be an integer >= 1/);
      const r = new Renderer(client, { executablePath: '/nonexistent/chromium' });
      const fetched = { finalUrl: 'http://a.test/' } as never;
      await expect(r.render(fetched)).rejects.toThrow(/apt-get install -y chromium/);
      await r.close();
    } finally {
      await client.close();
    }
  });
});
