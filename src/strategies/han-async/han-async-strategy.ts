/**
 * `han-async`: the crawler of Han, Wuillemin and Senellart (ICWE 2018) with their asynchronous
 * method, the "Async" row of the TRES journal's Table 3.
 *
 * - Features: Han's handcrafted shared state-action features (./han-features.ts): path
 *   statistics and cosine relevances of page, anchor, URL and surrounding text to the topic,
 *   bucketed; no keyword flags, no classifier.
 * - Learner: SARSA(0), linear in the one-hot buckets (./linear-sarsa.ts). The transition of a
 *   fetched page completes when the next action is chosen (on-policy: Q(s', a') of the action
 *   actually taken next, from anywhere in the frontier; this is the "deviation from the successive
 *   order of states" the TRES journal criticises in its related work).
 * - Asynchronous method (Han et al., section 4.4): Q is computed only for the outlinks of the page
 *   just fetched, once, when they enter the frontier; older frontier entries keep their Q. A URL
 *   found again on the page just fetched gets a new entry with its new Q, and its best entry
 *   counts (Han's "update the Q-values of the current state's actions").
 * - Chooser: epsilon-greedy; greedy = best stored Q (a priority frontier keyed by -Q, ties by URL),
 *   exploration = a uniformly random frontier URL (a random frontier over the same links).
 *
 * Storage (at most 300 bytes per frontier URL): both frontiers keep links as ids into
 * typed-array columns (IndexedPriorityFrontier, IndexedRandomFrontier); each side keeps the 7
 * active indices of a link in its own Uint8Array column by id (7 bytes, not an array object), and
 * a link's parent as an index into the fetched pages' URLs. The two sides do not share ids: the
 * priority side drops a stale id lazily and reuses it while the random side may still hold the
 * link (a domain closed under a limit b that later grows).
 *
 * Choices where the texts leave details open (Han's own text was not at hand): alpha 0.1 on the
 * TD error (divided over the active features), gamma 0.9, epsilon 0.1, weights start at 0.
 *
 * Resume: the frontier and each fetched page's path state are rebuilt from the replayed outcomes
 * (a replayed page's relevance comes from its stored title only: the text is not stored); the
 * SARSA weights and the exploration stream come back from the checkpoint (`checkpoint`).
 */

import type { Rng } from '../../common/index.js';
import { ConfigError } from '../../common/index.js';
import { booleanSetting, checkSettings, numberSetting } from '../../config/index.js';
import type { SampleTable } from '../../frontier/index.js';
import { IndexedPriorityFrontier, IndexedRandomFrontier } from '../../frontier/index.js';
import type { KeywordSet } from '../../text/index.js';
import type { Action, DiscoveredLink, Outcome, SelectionContext } from '../../types/index.js';
import { ObservationLog } from '../observation-log.js';
import type { Strategy, StrategyStats } from '../strategy.js';
import {
  encodeHan,
  HAN_ACTIVE_FEATURES,
  HAN_FEATURE_SIZE,
  type HanPageState,
  pageStateOf,
  SEED_PARENT_STATE,
  TopicCosine,
} from './han-features.js';
import { LinearSarsa, type LinearSarsaState } from './linear-sarsa.js';

/** Every hyperparameter of `han-async`. */
export interface HanAsyncConfig {
  /** Learn (true), or keep the initial zero weights: the untrained crawler (`isLearning=false`). @default true */
  isLearning: boolean;
  /** SARSA step size in (0, 1]. @default 0.1 */
  alpha: number;
  /** Discount in [0, 1). @default 0.9 */
  gamma: number;
  /** Probability of fetching a uniformly random frontier URL instead of the best, in [0, 1]. @default 0.1 */
  epsilon: number;
}

/** Defaults of {@link HanAsyncConfig}. */
export const DEFAULT_HAN_ASYNC_CONFIG: Readonly<HanAsyncConfig> = Object.freeze({
  isLearning: true,
  alpha: 0.1,
  gamma: 0.9,
  epsilon: 0.1,
});

