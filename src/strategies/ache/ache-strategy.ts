/**
 * `ache`: the online-learning focused crawler of VIDA-NYU/ache (Barbosa and Freire, WWW 2007),
 * the "ACHE" row of the TRES journal's Table 3, on the Frontier contract:
 *
 * - Frontier: a PriorityFrontier keyed by the link's score, one entry per URL (ACHE inserts a
 *   URL once: `FrontierManager.isRelevant` rejects links already in the frontier).
 * - Score before the first training: the relevance probability of the page the link was found on
 *   (ACHE's `LinkClassifierBaseline`), i.e. best-first.
 * - Learner (`ForwardOnlineLearning`, type FORWARD_CLASSIFIER_BINARY): every `learnEveryPages`
 *   fetched pages, a link classifier (./link-features.ts, ./link-svm.ts) is trained on the
 *   followed links labelled by their targets' relevance (./link-examples.ts), and the whole
 *   frontier is rescored with it (`updateOutlinkClassifier`; here: the PriorityFrontier is
 *   rebuilt from its items). New links are scored by the latest classifier.
 * - Site-level heuristics: hard focus (links of relevant pages first) and an optional cap on the
 *   links queued per domain (see ./ache-config.ts).
 *
 * Scores: ACHE's `LinkClassifierImpl` ranks by 100 * class weight + 100 * P(predicted class),
 * which puts confidently irrelevant links above doubtful ones among the links predicted
 * irrelevant; we rank by P(relevant) alone, the ranking that score is meant to give.
 *
 * Cost: a new link is tokenized once and scored with one weight lookup per word (a few us). A
 * training every 500 pages costs at most 2 x 5,000 links x ~30 ids for the SVM, plus one
 * rescoring of the frontier (one lookup per stored id, 100k URLs in about 0.1 s): below 1 ms
 * per step amortised.
 *
 * Storage (at most 300 bytes per frontier URL): the frontier is an
 * IndexedPriorityFrontier (samples as ids into typed-array columns; a sample's `parent` column
 * holds its enqueue serial number) and each queued URL's data lives in ./queued-links.ts, typed
 * arrays by interned URL id; a sample is live if its serial is its URL's latest.
 *
 * Resume: the classifier, its training links and labels, the vocabulary and the training stream
 * come back from the checkpoint (`checkpoint`); the frontier is rebuilt from the replayed
 * outcomes (a replayed link's words come from its stored anchor text, URL and context), and only
 * pages after the checkpoint add training links or retrain.
 */

import type { Rng } from '../../common/index.js';
import { ConfigError } from '../../common/index.js';
import { IndexedPriorityFrontier } from '../../frontier/index.js';
import type { Action, DiscoveredLink, Outcome, SelectionContext } from '../../types/index.js';
import type { Strategy, StrategyStats } from '../strategy.js';
import { type AcheConfig, type AcheSettings, resolveAcheConfig } from './ache-config.js';
import { LinkExamples, type LinkExamplesState } from './link-examples.js';
import { FieldWords, selectFeatures } from './link-features.js';
import { type LinkModel, linkProbability, trainLinkSvm } from './link-svm.js';
import { QueuedLinks } from './queued-links.js';

export interface AcheOptions {
  rng: Rng;
  /** Settings by field name (see `ACHE_SETTINGS`); defaults for the rest. */
  overrides?: AcheSettings;
  /** Name to report. @default 'ache' */
  name?: string;
}

/** What {@link AcheStrategy.checkpoint} stores. */
export interface AcheCheckpoint {
  format: number;
  words: string[];
  examples: LinkExamplesState;
  /** The link classifier (absent before the first training). */
  model?: { ids: Int32Array; weights: Float64Array; bias: number; platt: LinkModel['platt'] };
  trainRng: number[];
  trainings: number;
  lastTrainingSize: number;
}

interface AcheData {
  /** Field-word ids of the link. */
  ids: Int32Array;
  /** 0: found on a relevant page (or a seed); 1: on an irrelevant page (hard focus puts it last). */
  tier: number;
  /** Relevance probability of the page the link was found on (the baseline score). */
  parentProbability: number;
  isSeed: boolean;
}

