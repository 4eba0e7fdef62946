/**
 * Relevance labels a user gives to fetched pages (relevance feedback): one row per label in the
 * `labels` table of the crawl store (created IF NOT EXISTS, so older stores gain it). A page
 * labelled twice keeps both rows; the newest counts. Each row says where it came from: a label
 * given in the dashboard's page list (`user`) or an answer to a question the crawl asked
 * (`answer`).
 */
import type Database from 'better-sqlite3';
import { ConfigError } from '../common/index.js';

/** One relevance label. */
export interface PageLabel {
  /** Label order, from 1. */
  id: number;
  /** `pages.id` of the labelled page. */
  pageId: number;
  url: string;
  isRelevant: boolean;
  /** When the label was given, in ms since the epoch. */
  labelledAt: number;
  /** Where it came from: the dashboard's page list, or an answer to a crawl's question. */
  source: LabelSource;
}

/** Where a label came from. */
export type LabelSource = 'user' | 'answer';

interface LabelRow {
  id: number;
  page_id: number;
  url: string;
  is_relevant: number;
  labelled_at: number;
  /** NULL or absent in a store written before labels had a source: a user's label. */
  source?: string | null;
}

const toLabel = (r: LabelRow): PageLabel => ({
  id: r.id,
  pageId: r.page_id,
  url: r.url,
  isRelevant: r.is_relevant === 1,
  labelledAt: r.labelled_at,
  source: r.source === 'answer' ? 'answer' : 'user',
});

/** True if the database has a labels table (a store written before labels has none). */
export function hasLabelsTable(db: Database.Database): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'labels'").get() !== undefined
  );
}

/**
 * Stores a label of page `pageId` (a page, not a failed attempt).
 * @throws ConfigError (context.field `pageId`) if no such page was fetched.
 */
export function insertLabel(
  db: Database.Database,
  pageId: number,
  isRelevant: boolean,
  now: number,
  source: LabelSource = 'user',
): PageLabel {
  const page = db
    .prepare<[number], { url: string; is_page: number }>('SELECT url, is_page FROM pages WHERE id = ?')
    .get(pageId);
  if (page === undefined || page.is_page !== 1) {
    throw new ConfigError(`page ${pageId} is not a fetched page of this crawl`, {
      context: { field: 'pageId' },
    });
  }
  const info = db
    .prepare('INSERT INTO labels (page_id, url, is_relevant, labelled_at, source) VALUES (?, ?, ?, ?, ?)')
    .run(pageId, page.url, isRelevant ? 1 : 0, now, source);
  return { id: Number(info.lastInsertRowid), pageId, url: page.url, isRelevant, labelledAt: now, source };
}

/** The newest label of every labelled page, in label order. */
export function latestLabels(db: Database.Database): PageLabel[] {
  if (!hasLabelsTable(db)) return [];
  return db
    .prepare<[], LabelRow>(
      `SELECT l.* FROM labels l JOIN (SELECT page_id, MAX(id) AS id FROM labels GROUP BY page_id) m
       ON l.id = m.id ORDER BY l.id`,
    )
    .all()
    .map(toLabel);
}

/** Every label row ever given (a page relabelled appears twice). */
export function labelCount(db: Database.Database): number {
  if (!hasLabelsTable(db)) return 0;
  return (db.prepare('SELECT COUNT(*) AS n FROM labels').get() as { n: number }).n;
}
