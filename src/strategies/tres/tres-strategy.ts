/**
 * TRES (Kontogiannis et al., journal sections 2.4 to 2.6) and the variants that share its
 * machinery, as crawl strategies:
 * - `tres`: Double DQN over state-action features; each step the Tree-Frontier draws one
 *   representative per non-empty leaf and the agent takes the one with the highest Q.
 * - `tres-nh`: the same without the two hub (domain) features.
 * - `tree-random`: the same tree, but a random leaf and a random sample in it (no Q).
 * - `synchronous`: exact argmax of Q over the whole frontier every step (Theorem 1's
 *   synchronous method), for comparison on moderate frontier sizes.
 *
 * One step of the MDP: `next` chooses the action a_t; `observe` receives the page, its reward
 * r_t and its outlinks. The transition (x_t, r_t, next-action set) is complete only when the next
 * action is chosen, because the journal text puts the Tree-Frontier's next choice into the
 * double-Q candidate set along with the page's outlinks; so transitions wait in `pending` until
 * the next `next` call. With K = 1 that is exactly the paper's sequence.
 *
 * The frontier is the Tree-Frontier (`tres`, `tres-nh`, `tree-random`) or the full frontier
 * (`synchronous`: every sample a candidate), both behind the IndexedFrontier contract: a sample
 * is an id whose URL, host, domain, depth, parent and vector live in the frontier's columns
 * (no object per sample). A sample's `parent` indexes {@link TresStrategy}'s list of
 * fetched pages with outlinks (their URL and the path state they pass on; -1 for seeds). Every
 * hyperparameter is in one {@link TresConfig}.
 *
 * Domain features change after a sample was routed. We refresh them on the representatives at
 * selection time (so Q sees current values, as the authors' code does) and, unlike that code,
 * re-route a refreshed sample whose leaf changed, so the tree stays consistent over time.
 */

import type { Rng } from '../../common/index.js';
import { ConfigError } from '../../common/index.js';
import type { IndexedFrontier } from '../../frontier/index.js';
import { FullIndexedFrontier } from '../../frontier/index.js';
import type { KeywordSet } from '../../text/index.js';
import type { Action, DiscoveredLink, Outcome, SelectionContext } from '../../types/index.js';
import type { Strategy, StrategyStats } from '../strategy.js';
import { DdqnAgent, type DdqnLearnedState } from './ddqn.js';
import { PhaseLaps, type PhaseTimer } from './decision-phases.js';
import { agentStats, PendingTransitions } from './pending-transitions.js';
import {
  childPathState,
  DomainStats,
  type PathState,
  SEED_LINK_STATE,
  StateFeatures,
  withNewSiteBonus,
} from './state-features.js';
import { TreeFrontier, type TreeLearnedState } from './tree-frontier.js';
import { resolveTresConfig, type TresConfig, type TresOverrides } from './tres-config.js';

/** The variants this class runs (`tres-async` has its own class). */
export type TresTreeVariant = 'tres' | 'tres-nh' | 'tree-random' | 'synchronous';

export interface TresOptions extends TresOverrides {
  variant: TresTreeVariant;
  /** The topic's expanded keywords and keyphrases (features 3 to 5). */
  keywords: KeywordSet;
  rng: Rng;
  /** Name to report. @default the variant */
  name?: string;
  /** Receives each decision's phase durations (the decision benchmark). @default none: not timed */
  phaseTimer?: PhaseTimer;
}

/** A fetched page whose outlinks are in the frontier: what its samples share. */
interface ParentPage {
  url: string;
  /** The web-path state the page passes to its outlinks. */
  path: PathState;
}

/** Version of {@link TresCheckpoint}; a resume restores only its own format. */
const TRES_CHECKPOINT_FORMAT = 1;

/** What {@link TresStrategy.checkpoint} stores. */
export interface TresCheckpoint {
  format: number;
  /** Live pages observed (the warm-up and training schedule). */
  steps: number;
  siteBonuses: number;
  qEvaluations: number;
  /** Position of the representatives' and random choices' stream. */
  choiceRng: number[];
  agent: DdqnLearnedState;
  /** The Tree-Frontier's rules and experiences (absent for `synchronous`). */
  tree?: TreeLearnedState;
}

