/**
 * Paged, filtered reads of the `pages` table for the dashboard and its REST API: by relevance,
 * domain, status, a text search in URL and title, newest first. Values are bound parameters,
 * never spliced into the SQL.
 */
import type Database from 'better-sqlite3';
import { hasLabelsTable } from './labels.js';
import { type PageRow, rowToPage } from './schema.js';
import type { StoredPage } from './types.js';

/** Filter and page of {@link queryPages}. */
export interface PageQuery {
  /** Only the page with this id. @default every page */
  id?: number;
  /** `relevant` (reward > 0), `irrelevant` (a page with reward 0) or `all`. @default 'all' */
  relevance?: 'relevant' | 'irrelevant' | 'all';
  /** Only pages of this registrable domain. @default every domain */
  domain?: string;
  /** Only this HTTP status (0: no response). @default every status */
  status?: number;
  /** Only pages whose URL or title contains this text (case-insensitive). @default none */
  search?: string;
  /** Only pages scored by this judge version (a page from before versions counts as 0). @default any */
  judgeVersion?: number;
  /** Row order: newest first, or by the judge's probability. @default 'newest' */
  order?: 'newest' | 'most-probable' | 'least-probable';
  /** Rows to skip. @default 0 */
  offset?: number;
  /** Rows to return, 1 to 500. @default 50 */
  limit?: number;
}

/** A page as the dashboard lists it. */
export interface ListedPage {
  id: number;
  url: string;
  finalUrl: string;
  status: number;
  isPage: boolean;
  domain: string;
  depth: number;
  title: string;
  probability: number;
  reward: number;
  errorCode?: string;
  duplicateOf?: number;
  judgeVersion?: number;
  /** The newest user label of the page, if any. */
  label?: boolean;
  fetchedAt: number;
}

const ORDER = {
  newest: 'p.id DESC',
  'most-probable': 'p.probability DESC, p.id',
  'least-probable': 'p.probability ASC, p.id',
} as const;

/** Pages matching `q` (newest first unless `q.order` says otherwise), and how many match in all. */
export function queryPages(db: Database.Database, q: PageQuery): { total: number; pages: ListedPage[] } {
  const where: string[] = [];
  const args: (string | number)[] = [];
  if (q.id !== undefined) {
    where.push('p.id = ?');
    args.push(q.id);
  }
  if (q.judgeVersion !== undefined) {
    where.push('COALESCE(p.judge_version, 0) = ?');
    args.push(q.judgeVersion);
  }
  if (q.relevance === 'relevant') where.push('p.reward > 0');
  if (q.relevance === 'irrelevant') where.push('p.reward = 0 AND p.is_page = 1');
  if (q.domain) {
    where.push('p.domain = ?');
    args.push(q.domain);
  }
  if (q.status !== undefined) {
    where.push('p.status = ?');
    args.push(q.status);
  }
  if (q.search) {
    where.push("(instr(lower(p.url), ?) > 0 OR instr(lower(COALESCE(p.title, '')), ?) > 0)");
    args.push(q.search.toLowerCase(), q.search.toLowerCase());
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const limit = Math.min(500, Math.max(1, Math.floor(q.limit ?? 50)));
  const offset = Math.max(0, Math.floor(q.offset ?? 0));
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM pages p ${clause}`).get(...args) as { n: number }).n;
  const label = hasLabelsTable(db)
    ? '(SELECT l.is_relevant FROM labels l WHERE l.page_id = p.id ORDER BY l.id DESC LIMIT 1)'
    : 'NULL';
  const rows = db
    .prepare<(string | number)[], PageRow & { label: number | null }>(
      `SELECT p.*, ${label} AS label FROM pages p ${clause} ORDER BY ${ORDER[q.order ?? 'newest']} LIMIT ? OFFSET ?`,
    )
    .all(...args, limit, offset);
  return { total, pages: rows.map(toListed) };
}

function toListed(row: PageRow & { label: number | null }): ListedPage {
  const p = rowToPage(row);
  const out = listedPageOf(p);
  if (p.judgeVersion !== undefined) out.judgeVersion = p.judgeVersion;
  if (row.label !== null) out.label = row.label === 1;
  return out;
}

/** The fields of a page that a listing shows (no judge version, no label: the store adds them). */
export function listedPageOf(p: StoredPage): ListedPage {
  const out: ListedPage = {
    id: p.id,
    url: p.url,
    finalUrl: p.finalUrl,
    status: p.status,
    isPage: p.isPage,
    domain: p.domain,
    depth: p.depth,
    title: p.title ?? '',
    probability: p.probability,
    reward: p.reward,
    fetchedAt: p.fetchedAt,
  };
  if (p.errorCode !== undefined) out.errorCode = p.errorCode;
  if (p.duplicateOf !== undefined) out.duplicateOf = p.duplicateOf;
  return out;
}

/**
 * The byte range `[start, end)` of page `id`'s WARC records, or undefined (no WARC, no page).
 * @param headerEnd the `warcHeaderEnd` meta value (where the first page's records start)
 */
export function warcRangeOf(
  db: Database.Database,
  id: number,
  headerEnd: number,
): [number, number] | undefined {
  const row = db
    .prepare<[number], { warc_end: number | null; start: number | null }>(
      'SELECT warc_end, (SELECT q.warc_end FROM pages q WHERE q.id = p.id - 1) AS start FROM pages p WHERE id = ?',
    )
    .get(id);
  if (!row || row.warc_end === null) return undefined;
  return [row.start ?? headerEnd, row.warc_end];
}
