/**
 * Test helper (excluded from the build): one HTTP request to a loopback port with a chosen Host
 * header, bounded by a timeout, body collected up to a limit.
 */
import { type Agent, request } from 'node:http';

export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Milliseconds from request start to the end of the body. */
  elapsedMs: number;
}

export interface TestRequest {
  port: number;
  host: string;
  path?: string;
  method?: string;
  /** Rejects with Error('timeout') after this many milliseconds. @default 5000 */
  timeoutMs?: number;
  /** Stop reading (and destroy) after this many body bytes. @default 64 MiB */
  maxBodyBytes?: number;
  agent?: Agent | false;
  headers?: Record<string, string>;
}

/** Sends one request; rejects on socket errors (err.code kept) and on timeout. */
export function fetchVia(options: TestRequest): Promise<TestResponse> {
  const started = performance.now();
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: options.port,
        path: options.path ?? '/',
        method: options.method ?? 'GET',
        headers: { ...options.headers, Host: options.host },
        agent: options.agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= maxBodyBytes) {
            res.destroy();
            finish();
          }
        });
        const finish = () => {
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            elapsedMs: performance.now() - started,
          });
        };
        res.on('end', finish);
        res.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error('timeout'));
    }, options.timeoutMs ?? 5000);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end();
  });
}
