/**
 * `coverage`: relevant pages from many relevant sites. Each frontier link is valued by
 *
 *   value = p * (1 + lambda * [the link's site holds no judged-relevant page yet])
 *
 * (with `siteSaturation` S, the 1 becomes 1 / (1 + n / S) for a site that gave n judged-relevant
 * pages: diminishing returns per site; with `newSitePatience` P, lambda becomes lambda * 2^(-f / P)
 * for a site with f fetched pages and none judged relevant),
 *
 * the expected relevant pages of fetching it plus lambda (`newSiteValue`) times the expected
 * first relevant page of a site: a coverage objective with diminishing returns per site (a
 * site's first relevant page is worth 1 + lambda, every later one 1). p = P(target judged
 * relevant) comes from one online logistic model (./online-link-model.ts), trained on every
 * fetched link's outcome as the crawler's judge saw it (not the truth; with `gain=probability`
 * the judge's probability rather than its verdict, and a site's coverage the chance that one of
 * its pages is relevant), on:
 *
 * - the link's URL, anchor and context words (ACHE's link features);
 * - the logit of the parent page's P(relevant) (weight 1 at the start: best-first);
 * - the target site's yield: the logit of its judged-relevant pages per fetched page (Jeffreys
 *   prior), or an "unvisited site" indicator;
 * - for a link to another site, the hub yield: the logit of the share of judged-relevant targets
 *   among the off-site links followed so far from the parent page, shrunk to that of every page
 *   of the parent's site (a page whose links out led to relevant pages is a hub), and an
 *   "off-site" indicator;
 * - the logit of the judge's own score of the link's anchor and URL words (`anchors`).
 *
 * A link is also worth p times lambda times the new relevant sites its target's site has led to
 * per fetched page (`isHubSiteValued`): a page of a hub (a package index whose pages link to
 * projects' home pages) is worth the sites it leads to. The defaults (lambda 3, anchors on) are
 * the ones measured on the five DocWeb topics (results/coverage-strategy/default.md); hub sites
 * with siteShareValue 0.1 (results/coverage-strategy/hub-default.md); siteSaturation 1000 on
 * those, the generated web and three check topics, from the topic files' seeds and from seeds
 * drawn at random (results/coverage-strategy/saturation.md and default-parts.md).
 *
 * Frontier: an IndexedPriorityFrontier keyed by -value (per-host heaps behind one heap; ties by
 * URL). Values change as sites and hubs are learned. A drawn link is valued again; if its value
 * fell by more than `recheckTolerance` (e.g. its site just got its first relevant page, or its
 * yield fell) it goes back with the new value and the next is drawn, so falls are exact at the
 * head (lazy greedy). Rises are caught by a rescoring of the whole frontier every
 * `rescoreEveryPages` pages (every frontier / 50 pages when that is longer), and by the new
 * links of each fetched page.
 *
 * Storage per queued URL: ACHE's QueuedLinks (typed arrays by interned URL id: serial, sample,
 * parent index, parent probability, word ids in a shared pool) and the frontier's sample table:
 * the bytes per URL of `ache`, plus 12 (the site id and the value the URL was queued with).
 *
 * Resume: from a frontier snapshot (`frontierSnapshot`: everything held, the frontier's stale
 * samples and counters included) the strategy is what it was, and the pages recorded after it
 * are replayed and learned from. Without one, the link model and its vocabulary come back from
 * the checkpoint (`checkpoint`); the replayed outcomes rebuild the frontier and the counts in the
 * same order, and teach the model only the pages after the checkpoint. The frontier is rescored once, at the first step after
 * the replay, not every `rescoreEveryPages` replayed pages. A page is stored without the contexts
 * of the links `observe` passed over (`dropUnreadContexts`: on the engine benchmark's web 52% of the
 * links, 37% of the stored context words); a replay that values one of them, its queued link
 * not being the one the live crawl had, values it without its context words.
 */
import { ChunkedArray, ConfigError } from '../../common/index.js';
import { grownArray, IndexedPriorityFrontier } from '../../frontier/index.js';
import type {
  Action,
  DiscoveredLink,
  LinkContextWindow,
  Outcome,
  SelectionContext,
} from '../../types/index.js';
import { FieldWords, QueuedLinks } from '../ache/index.js';
import type { Strategy, StrategyStats } from '../strategy.js';
import { type CoverageConfig, resolveCoverageConfig } from './coverage-config.js';
import { logit, OnlineLinkModel, type OnlineLinkModelState, trainedOnly } from './online-link-model.js';
import { SiteYields, type SiteYieldsSnapshot, shrunk, siteOf } from './site-yields.js';

