/**
 * `rlwcs`: Reinforcement Learning with Classifier Selection (Partalas, Paliouras and Vlahavas,
 * ECAI 2008), and `svm-links`, its baseline "crawler that uses a SVM to assign scores to the
 * URLs" (section 3).
 *
 * Per fetched page (the state), Q(lambda) picks an action among the classifiers H = {NN, SVM,
 * NB, DT} and their majority scheme S; the chosen one scores that page's outlinks, which enter a
 * priority frontier keyed by the score (best first). The reward of the choice is 1 if the next
 * fetched page is relevant (section 2). State-action features (section 2), one block per action:
 *   [bias, relevance of the page (the judge's P), the chosen classifier's score of the page,
 *    mean relevance of the page's fetched parents, hub score].
 * Choices where the paper is silent:
 * - What a classifier scores for a URL (section 2: "the classifier's score that a URL belongs to
 *   the relevant class"): by default (`shouldScoreLinks=false`) the page, and all its outlinks inherit
 *   the chosen classifier's score of it: the classifiers are document classifiers (section 3),
 *   the classifier-guided crawler of the paper's reference [2] (Pant and Srinivasan 2005)
 *   scores URLs so, and that score is then the state feature "relevance score of the page,
 *   computed by the selected classifier". With `shouldScoreLinks=true` each link's own text (anchor
 *   text, DOM context tokens, URL words) is scored instead; measured, it is far less stable
 *   (see `RlwcsConfig.shouldScoreLinks`).
 * - Training data: the paper trains the pool once, before crawling, on labelled topic pages. A
 *   crawl has only its own pages: the first `trainAfterPages` fetched pages (outlinks ordered
 *   best-first until then), labelled by the crawl's judge, then every `retrainEvery` pages on
 *   the latest `maxTrainingPages` pages (0: never retrain, as the paper).
 * - Hub score: undefined in the paper; a page's outlinks are not fetched when it is, so HITS
 *   cannot be run; we take ln(1 + out-degree) / ln(1 + hubOutDegree), capped at 1.
 * - Parents' mean relevance: of the fetched pages that link to the page (0.5 for seeds).
 * - A URL found again on another page is queued again only with a better score.
 *
 * Resume: Q(lambda), the pool's training pages (the pool is trained again from them, the same
 * pool), the training window, the streams and the score each page's outlinks were queued with
 * come back from the checkpoint (`checkpoint`). The replay rebuilds the frontier with those
 * scores and the parent statistics, so a resumed crawl fetches what the crawl that stopped would
 * have (before the scores were kept, replayed outlinks were keyed by their page's
 * relevance, best-first, and resumed crawls on DocWeb hardware reached +34 points of harvest
 * rate over uninterrupted ones). Pages after the checkpoint are not learned from (no text) and
 * their outlinks are keyed by the page's relevance.
 *
 * Cost per step: the page's TF-IDF vector and the five actions' scores of it (tens of
 * microseconds), plus with `shouldScoreLinks=true` one vector and one score per outlink (about 10 us
 * each). Training the pool on 3,000 pages took 1.3 s on a loaded 2-core machine, every
 * `retrainEvery` pages: about 1.6 ms per page over a 3,000-page crawl.
 */

import type { Rng } from '../../common/index.js';
import { ConfigError } from '../../common/index.js';
import { IndexedPriorityFrontier, takeBestAction } from '../../frontier/index.js';
import { pageTokens, tokenize, urlTokens } from '../../text/index.js';
import type { Action, DiscoveredLink, Outcome, SelectionContext } from '../../types/index.js';
import { ObservationLog } from '../observation-log.js';
import type { Strategy, StrategyStats } from '../strategy.js';
import { WaitingUrls } from '../waiting-urls.js';
import { ClassifierPool, POOL_ACTIONS, SVM_ACTION } from './classifier-pool.js';
import { LinearQLambda, type QLambdaState } from './q-lambda.js';
import { type RlwcsConfig, type RlwcsVariant, resolveRlwcsConfig } from './rlwcs-config.js';
import { UrlRecords } from './url-records.js';

export interface RlwcsOptions {
  variant: RlwcsVariant;
  rng: Rng;
  /** Settings by field name (see `RLWCS_SETTINGS`); defaults for the rest. */
  overrides?: Partial<Omit<RlwcsConfig, 'variant'>>;
  /** Name to report. @default the variant */
  name?: string;
}

/** The classifier chosen for a page's outlinks (an index of POOL_ACTIONS) and its score of the page. */
interface Choice {
  action: number;
  pageScore: number;
}

/** Features of one state-action block: bias, page relevance, classifier score, parents, hub. */
const BLOCK = 5;

