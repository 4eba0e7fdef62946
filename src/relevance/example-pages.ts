/**
 * Example relevant pages a user gives a crawl (`tres crawl --examples`): a folder of .html, .htm
 * or .txt files, or a text file of URLs (one a line, `#` starts a comment) fetched once before
 * the crawl starts, through the crawl's own network options (robots.txt obeyed).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { ConfigError } from '../common/index.js';
import { parseHtml } from '../html/index.js';
import { WebClient, type WebClientOptions } from '../net/index.js';
import { documentProblem, readDocumentFile } from './dataset.js';
import type { PageInput } from './types.js';

/** File extensions read from an examples folder. */
const EXAMPLE_EXTENSIONS = new Set(['.html', '.htm', '.txt']);

/**
 * Fetches and parses each URL as the crawler would.
 * @param what how the source is named in messages (`--examples urls.txt`)
 * @throws ConfigError naming the URL when a page cannot be fetched, is not a page, or has no words
 */
export async function fetchExamplePages(
  urls: readonly string[],
  net: WebClientOptions,
  what = 'examples',
): Promise<PageInput[]> {
  const client = new WebClient(net);
  try {
    const pages: PageInput[] = [];
    for (const url of urls) {
      let fetched: Awaited<ReturnType<WebClient['fetchPage']>>;
      try {
        fetched = await client.fetchPage(url);
      } catch (error) {
        throw new ConfigError(`${what}: ${url} could not be fetched (${(error as Error).message})`, {
          context: { url },
          cause: error,
        });
      }
      const { result } = fetched;
      if (result.status !== 200 || result.text === undefined)
        throw new ConfigError(
          `${what}: ${url} gave ${result.status === 200 ? `a ${result.contentType} body, not a page` : `HTTP ${result.status}`}; give pages that load`,
          { context: { url } },
        );
      const isHtml = result.contentType.includes('html');
      const parsed = isHtml ? parseHtml(result.text, fetched.finalUrl) : undefined;
      const page = { url: fetched.finalUrl, title: parsed?.title ?? '', text: parsed?.text ?? result.text };
      const why = documentProblem(page);
      if (why !== undefined)
        throw new ConfigError(`${what}: ${url} cannot serve as an example: ${why}`, { context: { url } });
      pages.push(page);
    }
    return pages;
  } finally {
    await client.close();
  }
}

/**
 * Reads the examples of `path`: a folder of .html/.htm/.txt files, or a file of URLs fetched with
 * `net`.
 * @param flag the option as the user typed it, for messages (`--examples`)
 * @throws ConfigError naming the flag and the file for a missing path, an empty folder or list,
 *   a file that is not a page, or a URL that cannot be fetched
 */
export async function readExamplePages(
  path: string,
  net: WebClientOptions,
  flag = '--examples',
): Promise<PageInput[]> {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    throw new ConfigError(
      `${flag} ${path}: no such file or folder; give a folder of .html/.txt pages or a file of URLs`,
      {
        context: { field: flag },
      },
    );
  }
  if (isDir) {
    const files = readdirSync(path)
      .filter((f) => EXAMPLE_EXTENSIONS.has(extname(f).toLowerCase()))
      .sort();
    if (files.length === 0)
      throw new ConfigError(`${flag} ${path}: the folder holds no .html, .htm or .txt file`, {
        context: { field: flag },
      });
    return files.map((f) => {
      const doc = readDocumentFile(join(path, f), 1);
      if ('why' in doc)
        throw new ConfigError(`${flag} ${join(path, f)}: ${doc.why}; remove it or give another page`, {
          context: { field: flag },
        });
      return { url: doc.url, title: doc.title, text: doc.text };
    });
  }
  const urls: string[] = [];
  readFileSync(path, 'utf8')
    .split(/\r?\n/)
    .forEach((raw, i) => {
      const line = raw.replace(/#.*$/, '').trim();
      if (line === '') return;
      let url: URL | undefined;
      try {
        url = new URL(line);
      } catch {
        url = undefined;
      }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
        throw new ConfigError(
          `${flag} ${path} line ${i + 1}: "${line}" is not an http(s) URL; give one URL a line, or a folder of pages`,
          { context: { field: flag } },
        );
      urls.push(url.href);
    });
  if (urls.length === 0)
    throw new ConfigError(`${flag} ${path}: no URL in the file; give one URL a line, or a folder of pages`, {
      context: { field: flag },
    });
  return fetchExamplePages(urls, net, `${flag} ${path}`);
}
