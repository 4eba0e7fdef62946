/**
 * `apprentice`: the critic-apprentice crawler of Chakrabarti, Punera and Subramanyam ("Accelerated
 * focused crawling through online relevance feedback", WWW 2002).
 *
 * - The critic is the crawl's page judge: Pr(c*|v) of every fetched page (the reward).
 * - Baseline (section 2.1, and the whole crawler when `learn=0`): an unvisited link v gets the
 *   relevance of the page u it was found on; best-first. A URL found again on a more relevant
 *   page moves up (as `best-first` does; footnote 2 allows "combinations of scores").
 * - Apprentice (sections 2.2-2.3): a naive Bayes learner over <token, DOM offset> features of the
 *   link (u, v), |offset| <= dMax, plus the critic's class of u. After every batch of
 *   `batchPages` fetched pages, each page v of the batch fetched through a link (u, v) gives the
 *   instance <(u, v), verdict on v>; the instances are added to the model and the whole
 *   frontier is rescored with it (priority = P(HIGH) of the link, kept as log-odds).
 * - The DOM window (section 3.4, which chose dmax per topic by validation accuracy): before a
 *   batch's instances are learned, the model scores each of them with the features at
 *   |offset| <= w for every w from 0 to dMax; the window whose scores ranked the last 10,000
 *   such instances best (ROC AUC) orders the frontier until the next batch (`shouldSelectWindow=false`:
 *   always dMax).
 * - The features of v are those of the first link to v that was found (footnote 2: "freeze the
 *   priority of v when the first-visited u linking to v is assessed"); the paper's "any page u
 *   fetched before the current batch links to some page v in the batch" gives several instances
 *   per v, we take the one link v was fetched through (its first), as the frontier keeps one
 *   feature set per URL.
 * - Not implemented: the optional cocitation features <HIGH|LOW, d> of section 3.6 (the paper
 *   measured no gain). They need the DOM offsets between sibling links and the verdicts of
 *   already fetched siblings; the loop gives a strategy only the new, unfetched outlinks and no
 *   positions of the others.
 *
 * Storage (at most 300 bytes per frontier URL): the frontier is an
 * IndexedPriorityFrontier (samples as ids into typed-array columns, `parent` indexing the fetched
 * pages' URLs) and the known URLs live in ./known-links.ts, typed arrays by interned URL id.
 *
 * Resume: the model, its feature space, the open batch and the window history come back from the
 * checkpoint (`checkpoint`); the replay rebuilds the frontier from the stored outlinks, whose
 * contexts the store keeps, and learns only from pages after the checkpoint.
 *
 * Cost per step: encoding a page's links (one Map lookup per context token); after each batch,
 * rescoring the frontier, O(frontier x tokens per link) plus rebuilding the heap (about 0.1 s
 * for 100k URLs, i.e. well under a millisecond per page at batchPages = 200).
 */
import { ConfigError } from '../../common/index.js';
import { IndexedPriorityFrontier } from '../../frontier/index.js';
import { rocAuc } from '../../relevance/index.js';
import type { Action, DiscoveredLink, Outcome, SelectionContext } from '../../types/index.js';
import type { Strategy, StrategyStats } from '../strategy.js';
import { type ApprenticeConfig, resolveApprenticeConfig, WINDOW_HISTORY } from './apprentice-config.js';
import { ApprenticeModel, type ApprenticeModelState } from './apprentice-model.js';
import { KnownLinks } from './known-links.js';
import { LinkFeatureSpace } from './link-features.js';

/** What {@link ApprenticeStrategy.checkpoint} stores. */
export interface ApprenticeCheckpoint {
  format: number;
  space: { names: string[]; distances: Int32Array };
  model: ApprenticeModelState;
  batch: { features: Int32Array; isHigh: boolean }[];
  pagesInBatch: number;
  batches: number;
  history: { labels: number[]; scores: number[][] };
}

export interface ApprenticeOptions {
  /** Settings by field name (see `APPRENTICE_SETTINGS`); defaults for the rest. */
  overrides?: Partial<ApprenticeConfig>;
  /** Name to report. @default 'apprentice' */
  name?: string;
}