/** Real features of the link model (see `CoverageStrategy.realFeatures`), without the anchor score. */
const REAL_FEATURES = 5;
const NO_WORDS = new Int32Array(0);
/**
 * A frontier of F links is rescored at most every F / RESCORE_SHARE pages: a rescoring values
 * every queued link, so at a fixed period its cost grows with the frontier (quadratic in the
 * crawl's length: at 100k pages and 900k links, every 250 pages was 3,600 link values per page).
 * So a page pays for at most 50 link values. 200 (the first value) made rescoring a twelfth of
 * `coverage`'s CPU on the engine benchmark's 20,000 pages; at 50 the DocWeb's crawls of 3,000
 * pages are unchanged (their frontiers stay under 12,500 links) and those of 10,000 pages tie
 * (3 seeds each on hardware, programming languages and system administration: harvest rate
 * -0.3 to -0.1 points, relevant sites -0.3 to +4.7, within the spread).
 */
const RESCORE_SHARE = 50;
/**
 * Pseudo-pages at the crawl's mean of a site's new relevant sites found per page (`hubSites`).
 * A crawl finds a new relevant site every 12 pages or more (the DocWeb: 12-15 on hardware and
 * system administration, up to 120 on statistics), so a site's own rate needs about this many
 * pages before it tells a hub from the mean: with 1 (the first value), one page that led to one
 * new site made its site worth half a new site per page, and the crawl spent itself on small
 * sites that had been lucky once (on the demo's web 48 relevant sites at 1,000 pages instead of
 * 59; with 20, 59; on the DocWeb 1, 5 and 20 are within each other's spread:
 * results/coverage-strategy/hub-default.md, section 2).
 */
const HUB_PRIOR_PAGES = 20;
/** Word ids a chunk of a frontier snapshot holds (see `CoverageStrategy.wordChunks`). */
const WORD_CHUNK = 1 << 20;
/** A found link's URL was fetched (see `CoverageStrategy.screen`). */
const FETCHED = -3;
/** A found link's URL is queued and keeps its queued link (`isRefoundScreened`). */
const KEPT = -2;
/** A found link's URL is not queued. */
const NOT_QUEUED = -1;
/** Pseudo-sites of `siteShareValue`'s prior (relevant pages per relevant site = newSiteValue / siteShareValue). */
const SITE_SHARE_PRIOR_SITES = 5;

export interface CoverageOptions {
  /** Settings by field name (see `COVERAGE_SETTINGS`); defaults for the rest. */
  overrides?: Partial<CoverageConfig>;
  /** Name to report. @default 'coverage' */
  name?: string;
  /**
   * The crawl's pages are judged by keyword counts alone (no trained model): `gain=auto` is then
   * the probability. @default false
   */
  isKeywordJudged?: boolean;
}

/**
 * What {@link CoverageStrategy.checkpoint} stores: the words the model has a weight for (format
 * 2; format 1 also held every word only seen in queued links) and the model indexed by them.
 */
export interface CoverageCheckpoint {
  format: number;
  words: string[];
  model: OnlineLinkModelState;
}

/**
 * What {@link CoverageStrategy.frontierSnapshot} stores: everything the strategy holds, so that a
 * resume goes on from it exactly (the vocabulary in its own order, every word of queued links
 * included, and the whole model indexed by it).
 */
export interface CoverageFrontierSnapshot {
  format: number;
  words: string[];
  model: OnlineLinkModelState;
  yields: SiteYieldsSnapshot;
  /** Queued URLs, and by the same index their serial, parent page, parent P, seed flag, ... */
  queuedUrls: string[];
  queuedSerials: Int32Array;
  queuedParents: Int32Array;
  queuedParentProbabilities: Float64Array;
  queuedSeeds: Uint8Array;
  queuedSites: Int32Array;
  queuedValues: Float64Array;
  queuedAnchors: Float32Array;
  /** ...and word ids: those of queued URL i end at `queuedWordEnds[i]` in `queuedWords`. */
  queuedWordEnds: Int32Array;
  /** Written a chunk at a time from the queue's pool (a {@link ChunkedArray}), read back whole. */
  queuedWords: Int32Array | ChunkedArray;
  /**
   * The frontier's samples, live and stale (the frontier's size counts both until a stale one
   * is drawn): the queued index of a live one, or -1 for a stale one, whose URL is next in
   * `staleUrls`; its host and domain by index into `hosts`; depth, serial and key.
   */
  sampleQueued: Int32Array;
  staleUrls: string[];
  hosts: string[];
  sampleHosts: Int32Array;
  sampleDomains: Int32Array;
  sampleDepths: Int32Array;
  sampleSerials: Int32Array;
  sampleKeys: Float64Array;
  serial: number;
  parentUrls: string[];
  parentLogits: Float64Array;
  fetched: string[];
  pagesSinceRescore: number;
  isRescoreDue: boolean;
  rechecks: number;
  keptAsQueued: number;
  rescorings: number;
  lambda: number;
}

/** What a drawn action carries back to `observe`. */
interface CoverageData {
  ids: Int32Array;
  parent: number;
  parentProbability: number;
  /** The judge's P(relevant) of the link's anchor and URL words (0.5 when not scored). */
  anchorProbability: number;
  isSeed: boolean;
}

