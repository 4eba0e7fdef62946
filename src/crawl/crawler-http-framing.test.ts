import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../index.js';

/** What each host answers to a GET of `/`, byte for byte (robots.txt is a plain 404 everywhere). */
const ANSWERS: Record<string, string> = {
  'negative-length.framing.test':
    'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: -5\r\n\r\nhello',
  'http09.framing.test': '<html><body><p>an HTTP/0.9 reply has no status line</p></body></html>\r\n',
  'duplicate-length.framing.test':
    'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!',
  'length-and-chunked.framing.test':
    'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
  'bad-chunk-size.framing.test':
    'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n',
  // Well framed but cut short: a transient failure, retried.
  'cut-short.framing.test':
    'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\nContent-Length: 50\r\n\r\n<p>hello',
};
const NOT_FOUND = 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n';
const MALFORMED = Object.keys(ANSWERS).filter((host) => host !== 'cut-short.framing.test');

describe('responses that break HTTP framing', () => {
  let server: Server;
  const sockets = new Set<Socket>();
  /** GETs of `/` seen per host. */
  const pageRequests = new Map<string, number>();
  const base = tempDir('tres-framing-');
  let codes: Map<string, string | null>;
  const retried: string[] = [];

  beforeAll(async () => {
    // A raw socket server: node:http would refuse to write these bytes.
    server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
      let head = '';
      socket.on('data', (chunk) => {
        head += chunk.toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        const path = /^GET (\S+) /.exec(head)?.[1] ?? '';
        const host = (/\r\nhost: ([^\r:]+)/i.exec(head)?.[1] ?? '').toLowerCase();
        head = '';
        if (path !== '/') {
          socket.end(NOT_FOUND, 'latin1');
          return;
        }
        pageRequests.set(host, (pageRequests.get(host) ?? 0) + 1);
        socket.end(ANSWERS[host] ?? NOT_FOUND, 'latin1');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const outDir = join(base, 'crawl');
    const crawler = new Crawler({
      outDir,
      strategy: 'bfs',
      keywords: ['hello'],
      maxPages: 20,
      maxConcurrency: 4,
      maxRetries: 2,
      net: { minDelayMs: 0, resolveRules: [`*=127.0.0.1:${port}`], allowLoopback: true },
    });
    crawler.on('retry', (event) => retried.push(event.url));
    await crawler.run(Object.keys(ANSWERS).map((host) => `http://${host}/`));
    const db = new Database(join(outDir, 'crawl.sqlite'), { readonly: true });
    try {
      const rows = db.prepare('SELECT url, error_code FROM pages').all() as {
        url: string;
        error_code: string | null;
      }[];
      codes = new Map(rows.map((r) => [new URL(r.url).hostname, r.error_code]));
    } finally {
      db.close();
    }
  }, 60_000);
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it.each(MALFORMED)('records %s as TRES_HTTP_PROTOCOL after one attempt', (host) => {
    expect(codes.get(host)).toBe('TRES_HTTP_PROTOCOL');
    expect(pageRequests.get(host)).toBe(1);
    expect(retried.filter((url) => url === `http://${host}/`)).toEqual([]);
  });

  it('retries a well-framed body cut short as TRES_CONNECTION_CLOSED', () => {
    expect(codes.get('cut-short.framing.test')).toBe('TRES_CONNECTION_CLOSED');
    expect(pageRequests.get('cut-short.framing.test')).toBe(3);
  });
});
