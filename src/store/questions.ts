/**
 * Questions a crawl asked about its pages (see crawl/question-desk.ts): one row per question in
 * the `questions` table of the crawl store (created IF NOT EXISTS, so older stores gain it). The
 * answer itself is a label with source `answer` (labels.ts); this table keeps what was asked, so
 * that a resumed crawl counts its questions against the budget and never asks about a page or
 * site twice.
 */
import type Database from 'better-sqlite3';

/** What became of a question. */
export type QuestionStatus = 'open' | 'answered' | 'skipped' | 'expired';

/**
 * Why a page was asked about: `informative`, chosen for what its label would teach the judge
 * (uncertain, from a new site, unlike pages asked before); `random`, drawn uniformly among the
 * pages the crawl recorded, so that its answers measure how often a judge is right on the
 * crawl's own pages (informative answers are a biased sample of them).
 */
export type QuestionKind = 'informative' | 'random';

/** A question as stored. */
export interface StoredQuestion {
  /** From 1, in the order asked. */
  id: number;
  /** `pages.id` of the page asked about. */
  pageId: number;
  url: string;
  /** The page's site (registrable domain or host, as the crawl counts sites). */
  domain: string;
  title: string;
  /** The page's text as the judge read it (capped). */
  text: string;
  /** The judge's P(relevant) of the page when it was asked. */
  probability: number;
  /** Why the page was chosen, in words. */
  why: string;
  /** ms since the epoch. */
  askedAt: number;
  status: QuestionStatus;
  /** ms since the epoch; undefined while open. */
  settledAt?: number;
  kind: QuestionKind;
}

interface QuestionRow {
  id: number;
  page_id: number;
  url: string;
  domain: string;
  title: string;
  text: string;
  probability: number;
  why: string;
  asked_at: number;
  status: string;
  settled_at: number | null;
  kind: string | null;
}

const toQuestion = (r: QuestionRow): StoredQuestion => ({
  id: r.id,
  pageId: r.page_id,
  url: r.url,
  domain: r.domain,
  title: r.title,
  text: r.text,
  probability: r.probability,
  why: r.why,
  askedAt: r.asked_at,
  status: r.status as QuestionStatus,
  kind: r.kind === 'random' ? 'random' : 'informative',
  ...(r.settled_at === null ? {} : { settledAt: r.settled_at }),
});

/** Stores a new open question and returns it with its id. */
export function insertQuestion(
  db: Database.Database,
  q: Omit<StoredQuestion, 'id' | 'status' | 'settledAt'>,
): StoredQuestion {
  const info = db
    .prepare(
      `INSERT INTO questions (page_id, url, domain, title, text, probability, why, asked_at, status, kind)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?)`,
    )
    .run(q.pageId, q.url, q.domain, q.title, q.text, q.probability, q.why, q.askedAt, q.kind);
  return { ...q, id: Number(info.lastInsertRowid), status: 'open' };
}

/** Sets the status of an open question; returns false if it was not open (nothing changed). */
export function settleQuestion(
  db: Database.Database,
  id: number,
  status: Exclude<QuestionStatus, 'open'>,
  now: number,
): boolean {
  const info = db
    .prepare("UPDATE questions SET status = ?, settled_at = ? WHERE id = ? AND status = 'open'")
    .run(status, now, id);
  return info.changes === 1;
}

/** Every question asked, in the order asked (none in a store from before questions). */
export function allQuestions(db: Database.Database): StoredQuestion[] {
  const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'questions'").get();
  if (has === undefined) return [];
  return db.prepare<[], QuestionRow>('SELECT * FROM questions ORDER BY id').all().map(toQuestion);
}