/** The settings a `han-async:key=value` spec may set, by field name. */
export const HAN_ASYNC_SETTINGS = {
  isLearning: booleanSetting(DEFAULT_HAN_ASYNC_CONFIG.isLearning, 'false: keep the initial zero weights'),
  alpha: numberSetting(DEFAULT_HAN_ASYNC_CONFIG.alpha, 'SARSA step size', {
    min: 0,
    max: 1,
    isMinOpen: true,
  }),
  gamma: numberSetting(DEFAULT_HAN_ASYNC_CONFIG.gamma, 'discount', { min: 0, max: 1, isMaxOpen: true }),
  epsilon: numberSetting(DEFAULT_HAN_ASYNC_CONFIG.epsilon, 'probability of a random frontier URL', {
    min: 0,
    max: 1,
  }),
};

export interface HanAsyncOptions {
  rng: Rng;
  /** The topic's keywords: the topic vector of the cosine relevances. */
  keywords: KeywordSet;
  /** Settings by field name (see {@link HAN_ASYNC_SETTINGS}); defaults for the rest. */
  overrides?: Partial<HanAsyncConfig>;
  /** Name to report. @default 'han-async' */
  name?: string;
}

/**
 * The resolved config: defaults, then `settings`, checked once.
 * @throws ConfigError naming a value out of range.
 */
export function resolveHanAsyncConfig(settings: Partial<HanAsyncConfig> = {}): Readonly<HanAsyncConfig> {
  return Object.freeze(checkSettings(HAN_ASYNC_SETTINGS, settings, 'han-async'));
}

/** What {@link HanAsyncStrategy.checkpoint} stores. */
export interface HanAsyncCheckpoint {
  format: number;
  sarsa: LinearSarsaState;
  explore: number[];
  exploreSteps: number;
  qEvaluations: number;
  /** Format 2: the exploration side's draw stream. */
  drawRng?: number[];
  /**
   * Format 2: the Q each observed page's outlinks were queued with (one per outlink) and each
   * observed page's cosine relevance (one per page), in observation order (see ObservationLog):
   * a replayed page has no text, and Q computed at the replay would use the weights learned since.
   */
  queuedQ?: Float64Array;
  relevances?: Float64Array;
  /** Format 2: the fetched actions waiting for the next choice (`pending`): x [n, 7] and rewards. */
  pendingX?: Uint8Array;
  pendingRewards?: Float64Array;
}

interface HanData {
  /** Active one-hot indices of the state-action. */
  x: Uint8Array;
}

export class HanAsyncStrategy implements Strategy {
  readonly name: string;
  readonly needsLinkContext = true;
  readonly config: Readonly<HanAsyncConfig>;
  private readonly cosine: TopicCosine;
  private readonly sarsa: LinearSarsa;
  private readonly explore: Rng;
  /** The exploration side's draw stream (kept in the checkpoint). */
  private readonly drawRng: Rng;
  /** Q of each observed outlink when it was queued, and each observed page's relevance. */
  private readonly queuedQ = new ObservationLog();
  private readonly relevances = new ObservationLog();
  /** Greedy side: every queued link by -Q (stale duplicates dropped lazily on draw). */
  private readonly byQ = new IndexedPriorityFrontier();
  /** Exploration side: the same links, drawn uniformly. */
  private readonly bag: IndexedRandomFrontier;
  /** Active indices by id, [id, HAN_ACTIVE_FEATURES], of the greedy and the exploration side. */
  private xByQ: Uint8Array = new Uint8Array(1024 * HAN_ACTIVE_FEATURES);
  private xBag: Uint8Array = new Uint8Array(1024 * HAN_ACTIVE_FEATURES);
  /** URL of each page whose outlinks were queued: a sample's `parent` indexes it (-1: a seed). */
  private readonly parentUrls: string[] = [];
  /** Path state of every fetched page (and its redirect target), by URL. */
  private readonly pageStates = new Map<string, HanPageState>();
  /** Fetched actions waiting for the next chosen action to complete their SARSA update. */
  private pending: { x: Uint8Array; reward: number }[] = [];
  private qEvaluations = 0;
  private exploreSteps = 0;

