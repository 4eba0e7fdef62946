import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocweb } from './build.js';
import { type DocwebServer, docwebResolveFlag, startDocweb } from './docweb-server.js';
import { type DocwebFixture, fixtureBuildOptions, makeDocwebFixture } from './test-fixture.js';

let fx: DocwebFixture;
let server: DocwebServer;

beforeAll(async () => {
  fx = makeDocwebFixture();
  await buildDocweb(fixtureBuildOptions(fx));
  server = await startDocweb({ cacheDir: fx.cacheDir, port: 0 });
});
afterAll(async () => {
  await server?.close();
  fx?.cleanup();
});

interface Reply {
  status: number;
  location?: string;
  body: string;
}

/** A request as `tres crawl --https-as-http` makes it for an https:// URL (`scheme` 'http': as for http://). */
function get(host: string, path: string, scheme: 'http' | 'https' = 'https'): Promise<Reply> {
  return new Promise((resolveGet, reject) => {
    const headers = scheme === 'https' ? { host, 'x-forwarded-proto': 'https' } : { host };
    const req = request({ host: '127.0.0.1', port: server.port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolveGet({
          status: res.statusCode ?? 0,
          location: res.headers.location,
          body: Buffer.concat(chunks).toString('latin1'),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('startDocweb', () => {
  it('is https only, as real sites are: a page asked for as http gets a 301 to its https address', async () => {
    expect(await get('hw.example', '/drivers/usb.html', 'http')).toMatchObject({
      status: 301,
      location: 'https://hw.example/drivers/usb.html',
    });
    expect((await get('hw.example', '/drivers/usb.html', 'https')).status).toBe(200);
  });

  it('serves pages by Host header and longest prefix, on loopback, with the flags for tres crawl', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.crawlFlags).toEqual([
      '--resolve',
      // Served hosts, then their www. spellings (which answer a redirect), then nothing else.
      [
        ...['hw.example', 'www.shared.example', 'shared.example', 'www.hw.example'].map(
          (h) => `${h}=127.0.0.1:${server.port}`,
        ),
        '*=none',
      ].join(','),
      '--https-as-http',
      '--allow-loopback',
    ]);
    expect(server.siteCount).toBe(3);
    expect(server.pageCount).toBe(14);
    expect((await get('hw.example', '/drivers/usb.html')).body).toContain('<title>USB</title>');
    expect((await get('www.shared.example', '/stats/manual/regression.html')).body).toContain(
      'Linear regression',
    );
    expect((await get('www.shared.example', '/music/Documentation/notes.html')).body).toContain('caf\u00e9');
  });

  it('serves a folder URL from its index.html and redirects the slashless form', async () => {
    expect((await get('hw.example', '/drivers/')).body).toContain('<title>Drivers</title>');
    expect(await get('hw.example', '/drivers')).toMatchObject({ status: 301, location: '/drivers/' });
  });

  it("redirects / to the host's first prefix", async () => {
    expect(await get('www.shared.example', '/')).toMatchObject({ status: 301, location: '/stats/manual/' });
  });

  it('serves the base-href page and the meta-refresh root as they are', async () => {
    expect((await get('www.shared.example', '/stats/manual/sub/base.html')).body).toContain(
      '<base href="../">',
    );
    const root = await get('www.shared.example', '/music/');
    expect(root.status).toBe(200);
    expect(root.body).toContain('http-equiv="refresh"');
  });

  it('answers 404 inside excluded giant trees, as the page table leaves them out', async () => {
    expect((await get('hw.example', '/giant/gen1.html')).status).toBe(404);
    expect((await get('hw.example', '/giant/deeper/gen2.html')).status).toBe(404);
    expect((await get('hw.example', '/api/class-use/Thing.html')).status).toBe(404);
    expect((await get('hw.example', '/nothing.html')).status).toBe(404);
  });

  it("serves the manifest's robots.txt in place of the package's own", async () => {
    expect((await get('hw.example', '/robots.txt')).body).toBe('User-agent: *\nDisallow:\n');
    expect((await get('www.shared.example', '/robots.txt')).status).toBe(404);
  });

  it('fails fast for a host outside the DocWeb (connection reset)', async () => {
    await expect(get('elsewhere.example', '/')).rejects.toThrow(/ECONNRESET|socket hang up/);
  });
});

describe('docwebResolveFlag', () => {
  it('lists the served hosts of a small web and sends every host to the server beyond 100', () => {
    const hosts = (n: number) => Array.from({ length: n }, (_, i) => `h${i}.example`);
    expect(docwebResolveFlag({ hosts: hosts(2), aliasHosts: [], port: 8080 })).toBe(
      'h0.example=127.0.0.1:8080,h1.example=127.0.0.1:8080,*=none',
    );
    expect(docwebResolveFlag({ hosts: hosts(100), aliasHosts: [], port: 8080 })).toContain('*=none');
    expect(docwebResolveFlag({ hosts: hosts(90), aliasHosts: hosts(11), port: 8080 })).toBe(
      '*=127.0.0.1:8080',
    );
  });
});