export class CoverageStrategy implements Strategy {
  readonly name: string;
  /** Held links come back best page first: a link's value starts from its page's P(relevant). */
  readonly heldLinksOrder = 'probability';
  /** The words around links are features unless `isContextUsed` is false. */
  readonly needsLinkContext: boolean;
  /** The judge scores each new link's anchor and URL words when `isAnchorScoreUsed`. */
  readonly needsAnchorScores: boolean;
  readonly config: Readonly<CoverageConfig>;
  private readonly words = new FieldWords();
  /** The words around a link that are features (`contextLeaves`, `contextWords`): the parser keeps only them. */
  readonly linkContextWindow: Readonly<LinkContextWindow>;
  private readonly model: OnlineLinkModel;
  private readonly yields = new SiteYields();
  /** Scratch vector of the model's real features. */
  private readonly real: Float64Array;
  private readonly frontier = new IndexedPriorityFrontier();
  private readonly queued = new QueuedLinks();
  /** Site id of each queued URL id (by QueuedLinks' id). */
  private siteOfQueued = new Int32Array(1024);
  /** Value each queued URL id's live sample was keyed with. */
  private valueOfQueued = new Float64Array(1024);
  /** Anchor score of each queued URL id; empty unless `isAnchorScoreUsed` (no bytes per URL then). */
  private anchorOfQueued: Float32Array;
  private serial = 0;
  private readonly parentUrls: string[] = [];
  /**
   * logit of each parent page's P(relevant), by parent index: every link found on a page has
   * its P, and a rescoring values every link (a Math.log each saved).
   */
  private parentLogits = new Float64Array(1024);
  private readonly fetched = new Set<string>();
  /**
   * The outcome `dropUnreadContexts` last screened, until `observe` takes its links, and the
   * verdict on each of its links (`screen`).
   */
  private screenedOutcome: Outcome | undefined;
  private screened = new Int32Array(64);
  private pagesSinceRescore = 0;
  /** A replay has queued links since the last rescoring: the next step rescores first. */
  private isRescoreDue = false;
  private rechecks = 0;
  /** Links found again and kept as queued, unvalued (`isRefoundScreened`). */
  private keptAsQueued = 0;
  private rescorings = 0;
  /** lambda now: `newSiteValue`, or as `siteShareValue` set it. */
  private lambda: number;

  constructor(options: CoverageOptions = {}) {
    const config = resolveCoverageConfig(options.overrides);
    // The gain `auto` resolves to is kept in the config, so reports and a resume read what ran.
    const gain = config.gain !== 'auto' ? config.gain : options.isKeywordJudged ? 'probability' : 'verdict';
    this.config = Object.freeze({ ...config, gain });
    this.name = options.name ?? 'coverage';
    const realCount = REAL_FEATURES + (this.config.isAnchorScoreUsed ? 1 : 0);
    this.real = new Float64Array(realCount);
    this.anchorOfQueued = new Float32Array(this.config.isAnchorScoreUsed ? 1024 : 0);
    this.model = new OnlineLinkModel(this.config.learningRate, realCount);
    this.needsLinkContext = this.config.isWordUsed && this.config.isContextUsed;
    this.needsAnchorScores = this.config.isAnchorScoreUsed;
    this.linkContextWindow = { leaves: this.config.contextLeaves, words: this.config.contextWords };
    this.lambda = this.config.newSiteValue;
  }

  seed(links: DiscoveredLink[]): void {
    for (const link of links) {
      this.enqueue(link, {
        ids: this.encode(link),
        parent: -1,
        parentProbability: 1,
        anchorProbability: 0.5,
        isSeed: true,
      });
    }
  }

  next(ctx: SelectionContext): Action | undefined {
    if (this.isRescoreDue) this.rescore();
    for (;;) {
      const [id] = this.frontier.draw(ctx);
      if (id === undefined) return undefined;
      const t = this.frontier.table;
      const url = t.url(id);
      const serial = t.parent(id);
      const action: Action = { url, host: t.host(id), domain: t.domain(id), depth: t.depth(id) };
      this.frontier.take(id);
      const u = this.queued.idOf(url);
      if (u === undefined || this.queued.serial(u) !== serial) continue; // a stale copy
      const value = this.valueOf(u);
      if (value < (this.valueOfQueued[u] as number) - this.config.recheckTolerance) {
        // Its value fell since it was queued (lazy greedy): back in with the new one.
        this.rechecks++;
        this.requeue(u, action, value);
        continue;
      }
      const data = this.dataOf(u);
      action.data = data;
      const parent = data.parent;
      if (parent >= 0) action.parentUrl = this.parentUrls[parent] as string;
      this.queued.delete(url);
      return action;
    }
  }

