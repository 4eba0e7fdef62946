import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReplayServer, startReplayServer } from './replay-server.js';
import { SiteRouter } from './site-router.js';
import { fetchVia } from './test-client.js';

let root: string;
let server: ReplayServer;

async function put(rel: string, text: string | Buffer) {
  const path = join(root, rel);
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tres-replay-'));
  await put('solfege/index.html', '<title>solfege</title>');
  await put('solfege/lessons/index.html', '<title>lessons</title>');
  await put('solfege/lessons/intervals.html', '<p>intervals</p>');
  await put('solfege/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  await put('solfege/big.txt', 'x'.repeat(300_000));
  await put('other/index.html', '<title>other</title>');
  await put('software/solfege/help/index.html', '<title>WRONG: the shorter prefix served</title>');
  await put('secret.txt', 'outside every site folder');
  await put('debian/robots.txt', 'User-agent: *\nDisallow: /nope/\n');
  await put('debian/index.html', '<title>debian</title>');
  server = await startReplayServer({
    maxCachedFileBytes: 100_000,
    sites: [
      { host: 'www.gnu.org', prefix: '/software/solfege/help/', dir: join(root, 'solfege') },
      { host: 'www.gnu.org', prefix: '/software/other', dir: join(root, 'other') },
      { host: 'www.gnu.org', prefix: '/', dir: root, robotsTxt: 'User-agent: *\nAllow: /\n' },
      { host: 'docs.example.test', prefix: '/manual/', dir: join(root, 'other') },
      { host: 'WWW.Debian.org', dir: join(root, 'debian') },
      { host: 'gen.test', handle: (_req, res, rel) => res.end(`rel=${rel}`) },
      { host: 'port.test', handle: (req, res) => res.end(String(req.socket.remotePort)) },
    ],
  });
});

afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

const get = (host: string, path: string, method = 'GET') =>
  fetchVia({ port: server.port, host, path, method });

describe('SiteRouter', () => {
  it('chooses the longest prefix among the sites of a host', () => {
    const router = new SiteRouter([
      { host: 'a.test', prefix: '/', handle: () => {} },
      { host: 'a.test', prefix: '/x/y/', handle: () => {} },
      { host: 'a.test', prefix: '/x/', handle: () => {} },
    ]);
    const route = router.route('A.test:8080', '/x/y/z.html?q=1');
    expect(route).toMatchObject({
      kind: 'site',
      relPath: 'z.html',
      query: '?q=1',
      site: { prefix: '/x/y/' },
    });
    expect(router.route('a.test', 'http://a.test/x/k')).toMatchObject({ kind: 'site', relPath: 'k' });
    expect(router.route('b.test', '/')).toEqual({ kind: 'unknown-host', host: 'b.test' });
  });

  it('rejects two sites with the same host and prefix', () => {
    expect(
      () =>
        new SiteRouter([
          { host: 'a.test', dir: '/x' },
          { host: 'A.TEST', prefix: '/', dir: '/y' },
        ]),
    ).toThrow(/two sites/);
  });
});

