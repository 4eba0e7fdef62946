/**
 * A link farm: a hostile web whose every page links to `linksPerPage` host names never seen
 * before (h1.farm.test, h2.farm.test, ... numbered without end), served by one plain HTTP server
 * on loopback that keeps every idle keep-alive connection open for `keepAliveMs`. A crawler that
 * keeps one idle connection per host and queues every URL it is offered runs out of file
 * descriptors and memory on it; `tres crawl` reaches it through the resolve rule `*=ADDR:PORT`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** Options of {@link startLinkFarm}. */
export interface LinkFarmOptions {
  /** New host names each page links to. @default 300 */
  linksPerPage?: number;
  /** How long the server keeps an idle keep-alive connection open, in ms. @default 60_000 */
  keepAliveMs?: number;
  /** Port on 127.0.0.1; 0 picks a free one. @default 0 */
  port?: number;
}

/** A running link farm. */
export interface LinkFarm {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  port: number;
  /** The first page: http://h0.farm.test/. */
  seedUrl: string;
  /** Connections open now (server side). */
  openConnections(): number;
  /** Most connections open at once so far (server side). */
  peakConnections(): number;
  /** Pages served (robots.txt excluded). */
  pagesServed(): number;
  /** performance.now() of the last request received (robots.txt included); 0 before the first. */
  lastRequestMs(): number;
  close(): Promise<void>;
}

/** The host number of `h123.farm.test`, or -1. */
function hostNumber(host: string | undefined): number {
  const m = /^h(\d+)\.farm\.test(?::\d+)?$/i.exec(host ?? '');
  return m ? Number(m[1]) : -1;
}

/** Starts a link farm on 127.0.0.1. */
export async function startLinkFarm(options: LinkFarmOptions = {}): Promise<LinkFarm> {
  const linksPerPage = options.linksPerPage ?? 300;
  const keepAliveMs = options.keepAliveMs ?? 60_000;
  const sockets = new Set<Socket>();
  let peak = 0;
  let pages = 0;
  let lastRequestMs = 0;
  const server: Server = createServer({ keepAliveTimeout: keepAliveMs }, (req, res) => {
    lastRequestMs = performance.now();
    const n = hostNumber(req.headers.host);
    if (req.url === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      return;
    }
    if (n < 0) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not a farm host');
      return;
    }
    pages++;
    // Host n links to hosts n * linksPerPage + 1 ... (n + 1) * linksPerPage: every name new.
    const links: string[] = [];
    for (let i = 1; i <= linksPerPage; i++)
      links.push(`<a href="http://h${n * linksPerPage + i}.farm.test/">farm link ${i}</a>`);
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html><head><title>farm ${n}</title></head><body><p>hardware cpu farm page ${n}</p>${links.join(' ')}</body></html>`,
      );
  });
  server.headersTimeout = keepAliveMs + 1000;
  server.requestTimeout = 0;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    peak = Math.max(peak, sockets.size);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seedUrl: 'http://h0.farm.test/',
    openConnections: () => sockets.size,
    peakConnections: () => peak,
    pagesServed: () => pages,
    lastRequestMs: () => lastRequestMs,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