  observe(outcome: Outcome): void {
    const { action } = outcome;
    // On replay the action carries no data: the URL's queued entry (rebuilt so far) has it.
    const queuedId = this.queued.idOf(action.url);
    const data: CoverageData | undefined =
      (action.data as CoverageData | undefined) ??
      (queuedId === undefined ? undefined : this.dataOf(queuedId));
    this.fetched.add(action.url);
    this.queued.delete(action.url);
    if (outcome.finalUrl !== action.url) {
      this.fetched.add(outcome.finalUrl);
      this.queued.delete(outcome.finalUrl);
    }
    const gain = this.gainOf(outcome);
    const site = this.yields.siteId(siteOf(action.host));
    // The model learns from the features as they were when the link was chosen (before this outcome).
    if (data !== undefined && !data.isSeed && this.config.isLinkLearning && outcome.isLearned !== true) {
      const real = this.realFeatures(data.parentProbability, data.parent, site, data.anchorProbability);
      this.model.update(this.config.isWordUsed ? data.ids : NO_WORDS, real, gain);
    }
    this.yields.record(site, gain, data?.parent ?? -1);
    const share = this.config.siteShareValue;
    if (share !== false)
      this.lambda =
        share * this.yields.relevantPerCoveredSite(this.config.newSiteValue / share, SITE_SHARE_PRIOR_SITES);
    this.queueLinksOf(outcome, site);
    const every = this.config.rescoreEveryPages;
    if (every === false) return;
    // A replay values the links it queues with the restored model; rescoring them as it goes is
    // work the first live step's rescoring does again (at 20,000 pages, a third of the replay's
    // time).
    if (outcome.isReplay) {
      this.isRescoreDue = true;
      return;
    }
    this.pagesSinceRescore++;
    if (this.pagesSinceRescore >= Math.max(every, this.frontier.size / RESCORE_SHARE)) this.rescore();
  }

  /**
   * A fetch's gain: judged relevant (1) or not (0); with `gain=probability`, the judge's
   * probability of a new page (a duplicate or a failure gains nothing).
   */
  private gainOf(outcome: Outcome): number {
    if (this.config.gain !== 'probability') return outcome.reward > 0 ? 1 : 0;
    return outcome.isPage && outcome.isDuplicate !== true ? outcome.probability : 0;
  }

  /**
   * Queues the links of a page observed without them (see `Strategy.queueLinks`): valued with
   * the model, site yields and hub estimates as they are now.
   */
  queueLinks(outcome: Outcome): void {
    this.queueLinksOf(outcome, this.yields.siteId(siteOf(outcome.action.host)));
  }

  /** The links part of `observe`: `outcome`'s links found on a page of site id `site`. */
  private queueLinksOf(outcome: Outcome, site: number): void {
    const { action } = outcome;
    if (outcome.links.length > 0) {
      const parent = this.yields.addParent(site);
      this.parentUrls.push(action.url);
      if (parent >= this.parentLogits.length) this.parentLogits = grownArray(this.parentLogits, parent * 2);
      this.parentLogits[parent] = logit(outcome.probability);
      // The verdicts `dropUnreadContexts` took on this outcome's links, when it did: only a link to
      // the page's own URLs, marked fetched since, is looked at again.
      const screened = this.screenedOutcome === outcome ? this.screened : undefined;
      const links = outcome.links;
      for (let i = 0; i < links.length; i++) {
        const link = links[i] as DiscoveredLink;
        const verdict =
          screened !== undefined && link.url !== action.url && link.url !== outcome.finalUrl
            ? (screened[i] as number)
            : this.screen(link, outcome.probability);
        if (verdict === FETCHED) continue;
        if (verdict === KEPT) {
          this.keptAsQueued++;
          continue;
        }
        const existing = verdict === NOT_QUEUED ? undefined : verdict;
        const anchorProbability = Math.fround(link.anchorProbability ?? 0.5); // as anchorOfQueued keeps it
        this.enqueue(
          link,
          {
            ids: this.encode(link),
            parent,
            parentProbability: outcome.probability,
            anchorProbability,
            isSeed: false,
          },
          existing,
        );
      }
    }
    this.screenedOutcome = undefined;
  }

  /**
   * Drops the contexts of the links `observe` will pass over: those fetched and, with
   * `isRefoundScreened`, those it will keep as queued (see the file comment), and keeps the
   * verdict on every link for `observe`. The state the test reads is `observe`'s when it reaches
   * the link: a page's links are distinct URLs, and what `observe` does before its loop (the
   * page's own URLs marked fetched) leaves the others' tests as they were (a link to one of those
   * URLs `observe` screens again).
   */
  dropUnreadContexts(outcome: Outcome): void {
    const links = outcome.links;
    if (this.screened.length < links.length) this.screened = new Int32Array(links.length * 2);
    for (let i = 0; i < links.length; i++) {
      const link = links[i] as DiscoveredLink;
      const verdict = this.screen(link, outcome.probability);
      this.screened[i] = verdict;
      if (verdict === FETCHED || verdict === KEPT) link.context = undefined;
    }
    // `observe` takes the verdicts instead of looking every link up again.
    this.screenedOutcome = outcome;
  }

  /**
   * What `observe` does with `link`, found on a page of P(relevant) `parentProbability`:
   * {@link FETCHED} or {@link KEPT} (passed over), {@link NOT_QUEUED}, or the id of its queued URL
   * (valued again).
   */
  private screen(link: DiscoveredLink, parentProbability: number): number {
    if (this.fetched.has(link.url)) return FETCHED;
    const u = this.queued.idOf(link.url);
    if (u === undefined) return NOT_QUEUED;
    return this.isKeptAsQueued(u, parentProbability, Math.fround(link.anchorProbability ?? 0.5)) ? KEPT : u;
  }