/** The `parent` of a seed's sample. */
const SEED_PARENT = -1;

/** What a chosen action carries back to `observe`. */
interface ActionData {
  x: Float32Array;
  path: PathState;
  isSeed: boolean;
}

export class TresStrategy implements Strategy {
  readonly name: string;
  readonly needsAnchorScores = true;
  /** Held links come back best page first: the page's relevance is the path state its links carry. */
  readonly heldLinksOrder = 'probability';
  /** Every hyperparameter of this run. */
  readonly config: Readonly<TresConfig>;
  private readonly features: StateFeatures;
  private readonly domains = new DomainStats();
  private readonly frontier: IndexedFrontier;
  /** The same object as `frontier` when it is a Tree-Frontier (experiences, re-routing). */
  private readonly tree: TreeFrontier | undefined;
  private readonly agent: DdqnAgent;
  private readonly rng: Rng;
  private readonly pending: PendingTransitions;
  /** Fetched pages with outlinks in the frontier, by the index their samples' `parent` holds. */
  private readonly parents: ParentPage[] = [];
  /** Scratch vector for encoding a link before the frontier copies it. */
  private readonly scratch: Float32Array;
  /** Path states of replayed pages while resuming (cleared at the first live page). */
  private readonly replayPaths = new Map<string, PathState>();
  /**
   * The path state each page observed with its links held back (`areLinksHeld`) passes to them,
   * until `queueLinks` brings them.
   */
  private readonly heldPaths = new Map<string, PathState>();
  private readonly laps: PhaseLaps;
  private steps = 0;
  /** True once the loop said a domain limit is set (`limitSiteBonus` applies). */
  private isUnderLimit = false;
  /** Rewards that got a new-site bonus (`newDomainBonus`, `limitSiteBonus`). */
  private siteBonuses = 0;
  private qEvaluations = 0;
  private lastQEvaluations = 0;
  /** True once a checkpoint was restored (replayed pages after it count as steps). */
  private isRestored = false;
  /** True after replayed pages, until the first decision refreshes the frontier's domain features. */
  private isReplayed = false;

  /** @throws ConfigError naming the first hyperparameter out of range. */
  constructor(options: TresOptions) {
    const config = resolveTresConfig(options.variant, options);
    this.config = config;
    this.name = options.name ?? options.variant;
    // One stream for drawing representatives and for random choices, in that order each step.
    this.rng = options.rng.fork('choice');
    this.features = new StateFeatures({
      keywords: options.keywords,
      withDomainFeatures: config.withDomainFeatures,
      buckets: config.buckets,
    });
    // Removed samples' vectors are read when their transition completes: recycle ids after that.
    if (options.variant === 'synchronous') {
      this.tree = undefined;
      this.frontier = new FullIndexedFrontier(this.features.size, true);
    } else {
      this.tree = new TreeFrontier(
        { ...config.tree, featureCount: this.features.size },
        { rng: this.rng, isRecycleDeferred: true },
      );
      this.frontier = this.tree;
    }
    this.pending = new PendingTransitions(this.frontier.table);
    this.scratch = new Float32Array(this.features.size);
    this.agent = new DdqnAgent({ config: config.ddqn, rng: options.rng.fork('ddqn') });
    this.laps = new PhaseLaps(options.phaseTimer);
  }

  seed(links: DiscoveredLink[]): void {
    for (const link of links) {
      const x = this.features.encodeSeed(link.url, link.domain, '', 0.5, this.domains);
      this.frontier.add(link, SEED_PARENT, x);
    }
  }

  next(ctx: SelectionContext): Action | undefined {
    if (this.isReplayed) this.refreshAllDomainFeatures();
    this.laps.start();
    this.isUnderLimit = Number.isFinite(ctx.domainLimit ?? Number.POSITIVE_INFINITY);
    const candidates = this.frontier.draw(ctx);
    this.laps.lap('draw');
    if (candidates.length === 0) return undefined;
    const chosen = this.choose(candidates, this.steps);
    this.laps.lap('choose');
    const t = this.frontier.table;
    const x = t.vector(chosen);
    const parentIndex = t.parent(chosen);
    const parent = parentIndex === SEED_PARENT ? undefined : this.parents[parentIndex];
    const action: Action = {
      url: t.url(chosen),
      host: t.host(chosen),
      domain: t.domain(chosen),
      depth: t.depth(chosen),
    };
    const data: ActionData = { x, path: parent?.path ?? SEED_LINK_STATE, isSeed: parent === undefined };
    action.data = data;
    if (parent !== undefined) action.parentUrl = parent.url;
    this.frontier.take(chosen);
    this.completePending(x);
    // The waiting transitions have read their outlinks' vectors: removed ids may be reused now.
    t.recycle();
    this.laps.lap('train');
    return action;
  }

