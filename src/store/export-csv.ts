/**
 * CSV export of the pages of a crawl (RFC 4180: comma-separated, CRLF line ends, fields with
 * commas, quotes or line breaks quoted), e.g. for the list of relevant URLs ACHE users ask for.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type Database from 'better-sqlite3';
import type { ExportCsvOptions } from './types.js';

/** Columns of the export, in order. */
export const CSV_COLUMNS = [
  'url',
  'status',
  'reward',
  'probability',
  'title',
  'domain',
  'depth',
  'fetched_at',
  'error_code',
] as const;

interface CsvRow {
  id: number;
  url: string;
  status: number;
  reward: number;
  probability: number;
  title: string | null;
  domain: string;
  depth: number;
  fetched_at: number;
  error_code: string | null;
}

/** Rows read and written per step: the export never holds the whole crawl in memory. */
const CHUNK_ROWS = 1000;

/** One CSV field: quoted (quotes doubled) when it holds a comma, quote or line break; null is empty. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Writes the pages of `db` to `path` in fetch order (fetched_at as ISO 8601 UTC) and returns the
 * number of pages written. Overwrites `path`.
 */
export function exportPagesCsv(db: Database.Database, path: string, options: ExportCsvOptions = {}): number {
  // A noindex page asked not to be kept in an index: left out (its row stays in the store).
  const hasDirectives = (db.prepare('PRAGMA table_info(pages)').all() as { name: string }[]).some(
    (c) => c.name === 'directives',
  );
  const where = `${options.onlyRelevant ? 'AND reward > 0' : ''} ${
    hasDirectives ? "AND (directives IS NULL OR ' ' || directives || ' ' NOT LIKE '% noindex %')" : ''
  }`;
  const chunk = db.prepare<[number, number], CsvRow>(
    `SELECT id, url, status, reward, probability, title, domain, depth, fetched_at, error_code
     FROM pages WHERE id > ? ${where} ORDER BY id LIMIT ?`,
  );
  const fd = openSync(path, 'w');
  let count = 0;
  try {
    writeSync(fd, `${CSV_COLUMNS.join(',')}\r\n`);
    let after = 0;
    for (;;) {
      const rows = chunk.all(after, CHUNK_ROWS);
      if (rows.length === 0) break;
      let text = '';
      for (const r of rows) {
        const fetchedAt = new Date(r.fetched_at).toISOString();
        const fields = [r.url, r.status, r.reward, r.probability, r.title, r.domain, r.depth, fetchedAt];
        text += `${[...fields, r.error_code].map(csvField).join(',')}\r\n`;
      }
      writeSync(fd, text);
      count += rows.length;
      after = rows[rows.length - 1]!.id;
    }
  } finally {
    closeSync(fd);
  }
  return count;
}