  /**
   * What `coverage` has learned: the link model and the vocabulary its word weights are indexed
   * by. The frontier, site yields and hub estimates come back by replaying the stored pages.
   */
  checkpoint(): CoverageCheckpoint {
    // Only the words a link the model learned from had: a word seen only in queued links has no
    // weight, and keeping every such word made the checkpoint (written every 500 pages) grow with
    // the frontier. The kept words keep their order, so a restored model sums its weights in the
    // same order.
    const { state, ids } = trainedOnly(this.model.learnedState());
    return { format: 2, words: ids.map((id) => this.words.nameOf(id)), model: state };
  }

  /** Loads a {@link CoverageStrategy.checkpoint} (before `seed` and the replay). @throws ConfigError if it does not fit. */
  restore(checkpoint: unknown): void {
    const c = checkpoint as CoverageCheckpoint;
    if (c?.format !== 1 && c?.format !== 2)
      throw new ConfigError('not a coverage checkpoint of format 1 or 2');
    this.words.loadLearnedState(c.words);
    this.model.loadLearnedState(c.model);
  }

  /**
   * Everything the strategy holds, for a resume that replays only the pages recorded after it
   * (see `Strategy.frontierSnapshot`). `taken`: actions drawn and not observed yet, queued again
   * in the snapshot as they were drawn (a crawl killed before their pages are recorded fetches
   * them after the resume).
   */
  frontierSnapshot(taken: readonly Action[]): CoverageFrontierSnapshot {
    const q = this.queued;
    const t = this.frontier.table;
    const drawn = taken.filter(
      (a) => a.data !== undefined && !this.fetched.has(a.url) && q.idOf(a.url) === undefined,
    );
    const queuedCount = q.size + drawn.length;
    let wordCount = 0;
    for (let u = 0; u < q.idCount; u++) if (q.url(u) !== undefined) wordCount += q.idEnd(u) - q.idStart(u);
    for (const a of drawn) wordCount += (a.data as CoverageData).ids.length;
    const urls: string[] = [];
    const serials = new Int32Array(queuedCount);
    const parents = new Int32Array(queuedCount);
    const parentPs = new Float64Array(queuedCount);
    const seeds = new Uint8Array(queuedCount);
    const sites = new Int32Array(queuedCount);
    const values = new Float64Array(queuedCount);
    const anchors = new Float32Array(queuedCount);
    const ends = new Int32Array(queuedCount);
    let w = 0;
    const indexOf = new Int32Array(q.idCount).fill(-1); // by queued id: index in the snapshot
    for (let u = 0; u < q.idCount; u++) {
      const url = q.url(u);
      if (url === undefined) continue;
      const i = urls.length;
      urls.push(url);
      indexOf[u] = i;
      serials[i] = q.serial(u);
      parents[i] = q.parent(u);
      parentPs[i] = q.parentProbability(u);
      seeds[i] = q.isSeed(u) ? 1 : 0;
      sites[i] = this.siteOfQueued[u] as number;
      values[i] = this.valueOfQueued[u] as number;
      anchors[i] = this.anchorOfQueued[u] ?? 0.5;
      w += q.idEnd(u) - q.idStart(u);
      ends[i] = w;
    }
    const sampleCount = this.frontier.size + drawn.length;
    const sampleQueued = new Int32Array(sampleCount);
    const sampleHosts = new Int32Array(sampleCount);
    const sampleDomains = new Int32Array(sampleCount);
    const depths = new Int32Array(sampleCount);
    const sampleSerials = new Int32Array(sampleCount);
    const keys = new Float64Array(sampleCount);
    const staleUrls: string[] = [];
    const hostIds = new Map<string, number>();
    const hostId = (host: string): number => {
      let id = hostIds.get(host);
      if (id === undefined) {
        id = hostIds.size;
        hostIds.set(host, id);
      }
      return id;
    };
    let n = 0;
    const addSample = (queued: number, s: Action, serial: number, key: number): void => {
      sampleQueued[n] = queued;
      if (queued < 0) staleUrls.push(s.url);
      sampleHosts[n] = hostId(s.host);
      sampleDomains[n] = hostId(s.domain);
      depths[n] = s.depth;
      sampleSerials[n] = serial;
      keys[n] = key;
      n++;
    };
    for (const id of this.frontier.ids()) {
      const url = t.url(id);
      const serial = t.parent(id);
      const u = q.idOf(url);
      const live = u !== undefined && q.serial(u) === serial ? (indexOf[u] as number) : -1;
      addSample(
        live,
        { url, host: t.host(id), domain: t.domain(id), depth: t.depth(id) },
        serial,
        t.key[id] as number,
      );
    }
    // Drawn and not observed: queued again as drawn, valued as now.
    let serial = this.serial;
    for (const action of drawn) {
      const d = action.data as CoverageData;
      const site = this.yields.knownSiteId(siteOf(action.host)) ?? -1;
      const value = d.isSeed
        ? Number.POSITIVE_INFINITY
        : site < 0
          ? 0
          : this.linkValue(d.ids, 0, d.ids.length, d.parentProbability, d.parent, site, d.anchorProbability);
      const i = urls.length;
      urls.push(action.url);
      serials[i] = serial;
      parents[i] = d.parent;
      parentPs[i] = d.parentProbability;
      seeds[i] = d.isSeed ? 1 : 0;
      sites[i] = site;
      values[i] = value;
      anchors[i] = d.anchorProbability;
      w += d.ids.length;
      ends[i] = w;
      addSample(i, action, serial, -value);
      serial++;
    }
    return {
      format: 1,
      words: this.words.learnedState(),
      model: this.model.learnedState(),
      yields: this.yields.snapshot(),
      queuedUrls: urls,
      queuedSerials: serials,
      queuedParents: parents,
      queuedParentProbabilities: parentPs,
      queuedSeeds: seeds,
      queuedSites: sites,
      queuedValues: values,
      queuedAnchors: anchors,
      queuedWordEnds: ends,
      // The word ids are most of a snapshot (36 a link on the long benchmark's web): copied out of
      // the pool a chunk at a time as they are written, not as one more copy of the frontier.
      queuedWords: new ChunkedArray('i32', wordCount, () => this.wordChunks(drawn)),
      sampleQueued: sampleQueued.subarray(0, n),
      staleUrls,
      hosts: [...hostIds.keys()],
      sampleHosts: sampleHosts.subarray(0, n),
      sampleDomains: sampleDomains.subarray(0, n),
      sampleDepths: depths.subarray(0, n),
      sampleSerials: sampleSerials.subarray(0, n),
      sampleKeys: keys.subarray(0, n),
      serial,
      parentUrls: [...this.parentUrls],
      parentLogits: this.parentLogits.slice(0, this.parentUrls.length),
      fetched: [...this.fetched],
      pagesSinceRescore: this.pagesSinceRescore,
      isRescoreDue: this.isRescoreDue,
      rechecks: this.rechecks,
      keptAsQueued: this.keptAsQueued,
      rescorings: this.rescorings,
      lambda: this.lambda,
    };
  }

