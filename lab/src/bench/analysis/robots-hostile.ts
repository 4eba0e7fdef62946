// A hostile robots.txt (481 KB, 120 rules of 2,000 `*` each) against the
// robots.txt matcher. Prints (1) the time per check of RobotsTxtCache for paths of 500, 1,000 and
// 2,000 characters, and (2) two crawls of the same loopback web (bfs, K = 4, 221 pages: one host of
// 200 pages whose home links to 20 URLs of 2,000-character paths on a second host), once with the
// hostile robots.txt on the second host and once with none: wall time, and the mean and longest
// wait between two recorded pages of the first host.
// npx vite-node lab/src/bench/analysis/robots-hostile.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Crawler } from 'tres-crawler';
import { RobotsTxtCache } from 'tres-crawler/internals';
import { textResponse } from 'tres-testing';

const RULES = 120;

function sendHtml(res: ServerResponse, html: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(html);
}

/** A loopback server on port 0 for every host name (`rule` is its resolve rule). */
async function startServer(handler: (req: IncomingMessage, res: ServerResponse, host: string) => void) {
  const server = createServer((req, res) => handler(req, res, (req.headers.host ?? '').replace(/:\d+$/, '')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    rule: `*=127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
const STARS = 2_000;

function hostileRobotsTxt(): string {
  const lines = ['User-agent: *'];
  for (let i = 0; i < RULES; i++) lines.push(`Disallow: /${'a*'.repeat(STARS)}x${i}`);
  return `${lines.join('\n')}\n`;
}

const longPath = (length: number, i: number) => `/${'a'.repeat(length)}y${i}`;

async function timePerCheck(robots: string): Promise<void> {
  const cache = new RobotsTxtCache(async (url) => textResponse(url, robots));
  await cache.isAllowed('http://hostile.test/'); // fetch and parse once
  console.log(`robots.txt: ${(robots.length / 1000).toFixed(0)} KB, ${RULES} rules of ${STARS} '*'`);
  console.log('| path length | checks | ms per check (median) | ms per check (max) |');
  console.log('|---:|---:|---:|---:|');
  for (const length of [500, 1_000, 2_000]) {
    const times: number[] = [];
    const checks = length === 2_000 ? 5 : 10;
    for (let i = 0; i < checks; i++) {
      const started = performance.now();
      await cache.isAllowed(`http://hostile.test${longPath(length, i)}`);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)] as number;
    console.log(`| ${length} | ${checks} | ${median.toFixed(3)} | ${(times.at(-1) as number).toFixed(3)} |`);
  }
}

async function crawl(robots: string | undefined): Promise<string> {
  const server = await startServer((req, res, host) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt') {
      if (host === 'hostile.test' && robots !== undefined) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(robots);
      } else res.writeHead(404).end();
      return;
    }
    if (host === 'ok.test' && path === '/') {
      const hostile = Array.from(
        { length: 20 },
        (_, i) => `<a href="http://hostile.test${longPath(2_000, i)}">h</a>`,
      );
      const own = Array.from({ length: 200 }, (_, i) => `<a href="/p${i}.html">p${i}</a>`);
      sendHtml(res, `<html><body>${hostile.join(' ')} ${own.join(' ')}</body></html>`);
      return;
    }
    sendHtml(res, `<html><title>${host}</title><body>page of ${host}</body></html>`);
  });
  const outDir = mkdtempSync(join(tmpdir(), 'tres-robots-hostile-'));
  try {
    const crawler = new Crawler({
      outDir,
      strategy: 'bfs',
      keywords: ['page'],
      maxPages: 221,
      maxConcurrency: 4,
      net: { minDelayMs: 0, resolveRules: [server.rule], allowLoopback: true },
    });
    const gaps: number[] = [];
    let last = performance.now();
    crawler.on('page', (page) => {
      const now = performance.now();
      if (page.url.startsWith('http://ok.test/')) gaps.push(now - last);
      last = now;
    });
    const started = performance.now();
    const summary = await crawler.run(['http://ok.test/']);
    const wallS = (performance.now() - started) / 1000;
    const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
    return `| ${robots === undefined ? 'none' : 'hostile'} | ${summary.steps} | ${wallS.toFixed(2)} | ${mean.toFixed(1)} | ${Math.max(...gaps).toFixed(1)} |`;
  } finally {
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

const robots = hostileRobotsTxt();
await timePerCheck(robots);
console.log('');
console.log('| robots.txt of hostile.test | pages | wall s | mean ms between ok.test pages | longest ms |');
console.log('|---|---:|---:|---:|---:|');
console.log(await crawl(undefined));
console.log(await crawl(robots));