  constructor(options: HanAsyncOptions) {
    this.config = resolveHanAsyncConfig(options.overrides);
    this.name = options.name ?? 'han-async';
    this.cosine = new TopicCosine(options.keywords);
    this.sarsa = new LinearSarsa(HAN_FEATURE_SIZE, this.config.alpha, this.config.gamma);
    this.explore = options.rng.fork('epsilon');
    this.drawRng = options.rng.fork('explore-draw');
    this.bag = new IndexedRandomFrontier(this.drawRng);
  }

  seed(links: DiscoveredLink[]): void {
    for (const link of links) {
      const x = encodeHan(SEED_PARENT_STATE, this.cosine.ofLink(link));
      // Seeds go first, in URL order.
      this.enqueue(link, -1, x, Number.NEGATIVE_INFINITY);
    }
  }

  next(ctx: SelectionContext): Action | undefined {
    let action: Action | undefined;
    if (this.config.epsilon > 0 && this.explore.next() < this.config.epsilon) {
      const [id] = this.bag.draw(ctx);
      if (id !== undefined) {
        // Removed with the URL's other links below, as a replay removes them (the same order).
        action = this.actionOf(this.bag.table, this.xBag, id);
        this.exploreSteps++;
      }
    }
    if (!action) {
      const [id] = this.byQ.draw(ctx);
      if (id === undefined) return undefined;
      action = this.actionOf(this.byQ.table, this.xByQ, id);
      this.byQ.take(id);
    }
    // The URL's other queued links go too (the priority side drops them lazily: ctx.isFetched).
    this.bag.removeUrl(action.url);
    this.completePending((action.data as HanData).x);
    return action;
  }

  observe(outcome: Outcome): void {
    const { action, reward } = outcome;
    // The exploration side holds no fetched URL, in the order a live crawl removed them (a
    // resumed crawl draws as the one that stopped): the URL as next() removed it, its redirect
    // target now.
    if (outcome.isReplay) this.bag.removeUrl(action.url);
    if (outcome.finalUrl !== action.url) this.bag.removeUrl(outcome.finalUrl);
    const isLearned = outcome.isLearned === true;
    const parentState = action.parentUrl === undefined ? undefined : this.pageStates.get(action.parentUrl);
    // A replayed page has no text: its relevance as observed comes from the checkpoint (from its
    // title alone past the checkpoint).
    const stored = isLearned ? this.relevances.takeStored() : undefined;
    const relevance = stored ?? this.cosine.ofPage(outcome.title ?? '', outcome.text ?? '');
    if (!isLearned) this.relevances.add(relevance);
    const state = pageStateOf(parentState, reward, relevance);
    this.pageStates.set(action.url, state);
    this.pageStates.set(outcome.finalUrl, state);
    const data = action.data as HanData | undefined;
    if (this.config.isLearning && !outcome.isReplay && data !== undefined) {
      this.pending.push({ x: data.x, reward });
    }
    // Asynchronous method: Q of the new outlinks only, computed once, now.
    const parent = this.parentUrls.length;
    if (outcome.links.length > 0) this.parentUrls.push(action.url);
    for (const link of outcome.links) {
      const x = encodeHan(state, this.cosine.ofLink(link));
      // Asynchronous: Q as computed when the link was found, not with the weights learned since.
      let q = isLearned ? this.queuedQ.takeStored() : undefined;
      if (q === undefined) {
        q = this.sarsa.q(x);
        this.qEvaluations++;
        if (!isLearned) this.queuedQ.add(q);
      }
      this.enqueue(link, parent, x, -q);
    }
  }

  stats(): StrategyStats {
    return {
      // The exploration side's count: it drops a URL's links as the URL is drawn or observed,
      // where the greedy side keeps them (stale) until they reach a head.
      'frontier/size': this.bag.size,
      'rl/q_evaluations': this.qEvaluations,
      'rl/updates': this.sarsa.updates,
      'rl/td_abs_mean': this.sarsa.meanAbsDelta,
      'rl/explore_steps': this.exploreSteps,
    };
  }

