/**
 * Export of a crawl as CSV (RFC 4180) or JSON lines, read-only: the pages in fetch order, with
 * their decoded outlinks and, on request, their visible text read back from the WARC file.
 * Written in chunks through an async sink, so a crawl of any size streams out in bounded memory.
 */
import { ConfigError } from '../common/index.js';
import { PdfExtractor } from '../pdf/index.js';
import { csvField } from './export-csv.js';
import { storePaths } from './open-files.js';
import { readStoredText } from './page-text.js';
import { locateWarcFile, type ReadPage } from './read-crawl.js';
import type { PageSource } from './read-jsonl.js';

/** Options of {@link exportCrawl}. */
export interface ExportOptions {
  /** `csv` (one row per page, outlinks as space-separated URLs) or `jsonl` (one object per line). */
  format: 'csv' | 'jsonl';
  /** Only pages judged relevant (reward > 0). @default false */
  onlyRelevant?: boolean;
  /** Add each page's visible text, read from the WARC file. @default false */
  withText?: boolean;
  /** Add each page's outlinks (the new links it gave the frontier). @default true */
  withOutlinks?: boolean;
  /** Include pages marked `noindex` (meta robots or X-Robots-Tag). @default false */
  withNoindex?: boolean;
}

/** Where export text goes; resolves when the chunk may be followed by the next one. */
export type ExportSink = (chunk: string) => Promise<void>;

/** Columns of the CSV export, in order (`outlinks` and `text` only when asked for). */
export const EXPORT_CSV_COLUMNS = [
  'id',
  'url',
  'final_url',
  'status',
  'is_page',
  'reward',
  'probability',
  'title',
  'host',
  'domain',
  'depth',
  'parent_url',
  'fetched_at',
  'error_code',
] as const;

/** Pages written per sink call. */
const CHUNK_PAGES = 200;

function csvRow(p: ReadPage, o: ExportOptions, text: string | undefined): string {
  const fields: (string | number | null)[] = [
    p.id,
    p.url,
    p.finalUrl,
    p.status,
    p.isPage ? 1 : 0,
    p.reward,
    p.probability,
    p.title ?? null,
    p.host,
    p.domain,
    p.depth,
    p.parentUrl ?? null,
    new Date(p.fetchedAt).toISOString(),
    p.errorCode ?? null,
  ];
  if (o.withOutlinks !== false) fields.push(p.outlinks.length, p.outlinks.map((l) => l.url).join(' '));
  if (o.withText) fields.push(text ?? '');
  return `${fields.map(csvField).join(',')}\r\n`;
}

function jsonRow(p: ReadPage, o: ExportOptions, text: string | undefined): string {
  const { outlinks, warcRange: _w, fetchedAt, ...rest } = p;
  const row: Record<string, unknown> = { ...rest, fetchedAt: new Date(fetchedAt).toISOString() };
  if (o.withOutlinks !== false) {
    row.outlinks = outlinks.map((l) => ({ url: l.url, anchorText: l.anchorText, depth: l.depth }));
  }
  if (o.withText) row.text = text ?? '';
  return `${JSON.stringify(row)}\n`;
}

/**
 * Writes the pages `reader` reads to `sink`; returns the number of pages written. Outlinks are
 * written only if the source has them.
 * @throws ConfigError if `withText` is asked of a source without WARC records; TresError
 *   `TRES_STORE_CORRUPT` if a WARC record cannot be read.
 */
export async function exportCrawl(
  reader: PageSource,
  options: ExportOptions,
  sink: ExportSink,
): Promise<number> {
  if (options.withText && !reader.hasWarc()) {
    throw new ConfigError(
      reader.hasOutlinks
        ? `${reader.dir} keeps no WARC records (crawled with --no-warc), so there is no page text to export; leave out --with-text`
        : `${reader.dir} is being crawled: page text can be exported once the crawl stops; leave out --with-text`,
    );
  }
  options = { ...options, withOutlinks: options.withOutlinks !== false && reader.hasOutlinks };
  const warcPath = storePaths(reader.dir).warc;
  if (options.format === 'csv') {
    const extra = [
      ...(options.withOutlinks !== false ? ['outlink_count', 'outlinks'] : []),
      ...(options.withText ? ['text'] : []),
    ];
    await sink(`${[...EXPORT_CSV_COLUMNS, ...extra].join(',')}\r\n`);
  }
  const row = options.format === 'csv' ? csvRow : jsonRow;
  let count = 0;
  let chunk = '';
  // Started on the first PDF only: an export of HTML pages starts no worker.
  let pdf: PdfExtractor | undefined;
  const pdfExtractor = () => {
    pdf ??= new PdfExtractor();
    return pdf;
  };
  try {
    for await (const page of reader.pages({ onlyRelevant: options.onlyRelevant ?? false })) {
      if (!options.withNoindex && page.directives?.includes('noindex')) continue;
      const text =
        options.withText && page.isPage && page.warcRange
          ? await readStoredText(
              page.warcFile === undefined ? warcPath : locateWarcFile(reader.dir, page.warcFile),
              page.warcRange[0],
              page.warcRange[1],
              pdfExtractor,
            )
          : undefined;
      chunk += row(page, options, text);
      count++;
      if (count % CHUNK_PAGES === 0) {
        await sink(chunk);
        chunk = '';
      }
    }
    if (chunk !== '') await sink(chunk);
  } finally {
    await pdf?.close();
  }
  return count;
}
