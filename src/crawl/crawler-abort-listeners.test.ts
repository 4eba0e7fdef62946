import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, describe, expect, it } from 'vitest';
import { Crawler } from '../index.js';
import { sendHtml, startServer, type TestServer } from '../net/test-servers.js';

describe('Crawler with many fetches in flight', () => {
  const base = tempDir('tres-abort-listeners-');
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.close();
  });

  it('prints no MaxListenersExceededWarning with 16 fetches listening on its abort signal', async () => {
    // 20 hosts of slow pages, so that 16 fetches are in flight at once.
    server = await startServer((req, res, host) => {
      if (req.url === '/robots.txt') {
        res.writeHead(404).end();
        return;
      }
      const links = Array.from({ length: 20 }, (_, i) => `<a href="http://h${i}.test/">h${i}</a>`);
      setTimeout(() => sendHtml(res, `<html><body>${host} ${links.join(' ')}</body></html>`), 100);
    });
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const crawler = new Crawler({
        outDir: join(base, 'crawl'),
        strategy: 'bfs',
        keywords: ['h1'],
        maxPages: 20,
        maxConcurrency: 16,
        net: { minDelayMs: 0, resolveRules: [server.rule], allowLoopback: true },
        progressIntervalMs: 20,
      });
      let most = 0;
      crawler.on('progress', (p) => {
        most = Math.max(most, p.inFlight);
      });
      const summary = await crawler.run(['http://h0.test/']);
      expect(summary.steps).toBe(20);
      expect(most).toBeGreaterThan(10);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });
});
