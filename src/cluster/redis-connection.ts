/**
 * Opening ioredis connections from a cluster URL (user, password, database and `rediss://` TLS
 * come from the URL, as ioredis reads them), and reading stream replies.
 */
import { Redis } from 'ioredis';
import { ConfigError } from '../common/index.js';

/**
 * Connects to Redis and checks it answers (and is Redis 5 or newer, for streams).
 * @param flag the option as the user typed it, named in errors (e.g. `--cluster`)
 * @throws ConfigError naming `flag` when Redis cannot be reached or refuses the credentials.
 */
export async function connectRedis(url: string, flag: string, connectTimeoutMs = 5000): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: connectTimeoutMs,
    // Commands wait through short outages (ioredis reconnects), instead of failing after 20 tries.
    maxRetriesPerRequest: null,
    enableAutoPipelining: true,
  });
  // Without a listener ioredis prints every reconnect error; the command that needs Redis fails clearly.
  redis.on('error', () => {});
  try {
    await withTimeout(redis.connect(), connectTimeoutMs, 'connection timed out');
    const info = await redis.info('server');
    const major = Number(/redis_version:(\d+)/.exec(info)?.[1] ?? 0);
    if (major < 5)
      throw new Error(`Redis ${major} has no streams; tres needs Redis 5 or newer (Debian: redis-server)`);
    return redis;
  } catch (cause) {
    redis.disconnect();
    throw new ConfigError(
      `${flag} ${redactUrl(url)}: cannot use Redis (${(cause as Error).message}); start redis-server there, or fix the host, port, user or password in the URL`,
      { cause, context: { field: flag } },
    );
  }
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
