/**
 * Lim's crawler (Lim 2016, "Reinforcement Learning and the Web Crawling Problem"): the modified
 * depth-first search of section 5.1 with a learned parse/skip decision (sections 4-5.2).
 *
 * One step, as section 5.1 lists it, on our loop:
 *   3. pop the most recently pushed URL (the frontier is a stack: a priority frontier keyed by
 *      minus the push order; with K > 1 or politeness delays, the most recent ready one);
 *   4-5. score the fetched page's relevance (RAKE keywords, word-vector similarity to the search
 *      words, `lim-relevance.ts`);
 *   7. if this host was crawled in each of the last `maxConsecutivePerHost` (3) steps, skip
 *      ("domain" in the thesis is its code's `getDomain`: scheme and host, so a host here);
 *   8-9. else decide parse or skip; parse pushes the page's links on the stack.
 * "Parse/skip" on our loop: the loop always fetches and parses a page; the decision is whether
 * the page's outlinks enter the frontier (parse) or not (skip). The decision's state is the four
 * booleans of `host-states.ts`; the learner is policy iteration (`lim-dfs`) or Q-learning
 * (`lim-q`, `parse-policy.ts`). `learn=0`: always parse (the plain modified DFS).
 * `lim-q:realState=1`: Q-learning over the real-valued quantities behind the booleans plus the
 * page's own relevance (`HostStates.features`), the thesis' section 9.1 reading of "infinite
 * state spaces". `parseAbove=t`: a diagnostic that parses the pages of relevance >= t and learns
 * nothing (results/learning.md: worth about 55 points of harvest rate on the generated web,
 * which neither learner finds).
 *
 * Our additions, where the thesis' crawler would stop: the thesis ends a crawl when the stack is
 * empty; a skipped page's links are kept aside instead, and when the stack runs empty the most
 * recently skipped page is parsed after all, so a crawler that learned "never parse" still
 * spends its page budget. And a seeded epsilon-greedy choice, so both actions get tried.
 *
 * Transitions: a decision (s, a) gets as reward the crawl reward of the next page fetched after
 * it ('page'), or R(s) = true features / 4 ('state', the thesis), and s' = the next decision's
 * state. Resume: the learner, the exploration stream, each page's relevance and each parse/skip
 * decision, and when the stack ran empty, come back from the checkpoint (`checkpoint`); the
 * replay rebuilds the host counts, the stack and the kept-aside links from them, and the learner
 * learns only from pages after the checkpoint. (before they were kept, the replay
 * judged each page again from its title alone, took each decision again on the restored
 * exploration stream and never parsed a kept page after all, and resumed crawls on DocWeb
 * hardware did better than uninterrupted ones, beyond the spread.) Pages stored after the
 * checkpoint are judged from their title.
 * Cost per step: RAKE and one cosine per (keyword, search word) on the page, O(1) for the
 * decision, O(links log n) for the pushes; a solve of the 16-state model every `planEvery` steps.
 */

import type { Rng } from '../../common/index.js';
import { ConfigError } from '../../common/index.js';
import type { SampleInput } from '../../frontier/index.js';
import { IndexedPriorityFrontier, takeBestAction } from '../../frontier/index.js';
import { type KeywordSet, loadWordVectors, type WordVectorLookup } from '../../text/index.js';
import type { Action, DiscoveredLink, Outcome, SelectionContext } from '../../types/index.js';
import { ObservationLog } from '../observation-log.js';
import type { Strategy, StrategyStats } from '../strategy.js';
import { HostStates, REAL_FEATURE_COUNT, trueFeatureCount } from './host-states.js';
import { KeptLinks } from './kept-links.js';
import { type LimConfig, type LimLearner, type LimSettings, resolveLimConfig } from './lim-config.js';
import { LimRelevance, type LimRelevanceOptions } from './lim-relevance.js';
import {
  LinearQParsePolicy,
  type ParsePolicy,
  PolicyIterationPolicy,
  QLearningPolicy,
} from './parse-policy.js';

export interface LimStrategyOptions {
  learner: LimLearner;
  /** The run's random stream for this strategy. */
  rng: Rng;
  /** The search words (section 1.3): the topic's keywords and keyphrases. */
  keywords: KeywordSet;
  /** Word vectors for the similarity; undefined: keyword matching (see `lim-relevance.ts`). */
  wordVectors?: WordVectorLookup;
  /** Settings by field name (see `LIM_DFS_SETTINGS`); defaults for the rest. @default none */
  overrides?: LimSettings;
  /** Name to report. @default 'lim-dfs' or 'lim-q' */
  name?: string;
}

/** The decisions a checkpoint keeps per page. */
const SKIP = 0;
const PARSE = 1;
const CAP_SKIP = 2;

