/**
 * Opening ioredis connections from a cluster URL (user, password, database and `rediss://` TLS
 * come from the URL, as ioredis reads them), and reading stream replies.
 */
import { Redis } from 'ioredis';
import { ConfigError } from '../common/index.js';
import { ClusterFaultError } from './cluster-fault.js';

/** Options of {@link connectRedis}. */
export interface RedisConnectOptions {
  /** How long the connection may take, in ms. @default 5000 */
  connectTimeoutMs?: number;
  /**
   * How long any command may wait for its answer, in ms, queued through a reconnection included
   * (ioredis's `commandTimeout`): a command sent while Redis is away fails after this instead of
   * waiting forever. Give more than the longest blocking read. `false`: no limit. @default false
   */
  commandTimeoutMs?: number | false;
  /** Name of the connection in Redis's `CLIENT LIST` (an operator sees who is who). @default none */
  connectionName?: string;
}

/**
 * Connects to Redis and checks it answers, accepts the credentials, has the database the URL
 * names, and is Redis 5 or newer (streams).
 * @param flag the option as the user typed it, named in errors (e.g. `--cluster`)
 * @throws ClusterFaultError `auth` when Redis refuses the password or user, `unreachable` when
 *   it cannot be reached; ConfigError for a database number Redis does not have or a Redis
 *   older than 5.
 */
export async function connectRedis(
  url: string,
  flag: string,
  options: RedisConnectOptions = {},
): Promise<Redis> {
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
  const commandTimeoutMs = options.commandTimeoutMs ?? false;
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: connectTimeoutMs,
    // Commands wait through short outages (ioredis reconnects), instead of failing after 20 tries;
    // commandTimeout bounds that wait.
    maxRetriesPerRequest: null,
    enableAutoPipelining: true,
    ...(commandTimeoutMs === false ? {} : { commandTimeout: commandTimeoutMs }),
    ...(options.connectionName === undefined ? {} : { connectionName: options.connectionName }),
  });
  // ioredis reports the cause (WRONGPASS, ECONNREFUSED) only as an 'error' event; the promise of
  // connect() says just "Connection is closed.". The last one is kept for the message.
  let lastError: Error | undefined;
  redis.on('error', (error: Error) => {
    lastError = error;
  });
  const shown = redactUrl(url);
  try {
    await withTimeout(redis.connect(), connectTimeoutMs, 'connection timed out');
    const info = await withTimeout(redis.info('server'), connectTimeoutMs, 'no answer');
    const major = Number(/redis_version:(\d+)/.exec(info)?.[1] ?? 0);
    if (major < 5) {
      throw new ConfigError(
        `${flag} ${shown}: Redis ${major} has no streams; tres needs Redis 5 or newer (Debian: redis-server)`,
        { context: { field: flag } },
      );
    }
    // ioredis selects the URL's database itself but ignores a refusal (it stays on database 0).
    const db = databaseOf(url);
    if (db !== 0) {
      try {
        await redis.select(db);
      } catch (error) {
        throw new ConfigError(
          `${flag} ${shown}: Redis has no database ${db} (${(error as Error).message}); use a number below its \`databases\` setting (16 by default), e.g. /0`,
          { cause: error, context: { field: flag } },
        );
      }
    }
    return redis;
  } catch (cause) {
    redis.disconnect();
    if (cause instanceof ConfigError) throw cause;
    const why = lastError?.message ?? (cause as Error).message;
    if (/WRONGPASS|NOAUTH|invalid password|invalid username|NOPERM/i.test(why)) {
      throw new ClusterFaultError(
        'auth',
        `${flag} ${shown}: Redis refused the credentials (${firstLine(why)}); check the password (and user) the URL carries, in TRES_REDIS_URL or --cluster-password-file`,
        { field: flag, cause },
      );
    }
    throw new ClusterFaultError(
      'unreachable',
      `${flag} ${shown}: cannot reach Redis (${firstLine(why)}); start redis-server there, or fix the host or port in the URL`,
      { field: flag, cause },
    );
  }
}

/** The database number of a Redis URL's path (`/3`), 0 when it has none. */
function databaseOf(url: string): number {
  const path = new URL(url).pathname.replace(/^\//, '');
  return path === '' ? 0 : Number(path);
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

/**
 * Closes a connection at once. Commands still queued for a reconnection are failed too:
 * ioredis's `disconnect()` leaves them queued while Redis is away, and their command timeouts
 * would keep the process alive (and their callers waiting) that long.
 */
export function closeNow(redis: Redis): void {
  redis.disconnect();
  // flushQueue is ioredis's own (not in its types): it fails the offline and sent commands.
  (redis as unknown as { flushQueue?: (error: Error) => void }).flushQueue?.(
    new Error('Connection is closed.'),
  );
}

/** The URL with its password replaced by `***`, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return '(not a URL)';
  }
}

/** One stream entry: id and flat field/value list. */
export type StreamEntry = [id: string, fields: string[]];

/** Entries of an XREADGROUP/XREAD reply, with their stream key. */
export function entriesOf(reply: unknown): Array<{ key: string; id: string; fields: string[] }> {
  const out: Array<{ key: string; id: string; fields: string[] }> = [];
  if (!Array.isArray(reply)) return out;
  for (const [key, entries] of reply as Array<[string, StreamEntry[]]>) {
    for (const entry of entries) {
      // A deleted entry still pending in a group comes back with null fields.
      if (entry[1] === null) continue;
      out.push({ key, id: entry[0], fields: entry[1] });
    }
  }
  return out;
}

/** Creates a consumer group at `start` (and the stream); an existing group is kept. */
export async function ensureGroup(redis: Redis, key: string, group: string, start: string): Promise<void> {
  try {
    await redis.xgroup('CREATE', key, group, start, 'MKSTREAM');
  } catch (error) {
    if (!String((error as Error).message).includes('BUSYGROUP')) throw error;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
