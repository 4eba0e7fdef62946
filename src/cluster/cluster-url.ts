/**
 * Where a cluster's Redis URL comes from, so that its password never appears on a command line
 * (`ps` shows every process's arguments to every user of the machine): the environment variable
 * `TRES_REDIS_URL`, or `--cluster URL` without a password plus the password in a file
 * (`--cluster-password-file`). A password typed into `--cluster` is refused.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../common/index.js';
import { redactUrl } from './redis-connection.js';

/** The environment variable that holds the cluster's Redis URL (password included). */
export const REDIS_URL_ENV = 'TRES_REDIS_URL';

/** What the user gave: `--cluster` (a URL, or `true` when given without one), the password file. */
export interface ClusterUrlSource {
  /** `--cluster`'s value: a URL, or `true` for "from TRES_REDIS_URL". */
  cluster: string | true;
  /** `--cluster-password-file`: a file whose first line is the password. */
  passwordFile?: string;
  /** The environment (process.env in the CLI). */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Where each was given, as messages name it (`cluster in crawl.yaml`).
   * @default { cluster: '--cluster', passwordFile: '--cluster-password-file' }
   */
  where?: { cluster: string; passwordFile: string };
}

/**
 * The Redis URL to connect to, password included.
 * @throws ConfigError naming the flag, the variable or the file: a password on the command line,
 *   no URL anywhere, an unreadable or empty password file, a password given twice.
 */
export function clusterUrlOf(source: ClusterUrlSource): string {
  const where = source.where ?? { cluster: '--cluster', passwordFile: '--cluster-password-file' };
  let url: string;
  if (source.cluster === true) {
    const fromEnv = source.env[REDIS_URL_ENV];
    if (fromEnv === undefined || fromEnv.trim() === '') {
      throw new ConfigError(
        `--cluster without a URL takes it from ${REDIS_URL_ENV}, which is not set; export ${REDIS_URL_ENV}=redis://:PASSWORD@HOST:6379 or give --cluster redis://HOST:6379`,
        { context: { field: '--cluster' } },
      );
    }
    url = fromEnv.trim();
  } else {
    url = source.cluster;
    let password = '';
    try {
      password = new URL(url).password;
    } catch {
      // Not a URL: the cluster options name the flag and the expected form.
    }
    if (password !== '') {
      const why = where.cluster.startsWith('--')
        ? 'a password on the command line is visible to every user of this machine (ps)'
        : 'a password goes in a file of its own, not in the options';
      throw new ConfigError(
        `${where.cluster} ${redactUrl(url)}: ${why}; put the whole URL in ${REDIS_URL_ENV} and give --cluster alone, or the password in --cluster-password-file`,
        { context: { field: where.cluster } },
      );
    }
  }
  if (source.passwordFile === undefined) return url;
  let password: string;
  try {
    password = (readFileSync(source.passwordFile, 'utf8').split(/\r?\n/)[0] ?? '').trim();
  } catch (error) {
    throw new ConfigError(
      `${where.passwordFile} ${source.passwordFile}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      { context: { field: where.passwordFile } },
    );
  }
  if (password === '') {
    throw new ConfigError(
      `${where.passwordFile} ${source.passwordFile}: its first line is empty; write the Redis password there`,
      { context: { field: where.passwordFile } },
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url; // the cluster options refuse it with the usual message
  }
  if (parsed.password !== '') {
    throw new ConfigError(
      `${where.passwordFile}: the URL in ${REDIS_URL_ENV} carries a password already; give one or the other`,
      { context: { field: where.passwordFile } },
    );
  }
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}