/** A decision waiting for its reward and next state. */
interface PendingDecision {
  state: number;
  /** The 'decision' reward, known when the decision is taken (the page's verdict is in). */
  decisionReward: number;
  /** The real-valued state (`realState`). */
  features: Float64Array | undefined;
  isParse: boolean;
}

/**
 * The 'decision' reward (section 1.4 item 4: "parsing relevant content and not parsing
 * irrelevant content"): 1 if the decision agrees with the crawl's verdict on the page, else 0.
 */
export function rewardOfDecision(isParse: boolean, isRelevant: boolean): number {
  return isParse === isRelevant ? 1 : 0;
}

/** What {@link LimStrategy.checkpoint} stores. */
export interface LimCheckpoint {
  format: number;
  policy?: Record<string, unknown>;
  linear?: Record<string, unknown>;
  exploreRng: number[];
  /** Each observed page's relevance, in observation order (format 2; see ObservationLog). */
  relevances?: Float64Array;
  /** Each observed page's decision: 1 parse, 0 skip, 2 skipped by step 7's cap (format 2). */
  decisions?: Float64Array;
  /**
   * Per outcome observed, the skipped pages parsed after all (the stack ran empty) since the
   * outcome before (format 2): `next` does that, and a replay calls no `next`.
   */
  unkeeps?: Float64Array;
}

export class LimStrategy implements Strategy {
  readonly name: string;
  readonly config: Readonly<LimConfig>;
  /** The stack as ids; `parent` indexes {@link LimStrategy.parentUrls}. */
  private readonly frontier = new IndexedPriorityFrontier({ isUrlCounted: true });
  private readonly parentUrls: string[] = [];
  private relevance: LimRelevance;
  private readonly hosts: HostStates;
  /** Undefined when learning is off (always parse) or the state is real-valued. */
  private readonly policy: ParsePolicy | undefined;
  /** The learner over real-valued states (`lim-q:realState=1`). */
  private readonly linear: LinearQParsePolicy | undefined;
  private readonly exploreRng: Rng;
  /** Skipped pages' links, kept aside as ids until the stack runs empty. */
  private readonly kept = new KeptLinks();
  private pending: PendingDecision | undefined;
  /** Each page's relevance and decision as observed, for the checkpoint's replay. */
  private readonly relevances = new ObservationLog();
  private readonly decisions = new ObservationLog();
  private readonly unkeeps = new ObservationLog();
  /** Skipped pages parsed after all since the last outcome observed. */
  private unkeepsSinceObserve = 0;
  private pushes = 0;
  private runHost: string | undefined;
  private runLength = 0;
  private readonly counts = {
    parses: 0,
    skips: 0,
    capSkips: 0,
    explorations: 0,
    unkept: 0,
    relevanceSum: 0,
    pages: 0,
    rewardSum: 0,
    rewards: 0,
  };
  /** Decisions with each feature true, feature 1 first (measures which features ever fire). */
  private readonly featureTrue = [0, 0, 0, 0];

  /** The relevance's options but the vectors, to build it again in {@link prepare}. */
  private readonly relevanceOptions: Omit<LimRelevanceOptions, 'vectors'>;
  private hasWordVectors: boolean;

  constructor(options: LimStrategyOptions) {
    this.config = resolveLimConfig(options.learner, options.overrides);
    const c = this.config;
    this.name = options.name ?? (options.learner === 'q-learning' ? 'lim-q' : 'lim-dfs');
    this.relevanceOptions = {
      searchWords: options.keywords,
      similarityThreshold: c.similarityThreshold,
      maxUrlLength: c.maxUrlLength,
    };
    this.hasWordVectors = options.wordVectors !== undefined;
    this.relevance = new LimRelevance({
      ...this.relevanceOptions,
      ...(options.wordVectors ? { vectors: options.wordVectors } : {}),
    });
    this.hosts = new HostStates({
      parseSkipRatio: c.parseSkipRatio,
      relevanceThreshold: c.relevanceThreshold,
    });
    this.exploreRng = options.rng.fork('lim-explore');
    // With the parseAbove diagnostic the decision is fixed and nothing learns.
    const isLearning = c.shouldLearn && c.parseAbove === false;
    if (isLearning && c.shouldUseRealState) {
      this.linear = new LinearQParsePolicy({
        features: REAL_FEATURE_COUNT,
        gamma: c.gamma,
        learningRate: c.learningRate,
      });
    } else if (isLearning) {
      this.policy =
        c.learner === 'q-learning'
          ? new QLearningPolicy({ gamma: c.gamma, learningRate: c.learningRate })
          : new PolicyIterationPolicy({
              gamma: c.gamma,
              planEvery: c.planEvery,
              priorCount: c.priorCount,
              rng: options.rng.fork('lim-policy'),
              ...(c.reward === 'state' ? { stateReward: (s: number) => trueFeatureCount(s) / 4 } : {}),
            });
    }
  }

