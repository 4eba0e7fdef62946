import { type IncomingMessage, request } from 'node:http';
import { createGunzip, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReplayServer, startReplayServer } from '../replay/index.js';
import { fetchVia } from '../replay/test-client.js';
import { CHARSET_PAGES, decodeWindows1252, encodeWindows1252 } from './charset-pages.js';
import { BROKEN_HTML_PAGES, FAULT_ROBOTS_TXT, ROBOTS_VIOLATION_MARKER } from './fault-content.js';
import { faultSites } from './fault-sites.js';

let server: ReplayServer;
const DRIP_MS = 100;

beforeAll(async () => {
  server = await startReplayServer({ sites: faultSites({ dripIntervalMs: DRIP_MS }) });
});
afterAll(async () => {
  await server.close();
});

const get = (host: string, path = '/', timeoutMs = 5000) =>
  fetchVia({ port: server.port, host, path, timeoutMs });

/** Opens a request and resolves with the response as soon as the headers arrive. */
function openResponse(host: string, path: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path, headers: { Host: host }, agent: false },
      resolve,
    );
    req.on('error', reject);
    req.end();
  });
}

/** Collects body bytes until the stream ends or errors; returns how many arrived and how it ended. */
function drain(res: IncomingMessage): Promise<{ bytes: number; error?: NodeJS.ErrnoException }> {
  return new Promise((resolve) => {
    let bytes = 0;
    res.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    res.on('end', () => resolve({ bytes }));
    res.on('error', (error) => resolve({ bytes, error }));
  });
}