  observe(outcome: Outcome): void {
    const { action } = outcome;
    this.laps.start();
    if (outcome.isReplay) {
      this.observeReplay(outcome);
      return;
    }
    this.replayPaths.clear();
    this.steps++;
    const data = action.data as ActionData | undefined;
    // Seeds: zero state features and the seed's own action features, now that its title is known.
    const x =
      data === undefined || data.isSeed ? this.features.encodeFetchedSeed(outcome, this.domains) : data.x;
    const agentReward = this.agentReward(outcome);
    const candidates = this.learnFrom(outcome, x, data?.path ?? SEED_LINK_STATE, agentReward);
    this.pending.pushIds(x, agentReward, candidates);
  }

  /** The reward the agent learns from (read before the page is recorded in the domain counts). */
  private agentReward(outcome: Outcome): number {
    const bonus = this.config.newDomainBonus + (this.isUnderLimit ? this.config.limitSiteBonus : 0);
    const reward = withNewSiteBonus(outcome.reward, outcome.action.domain, this.domains, bonus);
    if (reward > outcome.reward) this.siteBonuses++;
    return reward;
  }

  /**
   * Resuming a crawl: rebuild the frontier and the path states from the stored pages. Parents
   * come before children in fetch order, so a page's path state is its parent's, and the page's
   * own sample (its link from the parent, with the anchor text and probability the store keeps
   * with the parent's outlinks) is in the frontier when the page is replayed.
   * A page the restored checkpoint reflects (`isLearned`) adds nothing to the tree or the agent:
   * both come back from the checkpoint. Without a checkpoint (or after it) the tree learns the
   * page's experience again; the Q-network learns from live pages only.
   */
  private observeReplay(outcome: Outcome): void {
    const { action } = outcome;
    const parentState = action.parentUrl === undefined ? undefined : this.replayPaths.get(action.parentUrl);
    const linkState = parentState ?? SEED_LINK_STATE;
    const x =
      parentState === undefined
        ? this.features.encodeFetchedSeed(outcome, this.domains)
        : (this.sampleVectorOf(action.url, action.parentUrl) ??
          this.features.encode(
            linkState,
            { url: action.url, domain: action.domain, anchorText: '', anchorProbability: 0 },
            this.domains,
          ));
    const isLearned = outcome.isLearned === true;
    this.isReplayed = true;
    if (!isLearned && this.isRestored) this.steps++;
    // A learned page's bonus is counted in the restored siteBonuses already.
    const reward = isLearned ? outcome.reward : this.agentReward(outcome);
    this.learnFrom(outcome, x, linkState, reward, !isLearned);
    this.replayPaths.set(action.url, this.childState(linkState, outcome));
  }

  /**
   * After a replay, every frontier sample's domain features as of now, re-routed where they
   * changed. A sample keeps the domain features of when it was found until it is drawn as a
   * representative; in a crawl that never stopped most samples have been drawn (one per leaf
   * each step) and refreshed since, while a replayed frontier holds them as found: many a site
   * visited since still looks unknown, and the leaves of unknown sites fill with known ones.
   * Measured on DocWeb hardware (3 seeds, K = 1, stopped at 1,500 of 3,000 pages): without this
   * the resumed crawls reached 64 / 60 / 46 relevant sites against 70 / 76 / 55 uninterrupted.
   */
  private refreshAllDomainFeatures(): void {
    this.isReplayed = false;
    const t = this.frontier.table;
    const size = this.features.size;
    for (const id of t.ids()) {
      if (this.features.refreshDomainFeaturesAt(t.x, id * size, t.domain(id), this.domains))
        this.tree?.reroute(id);
    }
  }