/** Tokens a classifier sees for a link: context (or anchor) words and URL words. */
export function linkTokens(link: DiscoveredLink): string[] {
  const text = link.context !== undefined ? link.context.tokens.join(' ') : link.anchorText;
  return tokenize(text).concat(urlTokens(link.url));
}

/** What {@link RlwcsStrategy.checkpoint} stores. */
export interface RlwcsCheckpoint {
  format: number;
  /** Tokens of each training page, once; the lists below index them. */
  pages: string[][];
  docs: Int32Array;
  labels: Uint8Array;
  trainedOn?: { docs: Int32Array; labels: Uint8Array };
  pagesSinceTraining: number;
  trainings: number;
  agent: QLambdaState;
  policyRng: number[];
  pagesScored: number;
  pagesAgreed: number;
  actionCounts: number[];
  /**
   * The score the outlinks of each observed page with outlinks were queued with (one per
   * outlink with `shouldScoreLinks`), in observation order (format 2; see ObservationLog);
   * format 1 has none, and its replay queues them by the page's relevance.
   */
  queuedScores?: Float64Array;
}

export class RlwcsStrategy implements Strategy {
  readonly name: string;
  /** Link context is read only when links are scored by their own text (`shouldScoreLinks=true`). */
  readonly needsLinkContext: boolean;
  readonly config: Readonly<RlwcsConfig>;
  /** Waiting URLs as ids; `parent` indexes {@link RlwcsStrategy.parentUrls}. */
  private readonly frontier = new IndexedPriorityFrontier();
  private readonly parentUrls: string[] = [];
  /** Per URL seen: best key queued with (-inf once fetched), relevance of the pages linking to it. */
  private readonly records = new UrlRecords();
  /** The frontier's size: the priority frontier's own count holds stale samples. */
  private readonly waiting = new WaitingUrls();
  private readonly agent: LinearQLambda;
  private readonly policyRng: Rng;
  private readonly trainRng: Rng;
  private pool: ClassifierPool | undefined;
  private docs: string[][] = [];
  private labels: number[] = [];
  /** The pages the pool was last trained on (a checkpoint trains it again from them). */
  private trainedOn: { docs: string[][]; labels: Uint8Array } | undefined;
  private pagesSinceTraining = 0;
  private trainings = 0;
  /** Pages scored by a trained pool, and those on which all its classifiers agreed. */
  private pagesScored = 0;
  private pagesAgreed = 0;
  private readonly actionCounts = new Array<number>(POOL_ACTIONS.length).fill(0);
  private readonly queuedScores = new ObservationLog();

  constructor(options: RlwcsOptions) {
    this.config = resolveRlwcsConfig(options.variant, options.overrides);
    this.name = options.name ?? options.variant;
    this.needsLinkContext = this.config.shouldScoreLinks;
    const { alpha, gamma, lambda } = this.config;
    this.agent = new LinearQLambda({ actions: POOL_ACTIONS.length, features: BLOCK, alpha, gamma, lambda });
    this.policyRng = options.rng.fork('policy');
    this.trainRng = options.rng.fork('pool');
  }

  seed(links: DiscoveredLink[]): void {
    for (const link of links) this.enqueue(link, -1, Number.NEGATIVE_INFINITY);
  }

  next(ctx: SelectionContext): Action | undefined {
    const action = takeBestAction(this.frontier, ctx, this.parentUrls);
    if (action) this.waiting.drew(action.url);
    return action;
  }

  observe(outcome: Outcome): void {
    const { action } = outcome;
    for (const url of new Set([action.url, outcome.finalUrl])) {
      const key = this.records.key(url);
      this.waiting.observed(url, key !== undefined && key !== Number.NEGATIVE_INFINITY);
      this.records.setKey(url, Number.NEGATIVE_INFINITY);
      this.frontier.removeUrl(url);
    }
    const parentMean = this.records.takeParentMean(action.url) ?? 0.5;
    for (const link of outcome.links) this.records.addParent(link.url, outcome.probability);

    // A replayed page has no text: the checkpoint holds what RLwCS learned from it.
    const hasText = outcome.isPage && outcome.text !== undefined && outcome.isDuplicate !== true;
    const tokens = hasText ? pageTokens(outcome.title ?? '', outcome.text ?? '') : undefined;
    const choice = tokens !== undefined ? this.choose(outcome, tokens, parentMean) : undefined;
    if (tokens === undefined && !outcome.isReplay && this.isLearning) {
      // The next fetch failed (or copied a page): reward 0 for the last choice, and no state
      // to go on from, so the episode ends.
      this.agent.endEpisode(outcome.reward);
    }
    if (outcome.links.length > 0) {
      const parent = this.parentUrls.push(action.url) - 1;
      if (outcome.isLearned === true) this.enqueueAsQueued(outcome, parent);
      else this.enqueueScored(outcome, parent, choice);
    }
    if (tokens !== undefined) this.addTrainingPage(tokens, outcome.reward);
  }

