import { getEventListeners } from 'node:events';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Clock, ConfigError, RetryLaterError, SkipUrlError, systemClock } from '../common/index.js';
import { Fetcher, type FetcherOptions } from './fetcher.js';
import { sendHtml, startServer, type TestServer } from './test-servers.js';

const BOMB = gzipSync(Buffer.alloc(100 * 1024 * 1024)); // 100 MB of zeros, about 100 KB gzipped

let server: TestServer;
const fetchers: Fetcher[] = [];

function client(options: FetcherOptions = {}, clock?: Clock): Fetcher {
  const f = new Fetcher({ resolveRules: [server.rule], allowLoopback: true, ...options }, { clock });
  fetchers.push(f);
  return f;
}

async function failure(promise: Promise<unknown>): Promise<{ error: unknown; code: string }> {
  try {
    await promise;
  } catch (error) {
    return { error, code: (error as { code?: string }).code ?? 'none' };
  }
  throw new Error('expected the fetch to fail');
}

beforeAll(async () => {
  server = await startServer(async (req, res) => {
    const path = req.url ?? '/';
    const latin1 = Buffer.from('<p>café</p>', 'latin1');
    switch (path) {
      case '/page':
        return sendHtml(res, '<title>Hi</title><p>héllo</p>', 200, { 'x-multi': 'a' });
      case '/stall-headers':
        return; // never answers
      case '/stall-body':
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<p>start');
        return; // never ends
      case '/drip': {
        res.writeHead(200, { 'content-type': 'text/html' });
        const timer = setInterval(() => res.write('.'), 40);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case '/big-declared':
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(2_000_000) });
        res.write('x'.repeat(1000));
        return; // the rest never comes: the client must reject on the header alone
      case '/big-chunked':
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('y'.repeat(300_000));
        return;
      case '/bomb':
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        res.end(BOMB);
        return;
      case '/gzip':
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        res.end(gzipSync('<p>zipped</p>'));
        return;
      case '/image':
        res.writeHead(200, { 'content-type': 'image/png' });
        res.flushHeaders();
        setTimeout(() => res.end(Buffer.alloc(1000)), 3000);
        return;
      case '/no-type':
        res.writeHead(200, {});
        res.end('<!DOCTYPE html><p>sniffed</p>');
        return;
      case '/header-latin1':
        res.writeHead(200, { 'content-type': 'text/html; charset=ISO-8859-1' });
        return res.end(latin1);
      case '/bom':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>café</p>')]));
      case '/meta':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end(Buffer.concat([Buffer.from('<meta charset="windows-1252">'), latin1]));
      case '/http-equiv':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end(
          Buffer.concat([
            Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=latin1">'),
            latin1,
          ]),
        );
      case '/no-charset':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end(Buffer.from('<p>café</p>'));
      case '/bad-label':
        res.writeHead(200, { 'content-type': 'text/html; charset=no-such-charset' });
        return res.end(latin1);
      case '/503':
        res.writeHead(503, { 'retry-after': '120' });
        return res.end('busy');
      case '/429':
        res.writeHead(429, { 'retry-after': 'Wed, 21 Oct 2015 07:30:00 GMT' });
        return res.end();
      case '/503-forever':
        res.writeHead(503, { 'retry-after': '999999' });
        return res.end();
      case '/reset':
        req.socket.resetAndDestroy();
        return;
      case '/dir/redirect':
        res.writeHead(301, { location: '../other?q=1' });
        return res.end();
      case '/missing':
        return sendHtml(res, '<p>not here</p>', 404);
      case '/slow':
        setTimeout(() => sendHtml(res, 'slow'), 100);
        return;
      default:
        return sendHtml(res, 'default');
    }
  });
});

afterAll(async () => {
  await Promise.all(fetchers.map((f) => f.close().catch(() => {})));
  await server.close();
});

