/**
 * The pages of a crawl read from its `pages.jsonl`, for exporting a crawl that is still running:
 * its writer holds crawl.sqlite locked (schema.ts), but the JSON-lines file is append-only and may
 * be read at any time. It has neither outlinks nor text, and its last lines may belong to pages
 * whose row is not committed yet (a crawl killed now would fetch those again).
 */
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ConfigError } from '../common/index.js';
import type { JsonlPage } from './jsonl-line.js';
import { storePaths } from './open-files.js';
import type { ReadPage, ReadPagesOptions } from './read-crawl.js';

/** Pages of a crawl as an export reads them (a {@link CrawlReader}, or {@link JsonlPages}). */
export interface PageSource {
  readonly dir: string;
  /** True if page text can be read back (WARC records with byte ranges). */
  hasWarc(): boolean;
  /** True if pages come with their outlinks. */
  readonly hasOutlinks: boolean;
  pages(options?: ReadPagesOptions): Iterable<ReadPage> | AsyncIterable<ReadPage>;
}

/** The pages of `pages.jsonl` in the crawl folder `dir`. */
export class JsonlPages implements PageSource {
  readonly hasOutlinks = false;

  /** @throws ConfigError if the folder has no pages.jsonl (crawled with JSON lines off). */
  constructor(readonly dir: string) {
    if (!existsSync(storePaths(dir).jsonl)) {
      throw new ConfigError(`${dir} has no pages.jsonl to read while its crawl runs`, {
        context: { file: dir },
      });
    }
  }

  hasWarc(): boolean {
    return false;
  }

  /** The complete lines written so far, in fetch order (a line being written is left out). */
  async *pages(options: ReadPagesOptions = {}): AsyncIterableIterator<ReadPage> {
    const lines = createInterface({
      input: createReadStream(storePaths(this.dir).jsonl),
      crlfDelay: Infinity,
    });
    for await (const line of lines) {
      let row: JsonlPage;
      try {
        row = JSON.parse(line) as JsonlPage;
      } catch {
        return; // the line the crawl is writing now; every line before it ends with a newline
      }
      if (options.onlyRelevant && !(row.reward > 0)) continue;
      const { fetchedAt, ...rest } = row;
      yield { ...rest, fetchedAt: Date.parse(fetchedAt), outlinks: [] };
    }
  }
}