  /**
   * Queues the outlinks of a page observed now: by the chosen classifier's score (of the page,
   * which every outlink inherits, or of each link's own text with `shouldScoreLinks`), or by the
   * page's relevance when no classifier was chosen (the pool not trained yet, no text). Keeps
   * the scores for a checkpoint.
   */
  private enqueueScored(outcome: Outcome, parent: number, choice: Choice | undefined): void {
    const pool = this.pool;
    const isPerLink = this.config.shouldScoreLinks;
    if (!isPerLink) this.queuedScores.add(choice?.pageScore ?? outcome.probability);
    for (const link of outcome.links) {
      const score =
        choice === undefined || pool === undefined
          ? outcome.probability
          : isPerLink
            ? pool.score(choice.action, pool.terms.vector(linkTokens(link)))
            : choice.pageScore;
      if (isPerLink) this.queuedScores.add(score);
      this.enqueue(link, parent, -score);
    }
  }

  /**
   * Queues the outlinks of a replayed page the restored checkpoint reflects with the scores they
   * were queued with when it was observed (the page's text, which scored them, is not stored);
   * the page's relevance if the checkpoint has none (format 1).
   */
  private enqueueAsQueued(outcome: Outcome, parent: number): void {
    const isPerLink = this.config.shouldScoreLinks;
    const pageScore = isPerLink ? undefined : this.queuedScores.takeStored();
    for (const link of outcome.links) {
      const score = (isPerLink ? this.queuedScores.takeStored() : pageScore) ?? outcome.probability;
      this.enqueue(link, parent, -score);
    }
  }

  /**
   * What RLwCS has learned: Q(lambda) (weights, traces, the step it waits to close), the pages
   * the classifier pool was trained on (the pool is trained again from them on restore: the same
   * pages and training stream give the same pool), the training pages since, the streams and
   * counters. The frontier and parent statistics come back by replaying the stored pages.
   */
  checkpoint(): RlwcsCheckpoint {
    // Each page's tokens once: the training window and the pool's pages share most of them.
    const pages: string[][] = [];
    const indexOf = new Map<string[], number>();
    const ids = (docs: string[][]) =>
      Int32Array.from(docs, (d) => {
        let i = indexOf.get(d);
        if (i === undefined) {
          i = pages.push(d) - 1;
          indexOf.set(d, i);
        }
        return i;
      });
    const docs = ids(this.docs);
    return {
      format: 2,
      pages,
      docs,
      labels: Uint8Array.from(this.labels),
      ...(this.trainedOn
        ? { trainedOn: { docs: ids(this.trainedOn.docs), labels: this.trainedOn.labels } }
        : {}),
      pagesSinceTraining: this.pagesSinceTraining,
      trainings: this.trainings,
      agent: this.agent.learnedState(),
      policyRng: this.policyRng.getState(),
      pagesScored: this.pagesScored,
      pagesAgreed: this.pagesAgreed,
      actionCounts: [...this.actionCounts],
      queuedScores: this.queuedScores.saved(),
    };
  }

  /** Loads an {@link RlwcsStrategy.checkpoint} (before `seed` and the replay). @throws ConfigError if it does not fit. */
  restore(checkpoint: unknown): void {
    const c = checkpoint as RlwcsCheckpoint;
    if (c?.format !== 1 && c?.format !== 2) throw new ConfigError('not an RLwCS checkpoint of format 1 or 2');
    const page = (i: number) => {
      const tokens = c.pages[i];
      if (tokens === undefined)
        throw new ConfigError(`RLwCS checkpoint names page ${i} of ${c.pages.length}`);
      return tokens;
    };
    this.docs = Array.from(c.docs, page);
    this.labels = Array.from(c.labels);
    if (c.trainedOn) {
      this.trainedOn = { docs: Array.from(c.trainedOn.docs, page), labels: c.trainedOn.labels };
      this.pool = ClassifierPool.train(
        this.trainedOn.docs,
        this.trainedOn.labels,
        this.config.features,
        this.trainRng.fork(`training-${c.trainings - 1}`),
      );
    }
    this.pagesSinceTraining = c.pagesSinceTraining;
    this.trainings = c.trainings;
    this.agent.loadLearnedState(c.agent);
    this.policyRng.setState(c.policyRng);
    this.pagesScored = c.pagesScored;
    this.pagesAgreed = c.pagesAgreed;
    c.actionCounts.forEach((n, a) => {
      this.actionCounts[a] = n;
    });
    if (c.queuedScores !== undefined) this.queuedScores.load(c.queuedScores);
  }

  /** True if Q(lambda) chooses and learns (`rlwcs` with learn=1, once the pool is trained). */
  private get isLearning(): boolean {
    return (
      this.pool !== undefined &&
      this.config.variant === 'rlwcs' &&
      this.config.isLearning &&
      this.config.fixedClassifier === false
    );
  }