  /**
   * What Han's crawler has learned: the SARSA weights and statistics, the exploration stream and
   * counters. The frontier and the pages' path states come back by replaying the stored pages.
   */
  checkpoint(): HanAsyncCheckpoint {
    const n = HAN_ACTIVE_FEATURES;
    const pendingX = new Uint8Array(this.pending.length * n);
    for (const [i, t] of this.pending.entries()) pendingX.set(t.x, i * n);
    return {
      format: 2,
      sarsa: this.sarsa.learnedState(),
      explore: this.explore.getState(),
      exploreSteps: this.exploreSteps,
      qEvaluations: this.qEvaluations,
      drawRng: this.drawRng.getState(),
      queuedQ: this.queuedQ.saved(),
      relevances: this.relevances.saved(),
      pendingX,
      pendingRewards: Float64Array.from(this.pending, (t) => t.reward),
    };
  }

  /** Loads a {@link HanAsyncStrategy.checkpoint} (before `seed` and the replay). @throws ConfigError if it does not fit. */
  restore(checkpoint: unknown): void {
    const c = checkpoint as HanAsyncCheckpoint;
    if (c?.format !== 1 && c?.format !== 2)
      throw new ConfigError('not a han-async checkpoint of format 1 or 2');
    this.sarsa.loadLearnedState(c.sarsa);
    this.explore.setState(c.explore);
    this.exploreSteps = c.exploreSteps;
    // Format 1: the replay evaluates Q again (with these weights) and counts it.
    this.qEvaluations = c.qEvaluations;
    if (c.format === 1) return;
    if (c.drawRng) this.drawRng.setState(c.drawRng);
    if (c.queuedQ) this.queuedQ.load(c.queuedQ);
    if (c.relevances) this.relevances.load(c.relevances);
    const n = HAN_ACTIVE_FEATURES;
    const rewards = c.pendingRewards ?? new Float64Array(0);
    this.pending = Array.from(rewards, (reward, i) => ({
      x: (c.pendingX as Uint8Array).slice(i * n, i * n + n),
      reward,
    }));
  }

  /** The learned weights (bias first, then one per one-hot feature), for tests and reports. */
  weights(): number[] {
    return [this.sarsa.bias, ...this.sarsa.weights];
  }

  private completePending(nextX: Uint8Array): void {
    for (const t of this.pending) this.sarsa.update(t.x, t.reward, nextX);
    this.pending = [];
  }

  private enqueue(link: DiscoveredLink, parent: number, x: Uint8Array, key: number): void {
    const q = this.byQ.addWithKey(link, parent, key);
    this.xByQ = withIndices(this.xByQ, q, x);
    const b = this.bag.add(link, parent);
    this.xBag = withIndices(this.xBag, b, x);
  }

  /** The action a queued sample stands for, with its active indices as `data`. */
  private actionOf(table: SampleTable, xs: Uint8Array, id: number): Action {
    const n = HAN_ACTIVE_FEATURES;
    const action: Action = {
      url: table.url(id),
      host: table.host(id),
      domain: table.domain(id),
      depth: table.depth(id),
      data: { x: xs.slice(id * n, id * n + n) } satisfies HanData,
    };
    const parent = table.parent(id);
    if (parent >= 0) action.parentUrl = this.parentUrls[parent] as string;
    return action;
  }
}

/** `xs` (grown by half if `id` is past its end) with `x` stored at row `id`. */
function withIndices(xs: Uint8Array, id: number, x: Uint8Array): Uint8Array {
  const n = HAN_ACTIVE_FEATURES;
  let out = xs;
  if ((id + 1) * n > xs.length) {
    out = new Uint8Array(Math.max((id + 1) * n, Math.ceil((xs.length / n) * 1.5) * n));
    out.set(xs);
  }
  out.set(x, id * n);
  return out;
}