export class AcheStrategy implements Strategy {
  /** Held links come back best page first: the hard-focus tier and the page's P go with each link. */
  readonly heldLinksOrder = 'probability';
  readonly name: string;
  readonly needsLinkContext = true;
  readonly config: Readonly<AcheConfig>;
  private readonly words = new FieldWords();
  private readonly examples = new LinkExamples();
  private readonly trainRng: Rng;
  private readonly frontier = new IndexedPriorityFrontier();
  /** Each queued URL's data and the serial of its live sample; other samples of the URL are stale. */
  private readonly queued = new QueuedLinks();
  /** Enqueue serial number, the `parent` column of the frontier's samples. */
  private serial = 0;
  /** URL of each page whose outlinks were queued: a queued URL's parent indexes it (-1: a seed). */
  private readonly parentUrls: string[] = [];
  private readonly fetched = new Set<string>();
  private readonly linksPerDomain = new Map<string, number>();
  private model: LinkModel | undefined;
  private pages = 0;
  private trainings = 0;
  private lastTrainingSize = 0;

  constructor(options: AcheOptions) {
    this.config = resolveAcheConfig(options.overrides);
    this.name = options.name ?? 'ache';
    this.trainRng = options.rng.fork('ache-training');
  }

  seed(links: DiscoveredLink[]): void {
    for (const link of links) {
      const data: AcheData = { ids: this.words.encode(link), tier: 0, parentProbability: 1, isSeed: true };
      this.enqueue(link, -1, data);
    }
  }

  next(ctx: SelectionContext): Action | undefined {
    for (;;) {
      const [id] = this.frontier.draw(ctx);
      if (id === undefined) return undefined;
      const t = this.frontier.table;
      const url = t.url(id);
      const serial = t.parent(id);
      const action: Action = { url, host: t.host(id), domain: t.domain(id), depth: t.depth(id) };
      this.frontier.take(id);
      const u = this.queued.idOf(url);
      if (u === undefined || this.queued.serial(u) !== serial) continue; // replaced by a better-tier copy
      action.data = this.queued.data(u) satisfies AcheData;
      const parent = this.queued.parent(u);
      if (parent >= 0) action.parentUrl = this.parentUrls[parent] as string;
      this.queued.delete(url);
      return action;
    }
  }

  observe(outcome: Outcome): void {
    const { action, reward } = outcome;
    this.pages++;
    // On replay the action carries no data: the URL's queued entry (rebuilt by the replay so far) has it.
    const queuedId = this.queued.idOf(action.url);
    const data =
      (action.data as AcheData | undefined) ??
      (queuedId === undefined ? undefined : (this.queued.data(queuedId) as AcheData));
    for (const url of new Set([action.url, outcome.finalUrl])) {
      this.fetched.add(url);
      this.queued.delete(url);
    }
    // A page the restored checkpoint reflects is in its examples and model already.
    const isLearned = outcome.isLearned === true;
    if (data !== undefined && !data.isSeed && !isLearned) this.examples.add(data.ids, reward > 0);
    this.queueLinks(outcome);
    if (this.config.isLearning && !isLearned && this.pages % this.config.learnEveryPages === 0)
      this.retrain();
  }

  /**
   * Queues `outcome`'s links (the links part of `observe`; see `Strategy.queueLinks`), in the
   * hard-focus tier of their page's reward, scored by the classifier as it is now.
   */
  queueLinks(outcome: Outcome): void {
    const tier = this.config.isHardFocus && outcome.reward <= 0 ? 1 : 0;
    const parent = this.parentUrls.length;
    if (outcome.links.length > 0) this.parentUrls.push(outcome.action.url);
    for (const link of outcome.links) {
      if (this.fetched.has(link.url)) continue;
      this.enqueue(link, parent, {
        ids: this.words.encode(link),
        tier,
        parentProbability: outcome.probability,
        isSeed: false,
      });
    }
  }

