/**
 * Fault sites that misbehave at the transport level: slow answers, stalls, resets, huge bodies
 * and a gzip bomb. See the table in `fault-sites.ts`.
 */
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { HandlerSite } from '../replay/index.js';
import { onGone, queryParam, resetSocket, sendBody, sendHtml, sendStatus } from '../replay/index.js';
import { type FaultSitesOptions, faultSite, okPageHtml } from './fault-page.js';
import { gzipBomb } from './gzip-bomb.js';

type Resolved = Required<FaultSitesOptions>;

/** `slow.fault.test`: `/page?ms=N` answers after N milliseconds. */
export function slowSite(o: Resolved): HandlerSite {
  const host = 'slow.fault.test';
  return faultSite({
    host,
    description: 'Pages that answer after a delay given by ?ms=.',
    links: [
      ['/page?ms=200', 'after 0.2 s'],
      ['/page?ms=3000', 'after 3 s'],
      ['/page?ms=15000', 'after 15 s'],
      ['/page?ms=60000', 'after 60 s'],
      ['/page', `after the default ${o.defaultSlowMs} ms`],
    ],
    handle: (req, res) => {
      const asked = Number(queryParam(req, 'ms') ?? o.defaultSlowMs);
      const delayMs = Math.min(Math.max(Number.isFinite(asked) ? asked : o.defaultSlowMs, 0), o.maxSlowMs);
      const timer = setTimeout(
        () => sendHtml(res, 200, okPageHtml(host, req.url ?? '', `Answered after ${delayMs} ms.`)),
        delayMs,
      );
      onGone(res, () => clearTimeout(timer));
    },
  });
}

/** `stall-headers.fault.test`: accepts the request and never answers. */
export function stallHeadersSite(): HandlerSite {
  const host = 'stall-headers.fault.test';
  return faultSite({
    host,
    description: 'Every other page never sends its status line and headers.',
    links: [
      ['/stall.html', 'a page that never starts'],
      ['/also/stall.html', 'another one'],
    ],
    handle: () => {
      // Nothing: the connection stays open until the client or server.close() ends it.
    },
  });
}

/** `stall-body.fault.test`: sends headers and a first chunk, then one byte every few seconds, forever. */
export function stallBodySite(o: Resolved): HandlerSite {
  const host = 'stall-body.fault.test';
  return faultSite({
    host,
    description: `Pages that drip one byte every ${o.dripIntervalMs} ms, forever.`,
    links: [['/drip.html', 'a page that never ends']],
    handle: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }); // chunked: no length to reach
      res.write('<!DOCTYPE html>\n<html><head><title>Dripping page</title></head><body><p>');
      const timer = setInterval(() => res.write('.'), o.dripIntervalMs);
      onGone(res, () => clearInterval(timer));
    },
  });
}

/** `reset.fault.test`: destroys the connection before the headers or in the middle of the body. */
export function resetSite(): HandlerSite {
  const host = 'reset.fault.test';
  return faultSite({
    host,
    description: 'Connections reset before the headers or mid-body.',
    links: [
      ['/before-headers.html', 'reset before any byte'],
      ['/mid-body.html', 'reset after headers and 1 kB of a 100 kB body'],
    ],
    handle: (req, res, rel) => {
      if (rel === 'mid-body.html') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': 100_000 });
        res.write(`<!DOCTYPE html>\n<html><head><title>Cut short</title></head><body><p>${'x'.repeat(1000)}`);
        // Let the first bytes leave before the reset, so the client sees headers, then ECONNRESET.
        const timer = setTimeout(() => resetSocket(req.socket), 30);
        onGone(res, () => clearTimeout(timer));
        return;
      }
      resetSocket(req.socket);
    },
  });
}

/**
 * Waits until `res` drains or closes, then removes both listeners: leaving the 'close' one on
 * each drain piled up one listener per 64 KiB block on the response (Node's
 * MaxListenersExceededWarning after ten).
 */
function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

/** Writes `totalBytes` of HTML filler to `res`, respecting backpressure; stops if the client leaves. */
async function writeFiller(res: ServerResponse, totalBytes: number): Promise<void> {
  const head = Buffer.from('<!DOCTYPE html>\n<html><head><title>Huge page</title></head><body>\n');
  const line = Buffer.from('<p>This page is far larger than any crawler should read in full.</p>\n');
  const block = Buffer.alloc(64 * 1024);
  for (let at = 0; at < block.length; at += line.length) line.copy(block, at);
  let left = totalBytes;
  const first = head.subarray(0, Math.min(head.length, left));
  res.write(first);
  left -= first.length;
  let isGone = false;
  onGone(res, () => {
    isGone = true;
  });
  while (left > 0 && !isGone) {
    const chunk = block.subarray(0, Math.min(block.length, left));
    left -= chunk.length;
    if (!res.write(chunk)) await drainOrClose(res);
  }
  res.end();
}

/** `huge.fault.test`: a body of `hugeBodyBytes` with and without Content-Length. */
export function hugeSite(o: Resolved): HandlerSite {
  const host = 'huge.fault.test';
  return faultSite({
    host,
    description: `Pages of ${o.hugeBodyBytes} bytes.`,
    links: [
      ['/with-length.html', 'huge page with Content-Length'],
      ['/chunked.html', 'huge page without Content-Length (chunked)'],
    ],
    handle: async (req, res, rel) => {
      if (rel !== 'with-length.html' && rel !== 'chunked.html') return sendStatus(req, res, 404);
      const headers: Record<string, string | number> = { 'Content-Type': 'text/html; charset=utf-8' };
      if (rel === 'with-length.html') headers['Content-Length'] = o.hugeBodyBytes;
      res.writeHead(200, headers);
      if (req.method === 'HEAD') return void res.end();
      await writeFiller(res, o.hugeBodyBytes);
    },
  });
}

/** `bomb.fault.test`: a gzip bomb and, for contrast, a well-behaved gzip page. */
export function bombSite(o: Resolved): HandlerSite {
  const host = 'bomb.fault.test';
  const small = gzipSync(okPageHtml(host, '/small-gzip.html', 'A normal page sent gzip-encoded.'));
  return faultSite({
    host,
    description: `A gzip body that inflates to ${o.bombBytes} zero bytes.`,
    links: [
      ['/bomb.html', 'gzip bomb'],
      ['/small-gzip.html', 'a normal gzip-encoded page'],
    ],
    handle: async (req, res, rel) => {
      const headers = { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' };
      if (rel === 'small-gzip.html') return sendBody(res, 200, 'text/html; charset=utf-8', small, headers);
      if (rel !== 'bomb.html') return sendStatus(req, res, 404);
      sendBody(res, 200, 'text/html', await gzipBomb(o.bombBytes), headers);
    },
  });
}
