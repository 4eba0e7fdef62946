/**
 * A private Debian `redis-server` for tests and benchmarks: started on a free loopback port with its
 * own temporary folder (no persistence, no shared instance), stopped and removed by `stop()`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running redis-server. */
export interface LocalRedis {
  /** `redis://127.0.0.1:PORT` (with `password` in it when one was asked for). */
  url: string;
  port: number;
  /** Stops the server (SIGTERM, then SIGKILL after 2 s) and removes its folder. */
  stop(): Promise<void>;
}

/** Options of {@link startLocalRedis}. */
export interface LocalRedisOptions {
  /** `requirepass` of the server; the URL then carries it. @default false (no password) */
  password?: string | false;
  /** How long to wait for the server to accept connections, in ms. @default 10_000 */
  startTimeoutMs?: number;
  /** Port to listen on (a restart on the port a stopped one had); `false`: a free one. @default false */
  port?: number | false;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `redis-server` from PATH on a free port.
 * @throws Error naming the fix (`apt-get install -y redis-server`) when it is missing, or the
 *   server's own output when it does not come up in time.
 */
export async function startLocalRedis(options: LocalRedisOptions = {}): Promise<LocalRedis> {
  const password = options.password ?? false;
  const startTimeoutMs = options.startTimeoutMs ?? 10_000;
  const dir = mkdtempSync(join(tmpdir(), 'tres-redis-'));
  // A port taken between freePort() and the bind makes the server exit; try a few ports.
  for (let attempt = 0; ; attempt++) {
    const port = options.port === undefined || options.port === false ? await freePort() : options.port;
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
      ...(password === false ? [] : ['--requirepass', password]),
    ];
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr?.on('data', (d: Buffer) => {
      output += d.toString();
    });
    const ready = await waitReady(child, () => output, startTimeoutMs);
    if (ready === 'ready') {
      const auth = password === false ? '' : `:${encodeURIComponent(password)}@`;
      return {
        url: `redis://${auth}127.0.0.1:${port}`,
        port,
        stop: async () => {
          await stopChild(child);
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    await stopChild(child);
    if (ready === 'missing') {
      rmSync(dir, { recursive: true, force: true });
      throw new Error('redis-server is not installed: run `apt-get install -y redis-server` (Debian)');
    }
    if (attempt >= 3) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`redis-server did not start on port ${port}:\n${output.slice(-2000)}`);
    }
  }
}

function waitReady(
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<'ready' | 'exited' | 'missing'> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (output().includes('Ready to accept connections')) finish('ready');
    }, 20);
    const deadline = setTimeout(() => finish('exited'), timeoutMs);
    child.once('error', (error: NodeJS.ErrnoException) =>
      finish(error.code === 'ENOENT' ? 'missing' : 'exited'),
    );
    child.once('exit', () => finish('exited'));
    function finish(result: 'ready' | 'exited' | 'missing'): void {
      clearInterval(timer);
      clearTimeout(deadline);
      resolve(result);
    }
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 2000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