export class ApprenticeStrategy implements Strategy {
  /** Held links come back best page first: a relevant source page raises its links' scores. */
  readonly heldLinksOrder = 'probability';
  readonly name: string;
  readonly needsLinkContext = true;
  readonly config: Readonly<ApprenticeConfig>;
  private readonly space: LinkFeatureSpace;
  private readonly model: ApprenticeModel;
  /** Unfetched URLs known: the features of the first link found, the baseline, ... */
  private readonly samples = new KnownLinks();
  /** URL of each page whose outlinks were found: a known URL's `parent` indexes it (-1: a seed). */
  private readonly parentUrls: string[] = [];
  /** URLs fetched (or redirected to); never queued again. */
  private readonly done = new Set<string>();
  private frontier = new IndexedPriorityFrontier();
  /** Instances of the current batch: features of (u, v) and the critic's verdict on v. */
  private batch: { features: Int32Array; isHigh: boolean }[] = [];
  private pagesInBatch = 0;
  private batches = 0;
  private rescored = 0;
  /**
   * Prequential record for the window choice: each past instance's label and, per window w, the
   * log-odds the model of the batches before gave it (the most recent WINDOW_HISTORY).
   */
  private readonly history: { labels: number[]; scores: number[][] } = { labels: [], scores: [] };
  /** The loop's last selection context, to drop samples of closed domains when rescoring. */
  private lastCtx: SelectionContext | undefined;

  constructor(options: ApprenticeOptions = {}) {
    this.config = resolveApprenticeConfig(options.overrides);
    this.name = options.name ?? 'apprentice';
    this.space = new LinkFeatureSpace(this.config.dMax);
    this.model = new ApprenticeModel(this.config.alpha, this.config.dMax, (id) => this.space.distanceOf(id));
  }

  /** True once the apprentice orders the frontier (after the first batch with both classes). */
  get isApprenticeActive(): boolean {
    return this.config.isLearning && this.model.isReady;
  }

  seed(links: DiscoveredLink[]): void {
    for (const link of links) {
      if (this.done.has(link.url) || this.samples.idOf(link.url) !== undefined) continue;
      this.push(this.samples.add(link, -1, NO_FEATURES, Number.POSITIVE_INFINITY));
    }
  }

  next(ctx: SelectionContext): Action | undefined {
    this.lastCtx = ctx;
    const [id] = this.frontier.draw(ctx);
    if (id === undefined) return undefined;
    const t = this.frontier.table;
    const action: Action = { url: t.url(id), host: t.host(id), domain: t.domain(id), depth: t.depth(id) };
    const parent = t.parent(id);
    if (parent >= 0) action.parentUrl = this.parentUrls[parent] as string;
    this.frontier.take(id);
    const u = this.samples.idOf(action.url);
    if (u !== undefined) this.samples.setTaken(u);
    return action;
  }

  observe(outcome: Outcome): void {
    const { action } = outcome;
    const u = this.samples.idOf(action.url);
    // A training instance: a page v fetched through a link (u, v), with the critic's verdict
    // on v. A failed fetch (404, not HTML, ...) is a LOW instance: the paper's crawler fetched
    // and classified whatever came back, and an error page is a fetch thrown away (loss).
    // (Measured: it does not lower the apprentice's failures on the generated web, about 4% of
    // the budget against the baseline's 1%: dead links there carry the source page's topic
    // words, so their features are those of good links.)
    // A page the restored checkpoint reflects is in its model or its open batch already.
    const isLearned = outcome.isLearned === true;
    if (u !== undefined && this.samples.parent(u) >= 0 && !isLearned) {
      this.batch.push({ features: this.samples.features(u).slice(), isHigh: outcome.reward >= 1 });
    }
    for (const url of new Set([action.url, outcome.finalUrl])) {
      this.samples.delete(url);
      this.done.add(url);
    }
    this.queueLinks(outcome);
    if (!isLearned && ++this.pagesInBatch >= this.config.batchPages) this.endBatch();
  }

  /**
   * Queues `outcome`'s links (the links part of `observe`; see `Strategy.queueLinks`), scored by
   * the model as it is now.
   */
  queueLinks(outcome: Outcome): void {
    const isSourceRelevant = outcome.reward >= 1;
    const parent = this.parentUrls.length;
    if (outcome.links.length > 0) this.parentUrls.push(outcome.action.url);
    for (const link of outcome.links) this.discover(link, parent, outcome.probability, isSourceRelevant);
  }

  /**
   * What the apprentice has learned: the naive Bayes counts and window, the feature space they
   * are indexed by, the open batch and the window-choice history. The frontier comes back by
   * replaying the stored pages (with their links' stored contexts).
   */
  checkpoint(): ApprenticeCheckpoint {
    return {
      format: 1,
      space: this.space.learnedState(),
      model: this.model.learnedState(),
      batch: this.batch.map((b) => ({ features: b.features, isHigh: b.isHigh })),
      pagesInBatch: this.pagesInBatch,
      batches: this.batches,
      history: { labels: [...this.history.labels], scores: this.history.scores.map((r) => [...r]) },
    };
  }