  /**
   * The word ids of every queued URL in id order, then of each `drawn` action: what
   * `frontierSnapshot` counted, in chunks of about a million ids.
   */
  private *wordChunks(drawn: readonly Action[]): IterableIterator<Int32Array> {
    const q = this.queued;
    const pool = q.idPool;
    let chunk = new Int32Array(WORD_CHUNK);
    let n = 0;
    const put = (ids: ArrayLike<number>, from: number, to: number): Int32Array | undefined => {
      if (n + (to - from) > chunk.length) {
        const full = chunk.subarray(0, n);
        chunk = new Int32Array(Math.max(WORD_CHUNK, to - from));
        n = 0;
        for (let k = from; k < to; k++) chunk[n++] = ids[k] as number;
        return full;
      }
      for (let k = from; k < to; k++) chunk[n++] = ids[k] as number;
      return undefined;
    };
    for (let u = 0; u < q.idCount; u++) {
      if (q.url(u) === undefined) continue;
      const full = put(pool, q.idStart(u), q.idEnd(u));
      if (full !== undefined) yield full;
    }
    for (const action of drawn) {
      const ids = (action.data as CoverageData).ids;
      const full = put(ids, 0, ids.length);
      if (full !== undefined) yield full;
    }
    if (n > 0) yield chunk.subarray(0, n);
  }