  stats(): StrategyStats {
    const stats: StrategyStats = {
      ...this.frontier.stats(),
      'frontier/size': this.waiting.size,
      'rlwcs/trainings': this.trainings,
      'rlwcs/pages_scored': this.pagesScored,
      'rlwcs/pages_all_agree': this.pagesAgreed,
      'rl/td_error': this.agent.meanTdError,
      'rl/updates': this.agent.updateCount,
    };
    POOL_ACTIONS.forEach((name, a) => {
      stats[`rlwcs/chose_${name}`] = this.actionCounts[a] as number;
    });
    return stats;
  }

  /**
   * The classifier for this page's outlinks and its score of the page: Q(lambda) epsilon-greedy
   * (learning from this page's reward for the previous choice), a random one when learning is
   * off, the SVM for `svm-links`. Undefined before the pool is trained.
   */
  private choose(outcome: Outcome, tokens: string[], parentMean: number): Choice | undefined {
    const pool = this.pool;
    if (pool === undefined) return undefined;
    const x = pool.terms.vector(tokens);
    let chosen: number;
    let pageScore: number;
    if (this.config.variant === 'svm-links') {
      chosen = SVM_ACTION;
      pageScore = pool.score(SVM_ACTION, x);
    } else {
      // Every classifier's score of the page, once: the state features and the agreement count.
      const scores = POOL_ACTIONS.map((_, a) => pool.score(a, x));
      this.countAgreement(scores);
      if (this.config.fixedClassifier !== false) chosen = this.config.fixedClassifier;
      else if (!this.config.isLearning) chosen = this.policyRng.int(POOL_ACTIONS.length);
      else {
        const hub = Math.min(1, Math.log1p(outcome.links.length) / Math.log1p(this.config.hubOutDegree));
        const phis = new Float64Array(POOL_ACTIONS.length * BLOCK); // [actions, features]
        for (let a = 0; a < POOL_ACTIONS.length; a++) {
          phis.set([1, outcome.probability, scores[a] as number, parentMean, hub], a * BLOCK);
        }
        // Reward 1 for a relevant next page: this page's reward closes the previous choice.
        this.agent.update(outcome.reward, phis);
        chosen =
          this.policyRng.next() < this.config.epsilon
            ? this.policyRng.int(POOL_ACTIONS.length)
            : this.agent.greedy(phis);
        this.agent.act(phis, chosen);
      }
      pageScore = scores[chosen] as number;
    }
    this.actionCounts[chosen] = (this.actionCounts[chosen] as number) + 1;
    return { action: chosen, pageScore };
  }

  /**
   * Diagnostic (does the choice matter?): pages on which every classifier of the pool
   * gives the same verdict (score on the same side of 0.5), out of the pages scored.
   */
  private countAgreement(scores: readonly number[]): void {
    const relevantVotes = scores.filter((score) => score >= 0.5).length;
    this.pagesScored++;
    if (relevantVotes === 0 || relevantVotes === scores.length) this.pagesAgreed++;
  }

  /** Keeps the page as a training document and (re)trains the pool when it is due. */
  private addTrainingPage(tokens: string[], reward: number): void {
    this.docs.push(tokens);
    this.labels.push(reward >= 1 ? 1 : 0);
    if (this.docs.length > this.config.maxTrainingPages) {
      this.docs = this.docs.slice(-this.config.maxTrainingPages);
      this.labels = this.labels.slice(-this.config.maxTrainingPages);
    }
    this.pagesSinceTraining++;
    const isDue =
      this.pool === undefined
        ? this.docs.length >= this.config.trainAfterPages
        : this.config.retrainEvery !== false && this.pagesSinceTraining >= this.config.retrainEvery;
    const positives = this.labels.reduce((s, y) => s + y, 0);
    if (!isDue || positives === 0 || positives === this.labels.length) return;
    this.trainedOn = { docs: this.docs.slice(), labels: Uint8Array.from(this.labels) };
    this.pool = ClassifierPool.train(
      this.trainedOn.docs,
      this.trainedOn.labels,
      this.config.features,
      this.trainRng.fork(`training-${this.trainings}`),
    );
    this.trainings++;
    this.pagesSinceTraining = 0;
  }

  /** Queues `link` under `key`; `parent` indexes {@link RlwcsStrategy.parentUrls} (-1: seed). */
  private enqueue(link: DiscoveredLink, parent: number, key: number): void {
    const previous = this.records.key(link.url);
    if (previous !== undefined && previous <= key) return;
    if (previous === undefined) this.waiting.queued();
    this.records.setKey(link.url, key);
    this.frontier.addWithKey(link, parent, key);
  }
}