describe('startReplayServer', () => {
  it('routes by Host header and longest prefix and serves index.html for folder URLs', async () => {
    const solfege = await get('www.gnu.org', '/software/solfege/help/');
    expect(solfege.status).toBe(200);
    expect(solfege.body.toString()).toBe('<title>solfege</title>');
    expect(solfege.headers['content-type']).toBe('text/html');
    expect((await get('www.gnu.org', '/software/other/')).body.toString()).toBe('<title>other</title>');
    expect(
      (await get('www.gnu.org:80', '/software/solfege/help/lessons/intervals.html')).body.toString(),
    ).toBe('<p>intervals</p>');
    expect((await get('WWW.DEBIAN.ORG', '/')).body.toString()).toBe('<title>debian</title>');
    expect((await get('gen.test', '/a/b%20c?x=1')).body.toString()).toBe('rel=a/b%20c');
  });

  it('redirects a folder URL without trailing slash, keeping the query', async () => {
    const res = await get('www.gnu.org', '/software/solfege/help/lessons?a=1');
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/software/solfege/help/lessons/?a=1');
    const prefixItself = await get('docs.example.test', '/manual');
    expect(prefixItself.status).toBe(301);
    expect(prefixItself.headers.location).toBe('/manual/');
  });

  it('redirects / to the first prefix on a host whose sites all live deeper', async () => {
    const res = await get('docs.example.test', '/');
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/manual/');
  });

  it('answers 404 for missing files and paths outside every prefix', async () => {
    expect((await get('www.gnu.org', '/software/solfege/help/nope.html')).status).toBe(404);
    expect((await get('docs.example.test', '/elsewhere/')).status).toBe(404);
    expect((await get('www.gnu.org', '/software/solfege/help/logo.png/')).status).toBe(404);
  });

  it('blocks path traversal out of the site folder', async () => {
    const attempts = [
      '/software/solfege/help/../../../secret.txt',
      '/software/solfege/help/%2e%2e/secret.txt',
      '/software/solfege/help/..%2fsecret.txt',
      '/software/solfege/help/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/software/solfege/help//etc/passwd',
      '/software/solfege/help/..%5csecret.txt',
      '/software/solfege/help/%00secret.txt',
    ];
    for (const path of attempts) {
      const res = await get('www.gnu.org', path);
      expect(res.body.toString(), path).not.toContain('outside every site folder');
      expect(res.body.toString(), path).not.toContain('root:');
    }
    // The root site of the same host may serve it: it is inside that site's own folder.
    expect((await get('www.gnu.org', '/secret.txt')).status).toBe(200);
  });

  it('fails fast for an unknown host by resetting the connection', async () => {
    const started = performance.now();
    await expect(get('nowhere.test', '/')).rejects.toMatchObject({
      code: expect.stringMatching(/ECONNRESET|EPIPE/),
    });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(server.stats().unknownHost).toBeGreaterThan(0);
  });

  it('answers 421 for an unknown host when asked to', async () => {
    const other = await startReplayServer({ sites: [], unknownHost: 'misdirected' });
    try {
      const res = await fetchVia({ port: other.port, host: 'nowhere.test' });
      expect(res.status).toBe(421);
    } finally {
      await other.close();
    }
  });

  it('supports HEAD with the length of the body it would send', async () => {
    const res = await get('www.gnu.org', '/software/solfege/help/lessons/intervals.html', 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe('16');
    expect(res.body.length).toBe(0);
    expect(
      (await get('www.gnu.org', '/software/solfege/help/big.txt', 'HEAD')).headers['content-length'],
    ).toBe('300000');
  });

  it('streams files above the cache limit and sets types by extension', async () => {
    const big = await get('www.gnu.org', '/software/solfege/help/big.txt');
    expect(big.body.length).toBe(300_000);
    expect(big.headers['content-type']).toBe('text/plain');
    expect((await get('www.gnu.org', '/software/solfege/help/logo.png')).headers['content-type']).toBe(
      'image/png',
    );
  });

  it('serves robots.txt from the robotsTxt option, else from a root folder, else 404', async () => {
    expect((await get('www.gnu.org', '/robots.txt')).body.toString()).toContain('Allow: /');
    expect((await get('www.debian.org', '/robots.txt')).body.toString()).toContain('Disallow: /nope/');
    expect((await get('docs.example.test', '/robots.txt')).status).toBe(404);
    expect((await get('gen.test', '/robots.txt')).status).toBe(404);
  });

  it('keeps connections alive: 2,000 requests over at most 8 connections', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const count = 2000;
    const started = performance.now();
    const paths = [
      '/software/solfege/help/',
      '/software/solfege/help/lessons/intervals.html',
      '/software/other/',
    ];
    const ports = new Set<string>();
    await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        if (i % 4 === 3) {
          const res = await fetchVia({ port: server.port, host: 'port.test', agent });
          ports.add(res.body.toString());
        } else {
          await fetchVia({ port: server.port, host: 'www.gnu.org', path: paths[i % 3], agent });
        }
      }),
    );
    const perSec = count / ((performance.now() - started) / 1000);
    agent.destroy();
    console.log(`replay server: ${perSec.toFixed(0)} requests/s over 8 keep-alive sockets`);
    expect(ports.size).toBeLessThanOrEqual(8); // 500 requests, at most 8 connections
    // The rate is printed, not asserted (about 6,000/s alone on a 2-core machine): a timed bound
    // failed under load (424/s with benchmarks running beside the suite), and speed belongs in
    // benchmarks.
  });
});
