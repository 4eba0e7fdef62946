/** Turning a stored page back into the strategy's {@link Outcome}, to rebuild state on resume. */
import type { Outcome } from '../types/index.js';
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