describe('faultSites', () => {
  it('links every fault site from index.fault.test, and every site index links its faults', async () => {
    const index = (await get('index.fault.test')).body.toString();
    const hosts = new Set([...index.matchAll(/href="http:\/\/([^/]+)\//g)].map((m) => m[1] as string));
    expect(hosts.size).toBe(16); // 15 fault sites and the index itself (its "All fault sites" link)
    for (const host of hosts) {
      const res = await get(host);
      expect(res.status, host).toBe(200);
      expect((res.body.toString().match(/<a href=/g) ?? []).length, host).toBeGreaterThanOrEqual(2);
      expect((await get(host, '/robots.txt')).status, host).toBe(host === 'robots.fault.test' ? 200 : 404);
    }
  });

  it('slow.fault.test answers after ?ms= milliseconds', async () => {
    const res = await get('slow.fault.test', '/page?ms=300');
    expect(res.status).toBe(200);
    expect(res.elapsedMs).toBeGreaterThanOrEqual(290);
    expect(res.elapsedMs).toBeLessThan(2000);
    await expect(get('slow.fault.test', '/page?ms=60000', 200)).rejects.toThrow('timeout');
  });

  it('stall-headers.fault.test never sends headers', async () => {
    const started = performance.now();
    await expect(get('stall-headers.fault.test', '/stall.html', 300)).rejects.toThrow('timeout');
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('stall-body.fault.test sends headers, then drips bytes without ending', async () => {
    const res = await openResponse('stall-body.fault.test', '/drip.html');
    expect(res.statusCode).toBe(200);
    let bytes = 0;
    let hasEnded = false;
    res.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    res.on('end', () => {
      hasEnded = true;
    });
    await new Promise((resolve) => setTimeout(resolve, DRIP_MS * 5));
    const firstChunkBytes = '<!DOCTYPE html>\n<html><head><title>Dripping page</title></head><body><p>'
      .length;
    expect(bytes).toBeGreaterThanOrEqual(firstChunkBytes + 2);
    expect(hasEnded).toBe(false);
    res.destroy();
  });

  it('reset.fault.test resets before headers, or after headers mid-body', async () => {
    await expect(get('reset.fault.test', '/before-headers.html')).rejects.toMatchObject({
      code: 'ECONNRESET',
    });
    const res = await openResponse('reset.fault.test', '/mid-body.html');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe('100000');
    const { bytes, error } = await drain(res);
    expect(error).toBeDefined();
    expect(bytes).toBeLessThan(100_000);
  });

  it('error500.fault.test answers 500 for every page but the index', async () => {
    expect((await get('error500.fault.test', '/a.html')).status).toBe(500);
    expect((await get('error500.fault.test', '/anything/else')).status).toBe(500);
  });

  it('flaky503.fault.test answers 503 twice per path, then 200', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get('flaky503.fault.test', '/a.html')).status);
    expect(statuses).toEqual([503, 503, 200]);
    expect((await get('flaky503.fault.test', '/b.html')).status).toBe(503);
  });

  it('ratelimit.fault.test answers 429 with Retry-After: 1 once per path, then 200', async () => {
    const first = await get('ratelimit.fault.test', '/a.html');
    expect(first.status).toBe(429);
    expect(first.headers['retry-after']).toBe('1');
    expect((await get('ratelimit.fault.test', '/a.html')).status).toBe(200);
    expect((await get('ratelimit.fault.test', '/b.html')).status).toBe(429);
  });

  it('redirect-loop.fault.test redirects /a -> /b -> /a and /self to itself', async () => {
    expect((await get('redirect-loop.fault.test', '/a')).headers.location).toBe('/b');
    expect((await get('redirect-loop.fault.test', '/b')).headers.location).toBe('/a');
    expect((await get('redirect-loop.fault.test', '/self')).headers.location).toBe('/self');
  });

  it('redirect-chain.fault.test takes N hops from /r/N to the page /r/0', async () => {
    const follow = async (path: string, maxRedirects: number) => {
      let hops = 0;
      for (let at = path; ; hops++) {
        const res = await get('redirect-chain.fault.test', at);
        if (res.status === 200) return hops;
        if (hops === maxRedirects) throw new Error('too many redirects');
        expect([301, 302, 307, 308]).toContain(res.status);
        at = res.headers.location as string;
      }
    };
    expect(await follow('/r/5', 5)).toBe(5);
    await expect(follow('/r/7', 5)).rejects.toThrow('too many redirects');
    expect(await follow('/r/7', 10)).toBe(7);
    expect((await get('redirect-chain.fault.test', '/r/101')).status).toBe(404);
  });

  it('huge.fault.test sends 50 MiB with and without Content-Length, leaving no listener behind', async () => {
    // A listener left on the response at each wait for 'drain' made Node warn (MaxListenersExceededWarning).
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const sized = await openResponse('huge.fault.test', '/with-length.html');
      expect(sized.headers['content-length']).toBe(String(50 * 1024 * 1024));
      expect((await drain(sized)).bytes).toBe(50 * 1024 * 1024);
      const chunked = await openResponse('huge.fault.test', '/chunked.html');
      expect(chunked.headers['content-length']).toBeUndefined();
      expect(chunked.headers['transfer-encoding']).toBe('chunked');
      expect((await drain(chunked)).bytes).toBe(50 * 1024 * 1024);
      await new Promise((resolve) => setTimeout(resolve, 10)); // warnings are emitted on a later tick
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
  });

  it('bomb.fault.test sends about 1 MB of gzip that inflates to 1 GiB of zeros', async () => {
    const res = await get('bomb.fault.test', '/bomb.html', 10_000);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.body.length).toBeLessThan(1.2e6);
    expect(res.body.readUInt32LE(res.body.length - 4)).toBe(1024 ** 3); // gzip ISIZE trailer
    // Inflate the first 64 MiB only, to keep the test quick.
    const gunzip = createGunzip();
    let inflated = 0;
    let isAllZero = true;
    await new Promise<void>((resolve, reject) => {
      gunzip.on('data', (chunk: Buffer) => {
        inflated += chunk.length;
        if (chunk.some((byte) => byte !== 0)) isAllZero = false;
        if (inflated >= 64 * 1024 * 1024) {
          gunzip.destroy();
          resolve();
        }
      });
      gunzip.on('error', reject);
      gunzip.end(res.body);
    });
    expect(isAllZero).toBe(true);
    const small = await get('bomb.fault.test', '/small-gzip.html');
    expect(gunzipSync(small.body).toString()).toContain('A normal page sent gzip-encoded.');
  });

  it('charset.fault.test serves known text in the declared (or misdeclared) encodings', async () => {
    for (const page of CHARSET_PAGES) {
      const res = await get('charset.fault.test', page.path);
      expect(res.headers['content-type'], page.path).toBe(page.contentType);
      expect(res.body.equals(page.body), page.path).toBe(true);
    }
    const [cp1252, latin1, bom, sjis] = CHARSET_PAGES as [
      (typeof CHARSET_PAGES)[0],
      (typeof CHARSET_PAGES)[0],
      (typeof CHARSET_PAGES)[0],
      (typeof CHARSET_PAGES)[0],
    ];
    expect(decodeWindows1252(cp1252.body)).toContain(cp1252.expectedText);
    expect(cp1252.body.includes(0x80)).toBe(true); // the euro sign is really in the 0x80-0x9F range
    expect(latin1.body.toString('latin1')).toContain(latin1.expectedText);
    expect(latin1.body.toString('utf8')).toContain('\ufffd'); // what trusting the header gives
    expect([...bom.body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bom.body.toString('utf8')).toContain(bom.expectedText);
    expect(new TextDecoder('shift_jis').decode(sjis.body)).toContain(sjis.expectedText);
    expect(() => encodeWindows1252('日')).toThrow(RangeError);
  });

  it('broken-html.fault.test pages hold their links and every link target exists', async () => {
    for (const page of BROKEN_HTML_PAGES) {
      const res = await get('broken-html.fault.test', page.path);
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe(page.html);
      for (const href of page.expectedHrefs) {
        expect(page.html).toContain(href);
        expect((await get('broken-html.fault.test', href)).status, href).toBe(200);
      }
    }
    expect(BROKEN_HTML_PAGES.find((p) => p.path === '/nul-bytes.html')?.html).toContain('\u0000');
  });

  it('robots.fault.test disallows /private/ with a Crawl-delay while its pages link there', async () => {
    expect((await get('robots.fault.test', '/robots.txt')).body.toString()).toBe(FAULT_ROBOTS_TXT);
    expect((await get('robots.fault.test', '/public/a.html')).body.toString()).toContain('href="/private/');
    expect((await get('robots.fault.test', '/private/secret.html')).body.toString()).toContain(
      ROBOTS_VIOLATION_MARKER,
    );
  });

  it('binary.fault.test serves a PNG, a PDF and a PNG mislabelled as HTML', async () => {
    const png = await get('binary.fault.test', '/image.png');
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.body.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    const pdf = await get('binary.fault.test', '/paper.pdf');
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
    const fake = await get('binary.fault.test', '/mislabelled.html');
    expect(fake.headers['content-type']).toBe('text/html');
    expect(fake.body.equals(png.body)).toBe(true);
  });

  it('closes promptly while stalled and dripping connections are open', async () => {
    const other = await startReplayServer({ sites: faultSites({ dripIntervalMs: DRIP_MS }) });
    const stalled = fetchVia({
      port: other.port,
      host: 'stall-headers.fault.test',
      path: '/x',
      timeoutMs: 10_000,
    });
    stalled.catch(() => {});
    const dripping = await new Promise<IncomingMessage>((resolve) => {
      request(
        {
          host: '127.0.0.1',
          port: other.port,
          path: '/drip.html',
          headers: { Host: 'stall-body.fault.test' },
        },
        resolve,
      ).end();
    });
    dripping.on('error', () => {});
    dripping.resume();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await other.close();
    expect(performance.now() - started).toBeLessThan(1000);
    await expect(stalled).rejects.toBeDefined();
  });
});