  /**
   * What ACHE has learned: the link classifier, its training links with their labels, the
   * vocabulary they are indexed by, the training stream and counters. The frontier comes back by
   * replaying the stored pages, scored by the restored classifier.
   */
  checkpoint(): AcheCheckpoint {
    const m = this.model;
    return {
      format: 1,
      words: this.words.learnedState(),
      examples: this.examples.learnedState(),
      ...(m
        ? {
            model: {
              ids: Int32Array.from(m.weights.keys()),
              weights: Float64Array.from(m.weights.values()),
              bias: m.bias,
              platt: m.platt,
            },
          }
        : {}),
      trainRng: this.trainRng.getState(),
      trainings: this.trainings,
      lastTrainingSize: this.lastTrainingSize,
    };
  }

  /** Loads an {@link AcheStrategy.checkpoint} (before `seed` and the replay). @throws ConfigError if it does not fit. */
  restore(checkpoint: unknown): void {
    const c = checkpoint as AcheCheckpoint;
    if (c?.format !== 1) throw new ConfigError('not an ACHE checkpoint of format 1');
    this.words.loadLearnedState(c.words);
    this.examples.loadLearnedState(c.examples);
    if (c.model) {
      const weights = new Map<number, number>();
      for (let i = 0; i < c.model.ids.length; i++)
        weights.set(c.model.ids[i] as number, c.model.weights[i] as number);
      this.model = { weights, bias: c.model.bias, platt: c.model.platt };
    }
    this.trainRng.setState(c.trainRng);
    this.trainings = c.trainings;
    this.lastTrainingSize = c.lastTrainingSize;
  }

  stats(): StrategyStats {
    return {
      // URLs queued, not the frontier's entries: those hold stale copies (a URL queued again in a
      // better tier, URLs a resume's replay observed) until drawn. The entries bound it: a closed
      // domain's are dropped from the frontier only.
      'frontier/size': Math.min(this.queued.size, this.frontier.size),
      'learn/trainings': this.trainings,
      'learn/examples': this.examples.size,
      'learn/positive_examples': this.examples.positiveCount,
      'learn/last_training_size': this.lastTrainingSize,
    };
  }

  /** The current link classifier (undefined before the first training). */
  linkModel(): LinkModel | undefined {
    return this.model;
  }

  /** Trains the link classifier on the followed links so far and rescores the whole frontier. */
  private retrain(): void {
    const { links, labels } = this.examples.sample(this.config.maxSamplesPerClass, this.trainRng);
    const positives = labels.filter((y) => y === 1).length;
    if (positives === 0 || positives === labels.length) return; // needs both classes
    const columns = selectFeatures(this.words, links, this.config.selection);
    this.model = trainLinkSvm(links, labels, columns, this.trainRng);
    this.trainings++;
    this.lastTrainingSize = links.length;
    this.queued.rekeyLive(this.frontier, (u) => this.keyOf(u));
  }

  /** Smaller first: seeds, then tier 0 by descending score, then tier 1 (`u`: a queued URL's id). */
  private keyOf(u: number): number {
    const q = this.queued;
    if (q.isSeed(u)) return Number.NEGATIVE_INFINITY;
    const score = this.model === undefined ? q.parentProbability(u) : linkProbability(this.model, q.ids(u));
    return 2 * q.tier(u) - score;
  }

  private enqueue(link: DiscoveredLink, parent: number, data: AcheData): void {
    const existing = this.queued.idOf(link.url);
    // First discovery wins (ACHE), unless hard focus promotes the URL to the relevant tier.
    if (existing !== undefined && this.queued.tier(existing) <= data.tier) return;
    if (existing === undefined && this.config.maxLinksPerDomain !== false) {
      const n = this.linksPerDomain.get(link.domain) ?? 0;
      if (n >= this.config.maxLinksPerDomain) return;
      this.linksPerDomain.set(link.domain, n + 1);
    }
    const serial = this.serial++;
    const u = this.queued.set(link.url, serial, parent, data);
    this.queued.setSample(u, this.frontier.addWithKey(link, serial, this.keyOf(u)));
  }
}