describe('Fetcher', () => {
  it('fetches through a resolve rule, keeping the URL and the Host header', async () => {
    const result = await client().fetch('http://site-a.test/page');
    expect(result.status).toBe(200);
    expect(result.url).toBe('http://site-a.test/page');
    expect(result.contentType).toBe('text/html');
    expect(result.charset).toBe('utf-8');
    expect(result.text).toContain('héllo');
    expect(result.headers['x-multi']).toBe('a');
    expect(result.rawHeaders).toContain('x-multi');
    expect(result.remoteAddress).toBe('127.0.0.1');
    expect(result.requestHeaders['user-agent']).toMatch(/^tres\/.*https:\/\//);
    expect(result.requestHeaders.host).toBe('site-a.test');
    expect(result.bytesOnWire).toBe(Buffer.byteLength('<title>Hi</title><p>héllo</p>'));
    const seen = server.requests.at(-1);
    expect(seen?.host).toBe('site-a.test');
    expect(seen?.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('speaks plain HTTP for https URLs of resolved hosts with isHttpsAsHttp', async () => {
    const result = await client({ isHttpsAsHttp: true }).fetch('https://secure.test/page');
    expect(result.url).toBe('https://secure.test/page');
    expect(result.text).toContain('héllo');
    expect(server.requests.at(-1)?.host).toBe('secure.test');
  });

  it('times out stalled headers', async () => {
    const { code, error } = await failure(
      client({ headersTimeoutMs: 200 }).fetch('http://a.test/stall-headers'),
    );
    expect(code).toBe('TRES_HEADERS_TIMEOUT');
    expect(error).toBeInstanceOf(RetryLaterError);
    expect((error as RetryLaterError).context).toMatchObject({
      url: 'http://a.test/stall-headers',
      host: 'a.test',
    });
  });

  it('times out a body that stops arriving', async () => {
    const { code } = await failure(client({ bodyTimeoutMs: 200 }).fetch('http://a.test/stall-body'));
    expect(code).toBe('TRES_BODY_TIMEOUT');
  });

  it('stops a body dripped a byte at a time at totalTimeoutMs', async () => {
    const start = performance.now();
    const { code } = await failure(client({ totalTimeoutMs: 400 }).fetch('http://a.test/drip'));
    expect(code).toBe('TRES_TOTAL_TIMEOUT');
    expect(performance.now() - start).toBeLessThan(2000);
  });

  it('rejects a body over maxBodyBytes from its Content-Length without reading it', async () => {
    const { code, error } = await failure(
      client({ maxBodyBytes: 100_000 }).fetch('http://a.test/big-declared'),
    );
    expect(code).toBe('TRES_BODY_TOO_LARGE');
    expect(error).toBeInstanceOf(SkipUrlError);
  });

  it('aborts a chunked body once it passes maxBodyBytes', async () => {
    const { code } = await failure(client({ maxBodyBytes: 100_000 }).fetch('http://a.test/big-chunked'));
    expect(code).toBe('TRES_BODY_TOO_LARGE');
  });

  it('keeps the first maxBodyBytes when truncation is asked for', async () => {
    const result = await client({ maxBodyBytes: 1000 }).fetch('http://a.test/big-chunked', {
      shouldTruncateBody: true,
    });
    expect(result.body.length).toBe(1000);
    expect(result.isTruncated).toBe(true);
  });

  it('stops a gzip bomb at maxDecompressedBytes', async () => {
    const { code } = await failure(client().fetch('http://a.test/bomb'));
    expect(code).toBe('TRES_DECOMPRESSION_BOMB');
  });

  it('decompresses gzip bodies and keeps the raw bytes', async () => {
    const result = await client().fetch('http://a.test/gzip');
    expect(result.text).toBe('<p>zipped</p>');
    expect(result.rawBody.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  it('skips a disallowed content type without waiting for the body', async () => {
    const start = performance.now();
    const { code } = await failure(client().fetch('http://a.test/image'));
    expect(code).toBe('TRES_CONTENT_TYPE');
    expect(performance.now() - start).toBeLessThan(2000);
  });

  it('sniffs HTML when Content-Type is missing', async () => {
    const result = await client().fetch('http://a.test/no-type');
    expect(result.contentType).toBe('text/html');
    expect(result.text).toContain('sniffed');
  });

  it.each([
    ['/header-latin1', 'windows-1252'],
    ['/bom', 'utf-8'],
    ['/meta', 'windows-1252'],
    ['/http-equiv', 'windows-1252'],
    ['/no-charset', 'utf-8'],
    ['/bad-label', 'windows-1252'],
  ])('decodes %s as %s', async (path, charset) => {
    const result = await client().fetch(`http://a.test${path}`);
    expect(result.charset).toBe(charset);
    expect(result.text).toContain('café');
    expect(result.text).not.toContain('\ufeff');
  });

  it('throws RetryLaterError with Retry-After seconds for 5xx', async () => {
    const { error, code } = await failure(client().fetch('http://a.test/503'));
    expect(code).toBe('TRES_HTTP_5XX');
    expect((error as RetryLaterError).retryAfterMs).toBe(120_000);
    expect((error as RetryLaterError).context.status).toBe(503);
  });

  it('throws RetryLaterError with a Retry-After date for 429, relative to the clock', async () => {
    const clock: Clock = { ...systemClock, now: () => Date.parse('Wed, 21 Oct 2015 07:29:00 GMT') };
    const { error, code } = await failure(client({}, clock).fetch('http://a.test/429'));
    expect(code).toBe('TRES_HTTP_429');
    expect((error as RetryLaterError).retryAfterMs).toBe(60_000);
  });

  it('caps Retry-After at maxRetryAfterMs', async () => {
    const { error } = await failure(client().fetch('http://a.test/503-forever'));
    expect((error as RetryLaterError).retryAfterMs).toBe(3_600_000);
  });

  it('reports a connection reset as retryable', async () => {
    const { code, error } = await failure(client().fetch('http://a.test/reset'));
    expect(code).toBe('TRES_CONNECTION_RESET');
    expect((error as Error).cause).toBeDefined();
  });

  it('reports a refused connection as retryable', async () => {
    const closed = await startServer(() => {});
    await closed.close();
    const f = client({ resolveRules: [closed.rule] });
    const { code } = await failure(f.fetch('http://a.test/'));
    expect(code).toBe('TRES_CONNECTION_REFUSED');
  });

  it('returns redirects with an absolute location instead of following them', async () => {
    const result = await client().fetch('http://a.test/dir/redirect');
    expect(result.status).toBe(301);
    expect(result.location).toBe('http://a.test/other?q=1');
  });

  it('returns 404 as a result', async () => {
    const result = await client().fetch('http://a.test/missing');
    expect(result.status).toBe(404);
    expect(result.text).toContain('not here');
  });

  it('uses one connection per host by default', async () => {
    const before = server.connections;
    const requestsBefore = server.requests.length;
    const f = client();
    await Promise.all([1, 2, 3].map(() => f.fetch('http://one.test/slow')));
    expect(server.connections - before).toBe(1);
    const mine = server.requests.slice(requestsBefore);
    expect(new Set(mine.map((r) => r.connection)).size).toBe(1);
    // Requests were sent one after another, not overlapping on the server.
    for (let i = 1; i < mine.length; i++) {
      expect((mine[i]?.atMs ?? 0) - (mine[i - 1]?.atMs ?? 0)).toBeGreaterThanOrEqual(90);
    }
  });

  it('refuses a resolved loopback address unless allowLoopback', async () => {
    const before = server.connections;
    const { code } = await failure(client({ allowLoopback: false }).fetch('http://a.test/page'));
    expect(code).toBe('TRES_ADDRESS_BLOCKED');
    expect(server.connections).toBe(before);
  });

  it('refuses a host name whose DNS answer is loopback', async () => {
    const f = client({ allowLoopback: false, resolveRules: [] });
    const { code } = await failure(f.fetch(`http://localhost:${server.port}/page`));
    expect(code).toBe('TRES_ADDRESS_BLOCKED');
  });

  it('skips URLs with unknown hosts as TRES_DNS', async () => {
    const { code } = await failure(client({ resolveRules: [] }).fetch('http://no-such-host.invalid/'));
    expect(code).toBe('TRES_DNS');
  });

  it('skips non-http URLs', async () => {
    const { code } = await failure(client().fetch('ftp://a.test/file'));
    expect(code).toBe('TRES_UNSUPPORTED_SCHEME');
  });

  it('throws the caller abort reason when the signal aborts', async () => {
    const reason = new Error('stop');
    const { error } = await failure(
      client().fetch('http://a.test/stall-headers', { signal: AbortSignal.abort(reason) }),
    );
    expect(error).toBe(reason);
  });

  it('throws the caller abort reason when the signal aborts in flight', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const pending = failure(client().fetch('http://a.test/stall-headers', { signal: controller.signal }));
    setTimeout(() => controller.abort(reason), 50);
    expect((await pending).error).toBe(reason);
  });

  it("removes its abort listener from the caller's signal once a fetch is over", async () => {
    const controller = new AbortController();
    const f = client();
    for (let i = 0; i < 3; i++) await f.fetch('http://site-a.test/page', { signal: controller.signal });
    expect((await failure(f.fetch('http://a.test/503', { signal: controller.signal }))).code).toBe(
      'TRES_HTTP_5XX',
    );
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('validates options once, naming the field', () => {
    expect(() => new Fetcher({ userAgent: 'mybot/1.0' })).toThrow(/userAgent.*contact/);
    expect(() => new Fetcher({ userAgent: 'mybot/1.0', shouldRequireContact: false })).not.toThrow();
    expect(() => new Fetcher({ maxBodyBytes: -1 })).toThrow(ConfigError);
    expect(() => new Fetcher({ totalTimeoutMs: 0 })).toThrow(/totalTimeoutMs/);
    expect(() => new Fetcher({ resolveRules: ['nonsense'] })).toThrow(/HOST=ADDR/);
  });
});
