/**
 * Reading a materialized synthetic web back: the procedural web from `web.json`, or folder sites
 * from the page files written next to it.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '../../common/index.js';
import type { FolderSite } from '../replay/index.js';
import { SITES_DIR, WEB_JSON } from './synthetic-files.js';
import { resolveSyntheticOptions, type SyntheticWebOptions } from './synthetic-options.js';
import { createSyntheticWeb, type SyntheticWeb } from './synthetic-web.js';

/**
 * Recreates the procedural web whose `web.json` is in `dir` (same pages, byte for byte).
 * @throws ConfigError naming the file if it is missing, not JSON, or holds invalid options.
 */
export async function loadSyntheticWeb(dir: string): Promise<SyntheticWeb> {
  const file = join(dir, WEB_JSON);
  let options: Partial<SyntheticWebOptions>;
  try {
    options = JSON.parse(await readFile(file, 'utf8')) as Partial<SyntheticWebOptions>;
  } catch (error) {
    throw new ConfigError(
      `cannot read synthetic web options from ${file}: make it with \`tres sandbox generate\``,
      {
        cause: error,
        context: { file },
      },
    );
  }
  try {
    return createSyntheticWeb(resolveSyntheticOptions(options));
  } catch (error) {
    if (error instanceof ConfigError) {
      throw new ConfigError(`${file}: ${error.message}`, {
        cause: error,
        context: { ...error.context, file },
      });
    }
    throw error;
  }
}

/**
 * Folder sites for the page files of a materialized web (one per `sites/<host>/` folder), or an
 * empty list if the pages were not written.
 */
export async function materializedSites(dir: string): Promise<FolderSite[]> {
  let hosts: string[];
  try {
    hosts = await readdir(join(dir, SITES_DIR));
  } catch {
    return [];
  }
  return hosts.sort().map((host) => ({ host, prefix: '/', dir: join(dir, SITES_DIR, host) }));
}
