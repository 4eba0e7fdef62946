/**
 * Records each attempt of the crawl, in the order attempts complete: the duplicate check against
 * what the crawl holds, the crawl store (before the attempt counts), the `page` event, the
 * question to the user, the strategy's `observe`, and a checkpoint or frontier snapshot when one
 * is due.
 */
import { StopCrawlError } from '../common/index.js';
import { type CrawlStore, StorageFaultError } from '../store/index.js';
import type { Strategy } from '../strategies/index.js';
import type { Action } from '../types/index.js';
import type { CheckpointKeeper } from './checkpoint-keeper.js';
import type { CrawlState } from './crawl-state.js';
import type { PageEvent } from './events.js';
import type { FrontierSnapshots } from './frontier-snapshots.js';
import type { FrontierSpill } from './frontier-spill.js';
import type { ProcessedFetch } from './process-fetch.js';
import type { QuestionDesk } from './question-desk.js';

type PageRecord = Parameters<CrawlStore['recordPage']>[0];
type WarcOfPage = Parameters<CrawlStore['recordPage']>[1];
type FetchOutcome = Parameters<Strategy['observe']>[0];

/** What {@link PageRecorder} needs of the crawl. */
export interface PageRecorderOptions {
  store: CrawlStore;
  strategy: Strategy;
  state: CrawlState;
  checkpoints: CheckpointKeeper;
  snapshots: FrontierSnapshots;
  /** Holds a page's links back from the strategy while its frontier is over the crawl's bound. */
  spill: FrontierSpill;
  /** The crawl's questions to its user; undefined when it asks none. */
  questionDesk: QuestionDesk | undefined;
  /** Links keep their whole context (the crawl's `withLinkContext`): none is dropped. */
  withLinkContext: boolean;
  onPage: (event: PageEvent) => void;
}

/** Records one crawl's attempts. */
export class PageRecorder {
  constructor(private readonly o: PageRecorderOptions) {}

  /**
   * Records an attempt and, unless `shouldObserve` is false (a page a runner fetched while no
   * loop listened: a resume's replay hands it to the strategy), hands it to the strategy.
   * @throws StorageFaultError, or StopCrawlError TRES_STORE_WRITE, when the store cannot record it.
   */
  record(
    action: Action,
    record: PageRecord,
    fetchedOutcome: FetchOutcome,
    warc: WarcOfPage,
    shouldObserve = true,
  ): void {
    const { store, strategy } = this.o;
    // A copy of a page the crawl holds (the same page under another URL: http and https,
    // dir/ and dir/index.html, or a near copy) earns nothing. Decided here, in commit order, so
    // of two copies fetched at once the first recorded is the original.
    let outcome = fetchedOutcome;
    const match = record.fingerprint ? store.findDuplicate(record.fingerprint) : undefined;
    if (match) {
      record.duplicateOf = match.id;
      record.reward = 0;
      // An exact copy's links are the original's, respelled (http:// for https://): a mirror
      // of the site the agent would learn to crawl again.
      if (match.isExact) record.outlinks = [];
      outcome = { ...outcome, reward: 0, isDuplicate: true, links: match.isExact ? [] : outcome.links };
    }
    // Links held back keep their contexts too: the strategy reads them when they are handed over.
    const isHeld = shouldObserve && this.o.spill.shouldHold(outcome.links.length);
    // A page recorded without being observed (one a runner fetched while no loop listened) keeps
    // its contexts: the strategy has not reached the state it will replay it in.
    if (shouldObserve && !isHeld && !this.o.withLinkContext) strategy.dropUnreadContexts?.(outcome);
    try {
      store.recordPage(record, warc);
    } catch (error) {
      if (error instanceof StorageFaultError) throw error; // names the file and what to do
      throw new StopCrawlError(
        'TRES_STORE_WRITE',
        `cannot record ${action.url} in the crawl store: ${String(error)}`,
        {
          cause: error,
          context: { url: action.url },
        },
      );
    }
    const c = this.o.state.counters;
    this.o.onPage({
      url: action.url,
      finalUrl: outcome.finalUrl,
      status: record.status,
      isPage: outcome.isPage,
      reward: outcome.reward,
      probability: outcome.probability,
      domain: action.domain,
      depth: action.depth,
      step: c.steps,
      newLinks: outcome.links.length,
      ...(record.title === undefined ? {} : { title: record.title }),
      ...(outcome.errorCode === undefined ? {} : { errorCode: outcome.errorCode }),
      ...(match ? { duplicateOf: store.urlOf(match.id) ?? '' } : {}),
    });
    if (!shouldObserve) return;
    // Asked about before `observe`: the strategy's link model still holds what it expected (read
    // only while a question may still be asked).
    const desk = this.o.questionDesk;
    desk?.afterPage(
      store.lastPageId,
      action,
      outcome,
      outcome.isPage && desk.hasQuestionsLeft ? strategy.linkProbability?.(action) : undefined,
    );
    if (isHeld) {
      this.o.spill.held(store.lastPageId, outcome.links.length, outcome.probability);
      strategy.observe({ ...outcome, links: [], areLinksHeld: true });
    } else strategy.observe(outcome);
    this.o.snapshots.recorded(action.url);
    this.o.checkpoints.saveIfDue();
    this.o.snapshots.saveIfDue();
  }

  /** Records an attempt that failed with error `code` (and HTTP `status`, 0 for none). */
  recordFailure(action: Action, code: string, status: number): void {
    const record = {
      url: action.url,
      status,
      host: action.host,
      domain: action.domain,
      depth: action.depth,
      reward: 0,
      probability: 0,
      errorCode: code,
      isPage: false,
      ...(action.parentUrl === undefined ? {} : { parentUrl: action.parentUrl }),
    };
    this.record(
      action,
      record,
      {
        action,
        finalUrl: action.url,
        isPage: false,
        reward: 0,
        probability: 0,
        links: [],
        errorCode: code,
      },
      undefined,
    );
  }

  /**
   * Drops from a page's links those fetched, started or redirected to since it was parsed: while
   * its WARC records were gzipped in the thread pool, or while a runner's fetch side (which cannot
   * know what this loop holds) parsed it, other fetches went on and were recorded first. A page's
   * recorded outlinks then leave out every page recorded before it, as they do when nothing waits
   * between parse and commit (`tres repair` reads them again that way). The record's outlinks and
   * the outcome's links stay one array.
   */
  dropLinksKnownSince(result: ProcessedFetch): void {
    const links = result.outcome.links.filter((l) => !this.o.state.isFetchedOrInFlight(l.url));
    if (links.length === result.outcome.links.length) return;
    result.outcome.links = links;
    result.record.outlinks = links;
  }
}
