/**
 * The dashboard server (plain node:http): the page and its files, the REST API (JSON, described
 * in static/openapi.json) and Prometheus `/metrics`. It runs in the crawl's process and only
 * reads what the monitor sampled and the store holds; nothing it does sits on the crawl's path.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../common/index.js';
import type { PageQuery } from '../store/index.js';
import { hostOfHeader, isLoopbackHost, isTokenValid, newToken, requestToken } from './auth.js';
import type { DashboardSource } from './dashboard-source.js';
import { createMetricsRegistry } from './metrics.js';
import { readStatic, staticRoutes } from './static-files.js';

/** Options of {@link startDashboard}. */
export interface DashboardOptions {
  /** Address to bind. Anything but loopback requires a token. @default '127.0.0.1' */
  host?: string;
  /** TCP port; 0 picks a free one. @default 7373 */
  port?: number;
  /**
   * Token required on every API and metrics request. Generated when the address is not
   * loopback and none is given; `false` never requires one (loopback only).
   * @default undefined (generated only off loopback)
   */
  token?: string | false;
}

/** Defaults of {@link DashboardOptions}. */
export const DEFAULT_DASHBOARD_OPTIONS = { host: '127.0.0.1', port: 7373 };

/** A running dashboard. */
export interface Dashboard {
  /** `http://host:port/` (with `?token=` when one is required). */
  url: string;
  host: string;
  port: number;
  /** The token required, if any (print it once). */
  token: string | undefined;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Starts the dashboard of `source`.
 * @throws ConfigError if `token` is false with a non-loopback host, or the port is in use.
 */
export async function startDashboard(
  source: DashboardSource,
  options: DashboardOptions = {},
): Promise<Dashboard> {
  const host = options.host ?? DEFAULT_DASHBOARD_OPTIONS.host;
  const port = options.port ?? DEFAULT_DASHBOARD_OPTIONS.port;
  const isLoopback = isLoopbackHost(host);
  if (options.token === false && !isLoopback) {
    throw new ConfigError(`the dashboard on ${host} (not loopback) requires a token`, {
      context: { field: 'uiHost' },
    });
  }
  const token =
    options.token === false ? undefined : (options.token ?? (isLoopback ? undefined : newToken()));
  const registry = createMetricsRegistry(source.monitor, {
    values: () => {
      const s = source.status();
      const f = source.feedbackStatus();
      return {
        'crawl/is_paused': s.state === 'paused' ? 1 : 0,
        'feedback/judge_version': s.judgeVersion,
        ...(f ? { 'feedback/labels': f.labels, 'feedback/is_training': f.isTraining ? 1 : 0 } : {}),
      };
    },
  });
  const routes = staticRoutes();
  const cache = new Map<string, Buffer>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://dashboard');
    securityHeaders(res);
    // Bound to loopback without a token: only requests addressed to loopback (DNS rebinding).
    if (token === undefined && !isLoopbackHost(hostOfHeader(req.headers.host))) {
      throw new HttpError(403, 'this dashboard answers requests to a loopback address only');
    }
    const file = routes.get(url.pathname);
    if (file && url.pathname !== '/api/openapi.json') {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, 'GET only');
      const { type, body } = readStatic(file, cache);
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache' });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    if (!url.pathname.startsWith('/api/') && url.pathname !== '/metrics')
      throw new HttpError(404, 'not found');
    if (token !== undefined && !isTokenValid(requestToken(req, url), token)) {
      res.setHeader('www-authenticate', 'Bearer');
      throw new HttpError(401, 'a valid token is required (Authorization: Bearer TOKEN, or ?token=TOKEN)');
    }
    if (url.pathname === '/metrics') {
      if (req.method !== 'GET') throw new HttpError(405, 'GET only');
      const text = await registry.metrics();
      res.writeHead(200, { 'content-type': registry.contentType });
      res.end(text);
      return;
    }
    if (file) {
      const { type, body } = readStatic(file, cache);
      res.writeHead(200, { 'content-type': type });
      res.end(body);
      return;
    }
    const body = await apiRoute(source, req, url);
    sendJson(res, 200, body);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : error instanceof ConfigError ? 400 : 500;
      const message = error instanceof Error ? error.message : String(error);
      if (!res.headersSent) sendJson(res, status, { error: message });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'EADDRINUSE'
          ? new ConfigError(
              `--ui-port: port ${port} on ${host} is in use; choose another, such as --ui-port ${port + 1}, or --ui-port 0 for any free port`,
              {
                context: { field: 'uiPort' },
                cause: e,
              },
            )
          : e,
      ),
    );
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${bound}/${token ? `?token=${token}` : ''}`,
    host,
    port: bound,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** GET reads, POST changes; every other method on an API path is refused. */
async function apiRoute(source: DashboardSource, req: IncomingMessage, url: URL): Promise<unknown> {
  const path = url.pathname;
  const gets: Record<string, () => unknown> = {
    '/api/status': () => source.status(),
    '/api/config': () => source.config(),
    '/api/metrics': () => ({
      samples: source.monitor.samples(),
      topDomains: source.monitor.topDomains(20),
      failures: source.monitor.failureReasons(),
      strategyStats: source.status().progress?.strategyStats ?? {},
      recentPages: source.monitor.recentPages(),
    }),
    '/api/pages': () => source.queryPages(pageQuery(url.searchParams)),
    '/api/labels': () => source.labels(),
    '/api/feedback': () => source.feedbackStatus(),
    '/api/questions': () => source.questions(),
  };
  const posts: Record<string, (body: Record<string, unknown>) => unknown> = {
    '/api/pause': () => controls(source).pause(),
    '/api/resume': () => controls(source).resume(),
    '/api/stop': () => controls(source).stop(),
    '/api/seeds': (body) => {
      const urls = body.urls;
      if (!Array.isArray(urls) || urls.length === 0 || urls.some((u) => typeof u !== 'string'))
        throw new HttpError(400, 'body must be {"urls": ["https://...", ...]}');
      return { added: controls(source).addSeeds(urls as string[]) };
    },
    '/api/labels': (body) => {
      const { pageId, isRelevant } = body;
      if (!Number.isInteger(pageId) || typeof isRelevant !== 'boolean')
        throw new HttpError(400, 'body must be {"pageId": <integer>, "isRelevant": true|false}');
      return feedback(source).label(pageId as number, isRelevant);
    },
    '/api/retrain': async () => {
      const f = feedback(source);
      const running = f.retrain('request');
      running.catch(() => {}); // reported in /api/feedback
      return { isTraining: true };
    },
  };
  const question = /^\/api\/questions\/([^/]+)$/.exec(path);
  if (question) {
    if (req.method !== 'POST')
      throw new HttpError(405, `${req.method} is not allowed on ${path} (POST only)`);
    const id = Number(question[1]);
    if (!Number.isInteger(id) || id < 1) throw new HttpError(404, `no question ${question[1]}`);
    posts[path] = (body) => {
      const { relevant } = body;
      if (relevant !== true && relevant !== false && relevant !== null)
        throw new HttpError(400, 'body must be {"relevant": true|false}, or {"relevant": null} to skip');
      if (!controls(source).answerQuestion(id, relevant ?? undefined))
        throw new HttpError(409, `question ${id} is not open (answered, skipped or expired)`);
      return { id, relevant, questions: source.questions() };
    };
  }
  if (req.method === 'GET' && gets[path]) return gets[path]();
  if (req.method === 'POST' && posts[path]) {
    const type = req.headers['content-type'] ?? '';
    let body: Record<string, unknown> = {};
    if (type === '' && hasNoBody(req)) {
      // `curl -X POST .../api/pause`: no body, so no content type to give. A browser sends such
      // a request cross-site without asking (a JSON one it must ask about first), so one from
      // another page's origin is refused.
      if (!isSameOrigin(req)) throw new HttpError(403, 'a POST without a body must come from this dashboard');
    } else if (!type.startsWith('application/json')) {
      throw new HttpError(415, 'POST bodies must be application/json');
    } else body = await readJson(req);
    const out = await posts[path](body);
    return out ?? source.status();
  }
  if (gets[path] || posts[path])
    throw new HttpError(
      405,
      `${req.method} is not allowed on ${path} (${posts[path] ? 'POST' : 'GET'} only)`,
    );
  throw new HttpError(404, 'not found');
}

function controls(source: DashboardSource) {
  if (!source.controls || !source.status().isLive)
    throw new HttpError(409, 'this crawl is read-only here (not running in this process)');
  return source.controls;
}

function feedback(source: DashboardSource) {
  if (!source.feedback || !source.status().isLive)
    throw new HttpError(409, 'relevance feedback needs a crawl running in this process with a WARC file');
  return source.feedback;
}

function pageQuery(p: URLSearchParams): PageQuery {
  const q: PageQuery = {};
  const relevance = p.get('relevance');
  if (relevance === 'relevant' || relevance === 'irrelevant' || relevance === 'all') q.relevance = relevance;
  else if (relevance) throw new HttpError(400, 'relevance must be relevant, irrelevant or all');
  const int = (name: string) => {
    const v = p.get(name);
    if (v === null || v === '') return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new HttpError(400, `${name} must be a whole number >= 0`);
    return n;
  };
  const domain = p.get('domain');
  if (domain) q.domain = domain;
  const search = p.get('q');
  if (search) q.search = search;
  const status = int('status');
  if (status !== undefined) q.status = status;
  const offset = int('offset');
  if (offset !== undefined) q.offset = offset;
  const limit = int('limit');
  if (limit !== undefined) q.limit = limit;
  return q;
}

/** True when the request declares no body (no Content-Length above 0, no chunked body). */
function hasNoBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0');
}

/** True when the request names no Origin (curl, scripts) or this server's own. */
function isSameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new HttpError(400, 'body must be a JSON object');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body ?? null));
}

/** The page loads only its own files: a script injected by a page title could not run anyway. */
function securityHeaders(res: ServerResponse): void {
  res.setHeader(
    'content-security-policy',
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
  );
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
}