  /** Loads an {@link ApprenticeStrategy.checkpoint} (before `seed` and the replay). @throws ConfigError if it does not fit. */
  restore(checkpoint: unknown): void {
    const c = checkpoint as ApprenticeCheckpoint;
    if (c?.format !== 1) throw new ConfigError('not an apprentice checkpoint of format 1');
    this.space.loadLearnedState(c.space);
    this.model.loadLearnedState(c.model);
    this.batch = c.batch.map((b) => ({ features: b.features, isHigh: b.isHigh }));
    this.pagesInBatch = c.pagesInBatch;
    this.batches = c.batches;
    this.history.labels.push(...c.history.labels);
    this.history.scores.push(...c.history.scores);
  }

  stats(): StrategyStats {
    const [low, high] = this.model.instanceCounts;
    return {
      ...this.frontier.stats(),
      // Known URLs not yet returned, not the frontier's entries: those hold stale copies (a URL
      // pushed again under a new key, URLs a resume's replay observed) until drawn.
      'frontier/size': this.samples.waitingCount,
      'apprentice/batches': this.batches,
      'apprentice/instances_low': low,
      'apprentice/instances_high': high,
      'apprentice/features': this.space.size,
      'apprentice/rescored_urls': this.rescored,
      'apprentice/window': this.model.window,
    };
  }

  /** A link of a fetched page: a new URL gets a sample; a known one may move up (baseline). */
  private discover(
    link: DiscoveredLink,
    parent: number,
    probability: number,
    isSourceRelevant: boolean,
  ): void {
    if (this.done.has(link.url)) return;
    const samples = this.samples;
    const known = samples.idOf(link.url);
    if (known !== undefined) {
      // Baseline: a URL found on a more relevant page moves up. With the apprentice active the
      // priority is frozen at the first link (footnote 2).
      if (!samples.isTaken(known) && !this.isApprenticeActive && probability > samples.baseline(known)) {
        samples.setBaseline(known, probability);
        this.push(known);
      } else if (probability > samples.baseline(known)) {
        samples.setBaseline(known, probability);
      }
      return;
    }
    const features = this.config.isLearning ? this.space.encode(link, isSourceRelevant) : NO_FEATURES;
    this.push(samples.add(link, parent, features, probability));
  }

  /** Adds known URL `u` to the frontier under its current key (older copies drop out lazily). */
  private push(u: number): void {
    const s = this.samples;
    const input = { url: s.url(u), host: s.host(u), domain: s.domain(u), depth: s.depth(u) };
    this.frontier.addWithKey(input, s.parent(u), this.keyOf(u));
  }

  /** Smaller first: seeds, then the apprentice's log-odds (or the baseline's relevance). */
  private keyOf(u: number): number {
    const baseline = this.samples.baseline(u);
    if (baseline === Number.POSITIVE_INFINITY) return Number.NEGATIVE_INFINITY;
    return this.isApprenticeActive ? -this.model.logOdds(this.samples.features(u)) : -baseline;
  }

  /** Section 2.1: add the batch's instances, then rescore the whole frontier. */
  private endBatch(): void {
    this.pagesInBatch = 0;
    if (!this.config.isLearning) return;
    if (this.config.shouldSelectWindow) this.recordPredictions();
    for (const { features, isHigh } of this.batch) this.model.add(features, isHigh);
    this.batch = [];
    this.batches++;
    if (!this.model.isReady) return;
    if (this.config.shouldSelectWindow) this.model.window = this.bestWindow();
    const frontier = new IndexedPriorityFrontier();
    this.frontier = frontier;
    const ctx = this.lastCtx;
    const s = this.samples;
    for (let u = 0; u < s.idCount; u++) {
      if (!s.has(u)) continue;
      if (ctx?.isDomainClosed(s.domain(u))) s.delete(s.url(u));
      else if (!s.isTaken(u)) this.push(u);
    }
    this.rescored += frontier.size;
  }

  /** Scores the batch's instances under every window with the model before it learns them. */
  private recordPredictions(): void {
    if (!this.model.isReady) return;
    const { labels, scores } = this.history;
    for (const { features, isHigh } of this.batch) {
      labels.push(isHigh ? 1 : 0);
      const row: number[] = [];
      for (let w = 0; w <= this.config.dMax; w++) row.push(this.model.logOdds(features, w));
      scores.push(row);
    }
    const excess = labels.length - WINDOW_HISTORY;
    if (excess > 0) {
      labels.splice(0, excess);
      scores.splice(0, excess);
    }
  }

  /** The window whose recorded predictions have the highest ROC AUC (ties: the wider). */
  private bestWindow(): number {
    const { labels, scores } = this.history;
    let best = this.config.dMax;
    let bestAuc = Number.NEGATIVE_INFINITY;
    for (let w = this.config.dMax; w >= 0; w--) {
      const auc = rocAuc(
        labels,
        scores.map((row) => row[w] as number),
      );
      if (auc > bestAuc) {
        bestAuc = auc;
        best = w;
      }
    }
    return best;
  }
}

const NO_FEATURES = new Int32Array(0);