  /**
   * Loads the word vectors (`loadWordVectors()`, the project's GloVe table) unless they were
   * given; the crawl loop awaits it once before the first step. Without it the relevance falls
   * back to keyword matching.
   */
  async prepare(): Promise<void> {
    if (this.hasWordVectors) return;
    const vectors = await loadWordVectors();
    this.relevance = new LimRelevance({ ...this.relevanceOptions, vectors });
    this.hasWordVectors = true;
  }

  seed(links: DiscoveredLink[]): void {
    this.push(links, undefined);
  }

  next(ctx: SelectionContext): Action | undefined {
    for (;;) {
      const action = takeBestAction(this.frontier, ctx, this.parentUrls);
      if (action !== undefined) return action;
      // Nothing ready: wait if the stack still holds URLs (hosts busy), else parse a skipped page.
      if (this.frontier.size > 0 || !this.unkeep()) return undefined;
      this.unkeepsSinceObserve++;
    }
  }

  /** Parses the most recently skipped page after all (pushes its links); false if none is kept. */
  private unkeep(): boolean {
    const kept = this.kept.pop();
    if (kept === undefined) return false;
    this.counts.unkept++;
    this.push(kept.links, kept.parentUrl);
    return true;
  }

  observe(outcome: Outcome): void {
    const { action } = outcome;
    // Out of the frontier's figure now (its samples leave the stack lazily), as a live crawl drew it.
    for (const url of new Set([action.url, outcome.finalUrl])) this.frontier.removeUrl(url);
    const host = action.host;
    // Step 7's count: iterations in a row on this host (failed fetches are iterations too).
    this.runLength = host === this.runHost ? this.runLength + 1 : 1;
    this.runHost = host;
    const isLearned = outcome.isLearned === true;
    // The skipped pages `next` parsed after all before this outcome's action was chosen, again.
    if (isLearned) for (let n = this.unkeeps.takeStored() ?? 0; n > 0; n--) this.unkeep();
    else this.unkeeps.add(this.unkeepsSinceObserve);
    this.unkeepsSinceObserve = 0;
    let pageRelevance = 0;
    if (outcome.isPage) {
      // Steps 4-5. A replayed outcome has no text: its relevance as observed comes from the
      // checkpoint (from its title alone past the checkpoint).
      const stored = isLearned ? this.relevances.takeStored() : undefined;
      const relevance = stored ?? this.relevance.pageRelevance(outcome.title ?? '', outcome.text ?? '');
      if (!isLearned) this.relevances.add(relevance);
      this.hosts.recordPage(host, relevance);
      pageRelevance = relevance;
      this.counts.relevanceSum += relevance;
      this.counts.pages++;
    }
    const urlRelevance = this.relevance.urlRelevance(action.url);
    const state = this.hosts.state(host, urlRelevance);
    const features =
      this.linear !== undefined ? this.hosts.features(host, urlRelevance, pageRelevance) : undefined;
    const pending = this.pending;
    if (pending !== undefined) {
      const reward =
        this.config.reward === 'page'
          ? outcome.reward
          : this.config.reward === 'decision'
            ? pending.decisionReward
            : trueFeatureCount(pending.state) / 4;
      this.counts.rewardSum += reward;
      this.counts.rewards++;
      // A page the restored checkpoint reflects taught its decision already.
      if (!isLearned) {
        this.policy?.learn(pending.state, pending.isParse, reward, state);
        if (pending.features !== undefined && features !== undefined)
          this.linear?.learn(pending.features, pending.isParse, reward, features);
      }
    }
    this.pending = undefined;
    if (!outcome.isPage) return;
    // A page the restored checkpoint reflects: the decision taken then (no exploration draw, so
    // the restored stream goes on where the crawl that stopped left it; and step 7 as taken then,
    // whatever outcomes the store does not replay).
    const storedDecision = isLearned ? this.decisions.takeStored() : undefined;
    const isCapSkip =
      storedDecision !== undefined
        ? storedDecision === CAP_SKIP
        : this.runLength > this.config.maxConsecutivePerHost;
    if (isCapSkip) {
      // Step 7: this host had the last `maxConsecutivePerHost` iterations; no decision to learn from.
      if (!isLearned) this.decisions.add(CAP_SKIP);
      this.counts.capSkips++;
      this.hosts.recordDecision(host, false);
      this.keep(outcome.links, action.url);
      return;
    }
    for (let f = 0; f < 4; f++) if ((state >> (3 - f)) & 1) (this.featureTrue[f] as number)++;
    const isParse =
      storedDecision !== undefined
        ? storedDecision === PARSE
        : this.config.parseAbove !== false
          ? pageRelevance >= this.config.parseAbove
          : this.decide(state, features);
    if (!isLearned) this.decisions.add(isParse ? PARSE : SKIP);
    this.hosts.recordDecision(host, isParse);
    if (isParse) {
      this.counts.parses++;
      this.push(outcome.links, action.url);
    } else {
      this.counts.skips++;
      this.keep(outcome.links, action.url);
    }
    if (this.policy !== undefined || this.linear !== undefined) {
      const decisionReward = rewardOfDecision(isParse, outcome.reward >= 1);
      this.pending = { state, decisionReward, features, isParse };
    }
  }