  /**
   * Loads a {@link CoverageStrategy.frontierSnapshot} into a fresh strategy (before `seed`).
   * @throws ConfigError if it does not fit.
   */
  restoreFrontier(snapshot: unknown): void {
    const c = snapshot as CoverageFrontierSnapshot;
    if (c?.format !== 1) throw new ConfigError('not a coverage frontier snapshot of format 1');
    if (this.words.size > 0 || this.queued.size > 0)
      throw new ConfigError('a coverage frontier snapshot loads only into a fresh strategy');
    this.words.loadLearnedState(c.words);
    this.model.loadLearnedState(c.model);
    this.yields.restore(c.yields);
    const q = this.queued;
    const ids: number[] = []; // queued id by snapshot index
    let from = 0;
    for (let i = 0; i < c.queuedUrls.length; i++) {
      const to = c.queuedWordEnds[i] as number;
      const url = c.queuedUrls[i] as string;
      let site = c.queuedSites[i] as number;
      const u = q.set(url, c.queuedSerials[i] as number, c.queuedParents[i] as number, {
        ids: (c.queuedWords as Int32Array).subarray(from, to),
        tier: 0,
        parentProbability: c.queuedParentProbabilities[i] as number,
        isSeed: c.queuedSeeds[i] === 1,
      });
      from = to;
      this.ensure(u);
      if (site < 0) site = this.yields.siteId(siteOf(new URL(url).hostname));
      this.siteOfQueued[u] = site;
      this.valueOfQueued[u] = c.queuedValues[i] as number;
      if (this.config.isAnchorScoreUsed) this.anchorOfQueued[u] = c.queuedAnchors[i] as number;
      ids.push(u);
    }
    let stale = 0;
    for (let i = 0; i < c.sampleQueued.length; i++) {
      const queued = c.sampleQueued[i] as number;
      const url = queued >= 0 ? (c.queuedUrls[queued] as string) : (c.staleUrls[stale++] as string);
      const sample = {
        url,
        host: c.hosts[c.sampleHosts[i] as number] as string,
        domain: c.hosts[c.sampleDomains[i] as number] as string,
        depth: c.sampleDepths[i] as number,
      };
      const id = this.frontier.addWithKey(sample, c.sampleSerials[i] as number, c.sampleKeys[i] as number);
      if (queued >= 0) q.setSample(ids[queued] as number, id);
    }
    this.serial = c.serial;
    for (const url of c.parentUrls) this.parentUrls.push(url);
    this.parentLogits = grownArray(
      this.parentLogits,
      Math.max(this.parentLogits.length, c.parentLogits.length),
    );
    this.parentLogits.set(c.parentLogits);
    for (const url of c.fetched) this.fetched.add(url);
    this.pagesSinceRescore = c.pagesSinceRescore;
    this.isRescoreDue = c.isRescoreDue;
    this.rechecks = c.rechecks;
    this.keptAsQueued = c.keptAsQueued;
    this.rescorings = c.rescorings;
    this.lambda = c.lambda;
  }

  /**
   * What the link model expects of a fetched action's page now: its P(relevant) from the link's
   * words and the real features as they stand before the outcome is observed (the crawl's
   * questions read it). Undefined for a seed, or an action without its data (a replay).
   */
  linkProbability(action: Action): number | undefined {
    const data = action.data as CoverageData | undefined;
    if (data === undefined || data.isSeed) return undefined;
    // The id `observe` would give the site next; taking it first changes nothing.
    const site = this.yields.siteId(siteOf(action.host));
    const real = this.realFeatures(data.parentProbability, data.parent, site, data.anchorProbability);
    return this.model.probability(this.config.isWordUsed ? data.ids : NO_WORDS, real);
  }

  stats(): StrategyStats {
    return {
      // URLs queued, not the frontier's entries: those hold stale copies (requeued links, URLs
      // fetched since they were queued) until drawn, more of them after a resume's replay. The
      // entries bound it: a closed domain's are dropped from the frontier only (an empty one
      // ends the crawl).
      'frontier/size': Math.min(this.queued.size, this.frontier.size),
      'coverage/sites': this.yields.siteCount,
      'coverage/rechecks': this.rechecks,
      'coverage/kept-as-queued': this.keptAsQueued,
      'coverage/rescorings': this.rescorings,
      'learn/updates': this.model.updateCount,
      'coverage/lambda': this.lambda,
    };
  }

  /**
   * A link's word ids: a view of a reused buffer (`FieldWords.encodeView`; `QueuedLinks.set`
   * copies the ids it keeps).
   */
  private encode(link: DiscoveredLink): Int32Array {
    return this.words.encodeView(link, this.needsLinkContext, this.linkContextWindow);
  }

  /** What queued URL id `u` carries to `observe` (its word ids copied out of the shared pool). */
  private dataOf(u: number): CoverageData {
    const q = this.queued;
    return {
      ids: q.ids(u).slice(),
      parent: q.parent(u),
      parentProbability: q.parentProbability(u),
      anchorProbability: this.anchorOfQueued[u] ?? 0.5,
      isSeed: q.isSeed(u),
    };
  }

  /** The value of queued URL id `u` now (see the file comment). */
  private valueOf(u: number): number {
    const q = this.queued;
    if (q.isSeed(u)) return Number.POSITIVE_INFINITY;
    return this.linkValue(
      q.idPool,
      q.idStart(u),
      q.idEnd(u),
      q.parentProbability(u),
      q.parent(u),
      this.siteOfQueued[u] as number,
      this.anchorOfQueued[u] ?? 0.5,
    );
  }

  /**
   * The model's real features of a link ([REAL_FEATURES], in `this.real`): the logits of the
   * parent's P(relevant), of the site's yield, of the hub's yield, and the unvisited-site and
   * off-site indicators (0 where a part is turned off).
   */
  private realFeatures(
    parentProbability: number,
    parent: number,
    site: number,
    anchorProbability: number,
  ): Float64Array {
    const x = this.real;
    const c = this.config;
    const y = this.yields;
    // A link's parentProbability is its parent page's (the P its logit was kept from).
    x[0] = parent >= 0 ? (this.parentLogits[parent] as number) : logit(parentProbability);
    const fetched = y.fetchedOf(site);
    x[1] = c.isSiteYieldUsed && fetched > 0 ? logit(shrunk(y.relevantOf(site), fetched, 0.5, 1)) : 0;
    x[2] = c.isSiteYieldUsed && fetched === 0 ? 1 : 0;
    const isOffSite = parent >= 0 && y.siteOfParent(parent) !== site;
    x[3] = c.isHubUsed && isOffSite ? logit(y.hubEstimate(parent, 0.5, 1)) : 0;
    x[4] = c.isHubUsed && isOffSite ? 1 : 0;
    if (c.isAnchorScoreUsed) x[5] = logit(anchorProbability);
    return x;
  }

