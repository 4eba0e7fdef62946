/**
 * Small response helpers shared by the replay server, fault sites and generated webs. Bodies are
 * written with an explicit Content-Length so keep-alive connections stay reusable; for HEAD
 * requests Node drops the body itself.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;',
  );
}

/** A minimal UTF-8 HTML document with this title and (already escaped) body markup. */
export function htmlDocument(title: string, bodyHtml: string): string {
  return (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n` +
    `<body>\n${bodyHtml}\n</body></html>\n`
  );
}

/** Sends `body` (string as UTF-8, or bytes) with this status and content type. */
export function sendBody(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string | Buffer,
  headers: OutgoingHttpHeaders = {},
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, { ...headers, 'Content-Type': contentType, 'Content-Length': bytes.length });
  res.end(bytes);
}

/** Sends an HTML page (UTF-8, charset in the header). */
export function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  headers: OutgoingHttpHeaders = {},
): void {
  sendBody(res, status, 'text/html; charset=utf-8', html, headers);
}

/** Sends a small HTML page for a bare status (404, 405, 500 ...). */
export function sendStatus(req: IncomingMessage, res: ServerResponse, status: number): void {
  const reason = STATUS_CODES[status] ?? 'Status';
  const html = htmlDocument(
    `${status} ${reason}`,
    `<h1>${status} ${reason}</h1>\n<p>${escapeHtml(req.url ?? '')}</p>`,
  );
  sendHtml(res, status, html);
}

/** Sends a redirect with this status (301, 302, 307 ...) to `location`. */
export function sendRedirect(res: ServerResponse, status: number, location: string): void {
  res.writeHead(status, { Location: location, 'Content-Length': 0 });
  res.end();
}

/** Query parameter `name` of a request target, or undefined. */
export function queryParam(req: IncomingMessage, name: string): string | undefined {
  const target = req.url ?? '/';
  const q = target.indexOf('?');
  if (q < 0) return undefined;
  return new URLSearchParams(target.slice(q + 1)).get(name) ?? undefined;
}

/**
 * Calls `onClose` once when the response finishes or its connection goes away, so handlers that
 * hold timers (slow, stalling, dripping sites) release them when the client or the server gives up.
 */
export function onGone(res: ServerResponse, onClose: () => void): void {
  let isDone = false;
  const done = () => {
    if (isDone) return;
    isDone = true;
    onClose();
  };
  res.once('close', done);
  res.once('finish', done);
}

/** Destroys a socket with a TCP reset where Node supports it (ECONNRESET on the client). */
export function resetSocket(socket: Socket): void {
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}
