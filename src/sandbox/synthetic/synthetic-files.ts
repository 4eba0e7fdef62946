/**
 * A synthetic web on disk: `labels.tsv` streamed line by line (a million pages never sit in
 * memory), `web.json` (the full options, enough to recreate the procedural web), and for small
 * webs the pages themselves under `sites/<host>/` so the folder-serving path can be used.
 *
 * Layout of a materialized web:
 * ```
 * DIR/web.json                 options, defaults filled in (loadSyntheticWeb reads it)
 * DIR/labels.tsv               url<TAB>label<TAB>topic, label 1 = relevant, one header line
 * DIR/sites/<host>/index.html  home page       (only with writePages)
 * DIR/sites/<host>/p/<n>.html  the other pages (only with writePages)
 * ```
 */
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '../../common/index.js';
import type { MaterializeOptions, SyntheticWeb } from './synthetic-web-types.js';

export type { MaterializeOptions } from './synthetic-web-types.js';

/** Name of the options file of a materialized web. */
export const WEB_JSON = 'web.json';
/** Name of the labels file of a materialized web. */
export const LABELS_TSV = 'labels.tsv';
/** Folder (under the web's folder) holding one folder of pages per host. */
export const SITES_DIR = 'sites';

const FLUSH_CHARS = 1 << 16;

/**
 * Streams the labels of every page of `web` to `path` as TSV (`url`, `label` 1/0, `topic`), after
 * a header line, with backpressure. Resolves with the number of page lines written.
 * @throws the write error if the file cannot be written.
 */
export async function writeLabelsFile(web: SyntheticWeb, path: string): Promise<number> {
  const out = createWriteStream(path, { encoding: 'utf8' });
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => {});
  const write = async (chunk: string) => {
    if (!out.write(chunk))
      await Promise.race([new Promise<void>((resolve) => out.once('drain', () => resolve())), failed]);
  };
  let lines = 0;
  let chunk = 'url\tlabel\ttopic\n';
  for (const page of web.labels()) {
    chunk += `${page.url}\t${page.isRelevant ? 1 : 0}\t${page.topic}\n`;
    lines++;
    if (chunk.length >= FLUSH_CHARS) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(chunk);
  await Promise.race([new Promise<void>((resolve) => out.end(() => resolve())), failed]);
  return lines;
}

/**
 * Writes `web.json`, `labels.tsv` and (see {@link MaterializeOptions}) the pages under `dir`,
 * creating it if needed.
 * @throws ConfigError if `writePages` is true and the web has more than `maxPageFiles` pages.
 */
export async function materializeWeb(
  web: SyntheticWeb,
  dir: string,
  options: MaterializeOptions = {},
): Promise<void> {
  const maxPageFiles = options.maxPageFiles ?? 100_000;
  const writePages = options.writePages ?? 'auto';
  if (writePages === true && web.pageCount > maxPageFiles) {
    throw new ConfigError(
      `materialize: ${web.pageCount} pages is more than maxPageFiles (${maxPageFiles}); serve the web procedurally instead`,
      { context: { field: 'maxPageFiles' } },
    );
  }
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, WEB_JSON), `${JSON.stringify(web.options, null, 2)}\n`);
  await writeLabelsFile(web, join(dir, LABELS_TSV));
  if (writePages === false || (writePages === 'auto' && web.pageCount > maxPageFiles)) return;
  for (const host of web.hosts) await mkdir(join(dir, SITES_DIR, host, 'p'), { recursive: true });
  let batch: Promise<void>[] = [];
  for (const { url } of web.labels()) {
    const { hostname, pathname } = new URL(url);
    const page = web.renderPage(hostname, pathname);
    if (!page) continue;
    const file = pathname === '/' ? 'index.html' : pathname.slice(1);
    batch.push(writeFile(join(dir, SITES_DIR, hostname, file), page.html));
    if (batch.length >= 64) {
      await Promise.all(batch);
      batch = [];
    }
  }
  await Promise.all(batch);
}