  /** A copy of the vector of `url`'s sample found on `parentUrl` (else any of its samples), or undefined. */
  private sampleVectorOf(url: string, parentUrl: string | undefined): Float32Array | undefined {
    const t = this.frontier.table;
    const ids = t.group('url', url);
    if (ids.length === 0) return undefined;
    const id = ids.find((i) => this.parents[t.parent(i)]?.url === parentUrl) ?? (ids[0] as number);
    return t.vector(id);
  }

  /**
   * What TRES has learned: the Double DQN (online and target networks with their Adam states,
   * counters, replay buffer, sampling stream), the Tree-Frontier's rules and experiences, the step
   * counter (the warm-up and training schedule) and the choice stream. The frontier's samples,
   * path states and domain counts come back by replaying the stored pages.
   */
  checkpoint(): TresCheckpoint {
    return {
      format: TRES_CHECKPOINT_FORMAT,
      steps: this.steps,
      siteBonuses: this.siteBonuses,
      qEvaluations: this.qEvaluations,
      choiceRng: this.rng.getState(),
      agent: this.agent.learnedState(),
      ...(this.tree ? { tree: this.tree.learnedState() } : {}),
    };
  }

  /** Loads a {@link TresStrategy.checkpoint} (before `seed` and the replay). @throws ConfigError if it does not fit. */
  restore(checkpoint: unknown): void {
    const c = checkpoint as TresCheckpoint;
    if (c?.format !== TRES_CHECKPOINT_FORMAT)
      throw new ConfigError(`not a TRES checkpoint of format ${TRES_CHECKPOINT_FORMAT}`);
    if (this.tree) {
      if (c.tree === undefined) throw new ConfigError('the TRES checkpoint has no Tree-Frontier');
      this.tree.loadLearnedState(c.tree);
    }
    this.agent.loadLearnedState(c.agent);
    this.rng.setState(c.choiceRng);
    this.steps = c.steps;
    this.siteBonuses = c.siteBonuses;
    this.qEvaluations = c.qEvaluations;
    this.isRestored = true;
  }

  /** The path state a fetched page passes to its outlinks (feature 0 per `parentFeature`). */
  private childState(linkState: PathState, outcome: Outcome): PathState {
    const state = childPathState(linkState, outcome.reward);
    if (this.config.parentFeature === 'probability') state.parentReward = outcome.probability;
    return state;
  }

  /** The frontier's side of a transition: experience, purge of the URL, new samples. Returns their vectors. */
  private learnFrom(
    outcome: Outcome,
    x: Float32Array,
    linkState: PathState,
    agentReward: number,
    isExperience = true,
  ): number[] {
    const { action, reward } = outcome;
    // Other samples of this URL (found from other parents) must never be chosen again.
    this.frontier.removeUrl(action.url);
    if (outcome.finalUrl !== action.url) this.frontier.removeUrl(outcome.finalUrl);
    this.laps.lap('purge');
    this.domains.record(action.domain, reward);
    if (isExperience) this.tree?.addExperience(x, agentReward);
    this.laps.lap('experience');
    const childState = this.childState(linkState, outcome);
    if (outcome.areLinksHeld) this.heldPaths.set(action.url, childState);
    const candidates = this.addSamples(action.url, childState, outcome.links);
    this.laps.lap('outlinks');
    return candidates;
  }

  /**
   * Queues the links of a page observed with its links held back (see `Strategy.queueLinks`):
   * samples with the path state the page passed on and the domain features as they are now. They
   * join no waiting transition's candidates: those were completed without them.
   */
  queueLinks(outcome: Outcome): void {
    const url = outcome.action.url;
    const path = this.heldPaths.get(url) ?? this.replayPaths.get(url) ?? SEED_LINK_STATE;
    this.heldPaths.delete(url);
    this.addSamples(url, path, outcome.links);
  }

