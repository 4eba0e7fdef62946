/**
 * `tres export DIR`: the pages of a crawl as CSV or JSON lines, read-only (the crawl folder is
 * left byte-identical), with decoded outlinks and, on request, page text from the WARC file.
 */

import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { type Command, Option } from 'commander';
import { ConfigError } from '../../common/index.js';
import {
  CrawlReader,
  type ExportOptions,
  exportCrawl,
  JsonlPages,
  type PageSource,
} from '../../store/index.js';

interface ExportFlags {
  format?: 'csv' | 'jsonl';
  relevantOnly?: boolean;
  withText?: boolean;
  outlinks: boolean;
  out?: string;
  force?: boolean;
}

const EXAMPLES = `
Examples:
  tres export crawl1 --relevant-only --out relevant.csv       # the relevant pages, as CSV
  tres export crawl1 --format jsonl --with-text > pages.jsonl  # every attempt, with page text
  tres export crawl1 --no-outlinks | cut -d, -f2               # just the URLs

CSV columns: id, url, final_url, status, is_page, reward, probability, title, host, domain, depth,
parent_url, fetched_at, error_code, outlink_count, outlinks (space-separated URLs), text.
Failed attempts are included (is_page 0, error_code set) unless --relevant-only.
For SQL, crawl.sqlite holds the table outlinks (page_id, url, anchor_text, ...) and the view
links (source_url, target_url, anchor_text, ...), filled when a crawl stops:
  sqlite3 crawl1/crawl.sqlite "SELECT target_url, COUNT(*) FROM links GROUP BY 1 ORDER BY 2 DESC LIMIT 10"`;

export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description(
      'write the pages of a crawl as CSV or JSON lines (read-only: the crawl folder is not changed)',
    )
    .argument('<dir>', 'crawl folder (written by tres crawl)')
    .addOption(
      new Option('--format <format>', 'csv or jsonl (default: from the --out extension, else csv)').choices([
        'csv',
        'jsonl',
      ]),
    )
    .option('--relevant-only', 'only pages judged relevant (default: every attempt, failures included)')
    .option('--with-text', "add each page's visible text, read back from pages.warc.gz (default: off)")
    .option('--no-outlinks', "leave out each page's outlinks (default: included)")
    .option('--out <file>', 'write here (default: standard output); an existing file is kept unless --force')
    .option('--force', 'overwrite the --out file if it exists (default: refuse)')
    .addHelpText('after', EXAMPLES)
    .action(async (dir: string, flags: ExportFlags) => {
      const format = flags.format ?? (flags.out?.endsWith('.jsonl') ? 'jsonl' : 'csv');
      const options: ExportOptions = {
        format,
        onlyRelevant: Boolean(flags.relevantOnly),
        withText: Boolean(flags.withText),
        withOutlinks: flags.outlinks,
      };
      const reader = openSource(dir);
      try {
        const stream = flags.out ? await openOut(flags.out, Boolean(flags.force)) : process.stdout;
        try {
          const count = await exportCrawl(reader, options, (chunk) => write(stream, chunk));
          if (flags.out) console.error(`exported ${count} pages of ${dir} to ${flags.out} (${format})`);
        } finally {
          if (stream !== process.stdout) await closeStream(stream as WriteStream);
        }
      } finally {
        reader.close();
      }
    });
}

/** The crawl's store, or its pages.jsonl while a crawl holds the store (no outlinks, no text). */
function openSource(dir: string): PageSource & { close(): void } {
  try {
    return CrawlReader.open(dir);
  } catch (error) {
    if (!(error instanceof ConfigError && error.context.isLocked === true)) throw error;
    process.stderr.write(
      `tres: note: a crawl is running in ${dir}: exporting what pages.jsonl holds so far, without outlinks or text\n`,
    );
    return Object.assign(new JsonlPages(dir), { close: () => {} });
  }
}

/** Opens the --out file; an existing one only with `isForced` (a typo must not eat a file). */
async function openOut(path: string, isForced: boolean): Promise<WriteStream> {
  const stream = createWriteStream(path, { flags: isForced ? 'w' : 'wx' });
  try {
    await once(stream, 'open');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new ConfigError(
        `--out ${path}: the file exists and was left as it is; add --force to overwrite it, or choose another --out`,
        { cause: error, context: { file: path, field: '--out' } },
      );
    }
    throw new ConfigError(`--out ${path}: cannot write (${(error as Error).message})`, { cause: error });
  }
  return stream;
}

/** Writes a chunk, waiting for the stream to drain when its buffer is full. */
async function write(stream: NodeJS.WritableStream, chunk: string): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain');
}

function closeStream(stream: WriteStream): Promise<void> {
  return new Promise((resolve, reject) =>
    stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}
