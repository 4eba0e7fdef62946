/**
 * Real HTTP servers on 127.0.0.1 port 0 for the tests of this room (excluded from the build).
 * Each records the requests it saw and the connections it accepted, and closes every socket on
 * `close()` so a stalled test response cannot keep the process alive.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  host: string;
  headers: IncomingMessage['headers'];
  /** Index of the connection it came on (0 = first accepted). */
  connection: number;
  /** performance.now() when the request arrived. */
  atMs: number;
}

/** A running test server. */
export interface TestServer {
  port: number;
  /** Resolve rule sending every host to this server. */
  rule: string;
  requests: SeenRequest[];
  /** Number of TCP connections accepted. */
  connections: number;
  /** Highest number of requests being handled at the same time. */
  maxConcurrent: number;
  close(): Promise<void>;
}

/** Handler of a test server; `host` is the Host header without port. */
export type TestHandler = (req: IncomingMessage, res: ServerResponse, host: string) => unknown;

/** Starts a server on 127.0.0.1:0. */
export async function startServer(handler: TestHandler): Promise<TestServer> {
  const sockets = new Set<Socket>();
  const socketIds = new WeakMap<Socket, number>();
  let active = 0;
  const state: TestServer = {
    port: 0,
    rule: '',
    requests: [],
    connections: 0,
    maxConcurrent: 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    state.requests.push({
      method: req.method ?? '',
      path: req.url ?? '',
      host,
      headers: req.headers,
      connection: socketIds.get(req.socket) ?? -1,
      atMs: performance.now(),
    });
    active += 1;
    state.maxConcurrent = Math.max(state.maxConcurrent, active);
    res.on('close', () => {
      active -= 1;
    });
    Promise.resolve(handler(req, res, host)).catch((err) => {
      res.destroy(err as Error);
    });
  });
  server.on('connection', (socket: Socket) => {
    socketIds.set(socket, state.connections);
    state.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  state.port = (server.address() as AddressInfo).port;
  state.rule = `*=127.0.0.1:${state.port}`;
  return state;
}

/** Sends an HTML page. */
export function sendHtml(
  res: ServerResponse,
  html: string,
  status = 200,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
  res.end(html);
}