  /** Adds a sample per link found on page `url`, whose outlinks get path state `childState`. Returns their ids. */
  private addSamples(url: string, childState: PathState, links: readonly DiscoveredLink[]): number[] {
    const candidates: number[] = [];
    if (links.length === 0) return candidates;
    const parent = this.parents.push({ url, path: childState }) - 1;
    const toEncode = { url: '', domain: '', anchorText: '', anchorProbability: 0 };
    for (const link of links) {
      toEncode.url = link.url;
      toEncode.domain = link.domain;
      toEncode.anchorText = link.anchorText;
      toEncode.anchorProbability = link.anchorProbability ?? 0;
      this.features.encodeInto(this.scratch, 0, childState, toEncode, this.domains);
      candidates.push(this.frontier.add(link, parent, this.scratch));
    }
    return candidates;
  }

  stats(): StrategyStats {
    return {
      'frontier/size': this.frontier.size,
      'frontier/leaves': this.tree?.leafCount ?? 1,
      'frontier/nonempty_leaves': this.tree?.nonEmptyLeafCount ?? (this.frontier.size > 0 ? 1 : 0),
      'frontier/depth': this.tree?.depth ?? 0,
      'rl/q_evaluations': this.qEvaluations,
      'rl/q_evaluations_last_step': this.lastQEvaluations,
      'tres/site_bonuses': this.siteBonuses,
      ...agentStats(this.agent),
    };
  }

  /** The id of the action to take among the drawn candidates' ids. */
  private choose(candidates: number[], step: number): number {
    if (this.config.variant === 'tree-random') return this.randomOf(candidates);
    if (step < this.config.warmupSteps)
      return this.config.warmupPolicy === 'random' ? this.randomOf(candidates) : this.choosePrior(candidates);
    const { epsilon } = this.config;
    if (epsilon > 0 && this.rng.next() < epsilon) return this.randomOf(candidates);
    const t = this.frontier.table;
    const size = this.features.size;
    for (const id of candidates) {
      if (this.features.refreshDomainFeaturesAt(t.x, id * size, t.domain(id), this.domains))
        this.tree?.reroute(id);
    }
    const n = candidates.length;
    const pool = t.x;
    const xs = new Float32Array(n * size); // [n, features]
    for (let i = 0; i < n; i++) {
      const from = (candidates[i] as number) * size;
      xs.set(pool.subarray(from, from + size), i * size);
    }
    const q = this.agent.q(xs, n);
    this.qEvaluations += n;
    this.lastQEvaluations = n;
    let best = 0;
    let bestUrl: string | undefined;
    for (let i = 1; i < n; i++) {
      const qi = q[i] as number;
      const qb = q[best] as number;
      if (qi > qb) {
        best = i;
        bestUrl = undefined;
      } else if (qi === qb) {
        // Ties broken by URL, never by draw order.
        bestUrl ??= t.url(candidates[best] as number);
        const url = t.url(candidates[i] as number);
        if (url < bestUrl) {
          best = i;
          bestUrl = url;
        }
      }
    }
    return candidates[best] as number;
  }

  /** A uniformly random candidate (one draw from the strategy's stream). */
  private randomOf(candidates: number[]): number {
    return candidates[this.rng.int(candidates.length)] as number;
  }

  /**
   * Warm-up by prior: the candidate with the highest parent reward + anchor probability, ties
   * broken at random (one draw per tie, so the choice repeats for a seed).
   */
  private choosePrior(candidates: number[]): number {
    const t = this.frontier.table;
    const size = this.features.size;
    const anchor = this.features.anchorIndex;
    let best = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    let ties = 0;
    for (const id of candidates) {
      const score = (t.x[id * size] as number) + (t.x[id * size + anchor] as number);
      if (score > bestScore) {
        best = id;
        bestScore = score;
        ties = 1;
      } else if (score === bestScore) {
        // Reservoir choice among equal scores: each tied candidate equally likely.
        ties++;
        if (this.rng.int(ties) === 0) best = id;
      }
    }
    return best;
  }

  /** Adds the chosen action to the candidate sets of the waiting transitions and learns from them. */
  private completePending(chosenX: Float32Array): void {
    if (this.config.variant === 'tree-random') {
      this.pending.clear(); // no Q-network to train
      return;
    }
    const isStored = this.pending.store(chosenX, this.agent);
    this.laps.lap('store');
    // The first decision after a restore has no waiting transition (the last page's was not
    // stored), but its training step and target copy are due as in a crawl that never stopped.
    if (isStored || (this.isRestored && this.steps > this.agent.learnedStep))
      this.agent.maybeTrain(this.steps);
  }
}
