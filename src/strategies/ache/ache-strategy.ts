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
 * Resume: the frontier, the followed links and their labels are rebuilt from the replayed
 * outcomes (a replayed link's words come from its stored anchor text and URL; its context is not
 * stored); the classifier is retrained at the same page counts as the replay passes them.
 */
import type { Rng } from '../../common/rng.js';
import { type FrontierItem, PriorityFrontier } from '../../frontier/priority-frontier.js';
import type {
  Action,
  DiscoveredLink,
  Outcome,
  SelectionContext,
  Strategy,
  StrategyStats,
} from '../strategy.js';
import { type AcheConfig, resolveAcheConfig } from './ache-config.js';
import { LinkExamples } from './link-examples.js';
import { FieldWords, selectFeatures } from './link-features.js';
import { type LinkModel, linkProbability, trainLinkSvm } from './link-svm.js';

export interface AcheOptions {
  rng: Rng;
  /** Spec overrides (see `ACHE_KEYS`). */
  overrides?: Readonly<Record<string, number>>;
  /** Name to report. @default 'ache' */
  name?: string;
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
  readonly name: string;
  readonly needsLinkContext = true;
  readonly config: Readonly<AcheConfig>;
  private readonly words = new FieldWords();
  private readonly examples = new LinkExamples();
  private readonly trainRng: Rng;
  private frontier = new PriorityFrontier<FrontierItem>();
  /** The live frontier item of each queued URL; other items of the URL are stale. */
  private readonly queued = new Map<string, FrontierItem>();
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
      this.enqueue(link, undefined, data);
    }
  }

  next(ctx: SelectionContext): Action | undefined {
    for (;;) {
      const [item] = this.frontier.draw(ctx);
      if (!item) return undefined;
      this.frontier.take(item);
      if (this.queued.get(item.url) !== item) continue; // replaced by a better-tier copy
      this.queued.delete(item.url);
      const { key: _key, ...action } = item;
      return action;
    }
  }

  observe(outcome: Outcome): void {
    const { action, reward } = outcome;
    this.pages++;
    // On replay the action carries no data: the URL's queued item (rebuilt by the replay so far) has it.
    const data =
      (action.data as AcheData | undefined) ?? (this.queued.get(action.url)?.data as AcheData | undefined);
    for (const url of new Set([action.url, outcome.finalUrl])) {
      this.fetched.add(url);
      this.queued.delete(url);
    }
    if (data !== undefined && !data.isSeed) this.examples.add(data.ids, reward > 0);
    const tier = this.config.isHardFocus && reward <= 0 ? 1 : 0;
    for (const link of outcome.links) {
      if (this.fetched.has(link.url)) continue;
      this.enqueue(link, action.url, {
        ids: this.words.encode(link),
        tier,
        parentProbability: outcome.probability,
        isSeed: false,
      });
    }
    if (this.config.isLearning && this.pages % this.config.learnEveryPages === 0) this.retrain();
  }

  stats(): StrategyStats {
    return {
      'frontier/size': this.frontier.size,
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
    // Rebuild the frontier from its live items with their new keys. The old frontier is dropped
    // whole (stale copies with it), so its live items may take their new keys in place.
    const rebuilt = new PriorityFrontier<FrontierItem>();
    for (const item of this.queued.values()) {
      item.key = this.keyOf(item.data as AcheData);
      rebuilt.add(item);
    }
    this.frontier = rebuilt;
  }

  /** Smaller first: seeds, then tier 0 by descending score, then tier 1. */
  private keyOf(data: AcheData): number {
    if (data.isSeed) return Number.NEGATIVE_INFINITY;
    const score = this.model === undefined ? data.parentProbability : linkProbability(this.model, data.ids);
    return 2 * data.tier - score;
  }

  private enqueue(link: DiscoveredLink, parentUrl: string | undefined, data: AcheData): void {
    const existing = this.queued.get(link.url);
    // First discovery wins (ACHE), unless hard focus promotes the URL to the relevant tier.
    if (existing !== undefined && (existing.data as AcheData).tier <= data.tier) return;
    if (existing === undefined && this.config.maxLinksPerDomain !== false) {
      const n = this.linksPerDomain.get(link.domain) ?? 0;
      if (n >= this.config.maxLinksPerDomain) return;
      this.linksPerDomain.set(link.domain, n + 1);
    }
    const item: FrontierItem = {
      url: link.url,
      host: link.host,
      domain: link.domain,
      depth: link.depth,
      key: this.keyOf(data),
      data,
    };
    if (parentUrl !== undefined) item.parentUrl = parentUrl;
    this.queued.set(link.url, item);
    this.frontier.add(item);
  }
}
