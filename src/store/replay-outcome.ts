/** Turning a stored page back into the strategy's {@link Outcome}, to rebuild state on resume. */
import type { Outcome } from '../types/index.js';
import { decodeOutlinks } from './outlinks-codec.js';
import type { PageRow } from './schema.js';
import type { StoredPage } from './types.js';

/**
 * The outcome the strategy observed when `page` was fetched, marked `isReplay`. The action's
 * opaque `data` (e.g. a state-action vector) and the page text are not stored, so they are absent;
 * a strategy that needs them must recompute them.
 */
export function toReplayOutcome(page: StoredPage): Outcome {
  const outcome: Outcome = {
    action: { url: page.url, host: page.host, domain: page.domain, depth: page.depth },
    finalUrl: page.finalUrl,
    isPage: page.isPage,
    reward: page.reward,
    probability: page.probability,
    links: page.outlinks,
    isReplay: true,
  };
  if (page.parentUrl !== undefined) outcome.action.parentUrl = page.parentUrl;
  if (page.title !== undefined) outcome.title = page.title;
  if (page.errorCode !== undefined) outcome.errorCode = page.errorCode;
  if (page.duplicateOf !== undefined) outcome.isDuplicate = true;
  return outcome;
}

/**
 * The columns of `pages` an outcome is made of ({@link outcomeOfRow}): a replay reads only these
 * (on a 252,000-page store about half the CPU of reading every column, hashes and all).
 */
export const OUTCOME_COLUMNS =
  'id, url, final_url, host, domain, depth, parent_url, reward, probability, title, error_code, is_page, outlinks, duplicate_of';

/** A `pages` row of {@link OUTCOME_COLUMNS}. */
export type OutcomeRow = Pick<
  PageRow,
  | 'id'
  | 'url'
  | 'final_url'
  | 'host'
  | 'domain'
  | 'depth'
  | 'parent_url'
  | 'reward'
  | 'probability'
  | 'title'
  | 'error_code'
  | 'is_page'
  | 'outlinks'
  | 'duplicate_of'
>;

/** {@link toReplayOutcome} of the page in `row`, read from {@link OUTCOME_COLUMNS} only. */
export function outcomeOfRow(row: OutcomeRow): Outcome {
  const outcome: Outcome = {
    action: { url: row.url, host: row.host, domain: row.domain, depth: row.depth },
    finalUrl: row.final_url,
    isPage: row.is_page === 1,
    reward: row.reward,
    probability: row.probability,
    links: decodeOutlinks(row.outlinks),
    isReplay: true,
  };
  if (row.parent_url !== null) outcome.action.parentUrl = row.parent_url;
  if (row.title !== null) outcome.title = row.title;
  if (row.error_code !== null) outcome.errorCode = row.error_code;
  if (row.duplicate_of !== null) outcome.isDuplicate = true;
  return outcome;
}