  /** The value of a link with word ids `ids[from..to)`, found on page `parent`, into site id `site`. */
  private linkValue(
    ids: Int32Array,
    from: number,
    to: number,
    parentProbability: number,
    parent: number,
    site: number,
    anchorProbability: number,
  ): number {
    const c = this.config;
    const p = this.model.probabilityIn(
      ids,
      from,
      c.isWordUsed ? to : from,
      this.realFeatures(parentProbability, parent, site, anchorProbability),
    );
    const pageValue =
      c.siteSaturation === false ? 1 : 1 / (1 + this.yields.relevantOf(site) / c.siteSaturation);
    const value = p * (pageValue + this.lambda * this.newSiteShare(site));
    // A hub site's worth comes with a relevant page of it: its links out lead to new relevant sites.
    return c.isHubSiteValued
      ? value + p * this.lambda * this.yields.sitesFoundPerPage(site, HUB_PRIOR_PAGES)
      : value;
  }

  /**
   * How much of lambda a link into `site` is worth: P(the site holds no judged-relevant page),
   * halved with every `newSitePatience` pages fetched from it (no power taken for a covered site).
   */
  private newSiteShare(site: number): number {
    const uncovered = this.yields.uncoveredOf(site);
    const patience = this.config.newSitePatience;
    if (uncovered === 0 || patience === false) return uncovered;
    return uncovered * 0.5 ** (this.yields.fetchedOf(site) / patience);
  }

  /**
   * With `isRefoundScreened`: true if queued URL id `u`, found again on a page no more probably
   * relevant than its queued link's parent (`parentProbability`, that page's) with an anchor the
   * judge scored no higher, keeps its queued link without its words being encoded and valued.
   */
  private isKeptAsQueued(u: number, parentProbability: number, anchorProbability: number): boolean {
    if (!this.config.isRefoundScreened) return false;
    return (
      parentProbability <= this.queued.parentProbability(u) &&
      anchorProbability <= (this.anchorOfQueued[u] ?? 0.5)
    );
  }

  /**
   * Queues `link` unless its URL (queued id `existing`) is queued with a value at least as high;
   * `data.ids` may be FieldWords' scratch (copied here).
   */
  private enqueue(link: DiscoveredLink, data: CoverageData, existing = this.queued.idOf(link.url)): void {
    const site = this.yields.siteId(siteOf(link.host));
    const value = data.isSeed
      ? Number.POSITIVE_INFINITY
      : this.linkValue(
          data.ids,
          0,
          data.ids.length,
          data.parentProbability,
          data.parent,
          site,
          data.anchorProbability,
        );
    // A URL found again replaces its queued link only if it is worth more from here.
    if (existing !== undefined && this.valueOf(existing) >= value) return;
    const serial = this.serial++;
    const u = this.queued.set(link.url, serial, data.parent, {
      ids: data.ids,
      tier: 0,
      parentProbability: data.parentProbability,
      isSeed: data.isSeed,
    });
    this.ensure(u);
    this.siteOfQueued[u] = site;
    this.valueOfQueued[u] = value;
    this.anchorOfQueued[u] = data.anchorProbability;
    this.queued.setSample(u, this.frontier.addWithKey(link, serial, -value));
  }

  private requeue(u: number, action: Action, value: number): void {
    const serial = this.serial++;
    const q = this.queued;
    q.set(action.url, serial, q.parent(u), q.data(u));
    this.valueOfQueued[u] = value;
    q.setSample(u, this.frontier.addWithKey(action, serial, -value));
  }

  /** Values every queued URL again and re-keys the frontier with the new values (stale copies dropped). */
  private rescore(): void {
    this.rescorings++;
    this.pagesSinceRescore = 0;
    this.isRescoreDue = false;
    this.queued.rekeyLive(this.frontier, (u) => {
      const value = this.valueOf(u);
      this.valueOfQueued[u] = value;
      return -value;
    });
  }

  private ensure(u: number): void {
    if (u < this.siteOfQueued.length) return;
    const n = Math.max(u + 1, this.siteOfQueued.length * 2);
    const s = new Int32Array(n);
    s.set(this.siteOfQueued);
    this.siteOfQueued = s;
    const v = new Float64Array(n);
    v.set(this.valueOfQueued);
    this.valueOfQueued = v;
    if (this.config.isAnchorScoreUsed) {
      const a = new Float32Array(n);
      a.set(this.anchorOfQueued);
      this.anchorOfQueued = a;
    }
  }
}