  /**
   * What Lim's crawler has learned: its parse/skip policy (the table, the model of policy
   * iteration, or the linear weights), its exploration stream, and each page's relevance and
   * decision. The host counts, the stack and the kept-aside links come back by replaying the
   * stored pages with those relevances and decisions.
   */
  checkpoint(): LimCheckpoint {
    return {
      format: 2,
      ...(this.policy ? { policy: this.policy.learnedState() } : {}),
      ...(this.linear ? { linear: this.linear.learnedState() } : {}),
      exploreRng: this.exploreRng.getState(),
      relevances: this.relevances.saved(),
      decisions: this.decisions.saved(),
      unkeeps: this.unkeeps.saved(),
    };
  }

  /** Loads a {@link LimStrategy.checkpoint} (before `seed` and the replay). @throws ConfigError if it does not fit. */
  restore(checkpoint: unknown): void {
    const c = checkpoint as LimCheckpoint;
    if (c?.format !== 1 && c?.format !== 2) throw new ConfigError('not a Lim checkpoint of format 1 or 2');
    if (this.policy && c.policy) this.policy.loadLearnedState(c.policy);
    if (this.linear && c.linear) this.linear.loadLearnedState(c.linear);
    this.exploreRng.setState(c.exploreRng);
    // Format 1 has neither: its replay judges and decides again.
    if (c.relevances !== undefined) this.relevances.load(c.relevances);
    if (c.decisions !== undefined) this.decisions.load(c.decisions);
    if (c.unkeeps !== undefined) this.unkeeps.load(c.unkeeps);
  }

  stats(): StrategyStats {
    const c = this.counts;
    return {
      // The kept links are fetched once the stack runs empty: URLs still to crawl, so frontier.
      'frontier/size': this.frontier.liveSize + this.kept.linkCount,
      'lim/stack': this.frontier.size,
      'lim/kept_links': this.kept.linkCount,
      'lim/parses': c.parses,
      'lim/skips': c.skips,
      'lim/cap_skips': c.capSkips,
      'lim/explorations': c.explorations,
      'lim/unkept': c.unkept,
      'lim/kept_pages': this.kept.length,
      'lim/mean_relevance': c.pages > 0 ? c.relevanceSum / c.pages : 0,
      // Mean reward credited to the decisions (the configured reward).
      'lim/mean_reward': c.rewards > 0 ? c.rewardSum / c.rewards : 0,
      'lim/f1_true': this.featureTrue[0] as number,
      'lim/f2_true': this.featureTrue[1] as number,
      'lim/f3_true': this.featureTrue[2] as number,
      'lim/f4_true': this.featureTrue[3] as number,
      ...(this.policy?.stats() ?? {}),
      ...(this.linear?.stats() ?? {}),
    };
  }

  /** Parse (true) or skip: the policy's action, a random one with probability epsilon. */
  private decide(state: number, features: Float64Array | undefined): boolean {
    const policy = this.policy;
    const linear = this.linear;
    if (policy === undefined && linear === undefined) return true;
    if (this.config.epsilon > 0 && this.exploreRng.next() < this.config.epsilon) {
      this.counts.explorations++;
      return this.exploreRng.next() < 0.5;
    }
    return features !== undefined && linear !== undefined
      ? linear.isParse(features)
      : (policy?.isParse(state) ?? true);
  }

  /** Pushes links on the stack in page order (the last one comes out first). */
  private push(links: readonly SampleInput[], parentUrl: string | undefined): void {
    if (links.length === 0) return;
    const parent = parentUrl === undefined ? -1 : this.parentUrls.push(parentUrl) - 1;
    for (const link of links) this.frontier.addWithKey(link, parent, -this.pushes++);
  }

  private keep(links: DiscoveredLink[], parentUrl: string): void {
    this.kept.push(parentUrl, links);
  }
}
