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
 * (`synchronous`: every sample a candidate), both behind the Frontier contract; every
 * hyperparameter is in one {@link TresConfig}.
 *
 * Domain features change after a sample was routed. We refresh them on the representatives at
 * selection time (so Q sees current values, as the authors' code does) and, unlike that code,
 * re-route a refreshed sample whose leaf changed, so the tree stays consistent over time.
 */
import type { Rng } from '../../common/rng.js';
import { FullFrontier } from '../../frontier/bag-frontier.js';
import type { Frontier } from '../../frontier/frontier.js';
import { TreeFrontier } from '../../frontier/tree-frontier.js';
import { DdqnAgent } from '../../rl/ddqn.js';
import type { KeywordSet } from '../../text/index.js';
import type {
  Action,
  DiscoveredLink,
  Outcome,
  SelectionContext,
  Strategy,
  StrategyStats,
} from '../strategy.js';
import { agentStats, PendingTransitions } from './pending-transitions.js';
import {
  childPathState,
  DomainStats,
  type PathState,
  SEED_LINK_STATE,
  StateFeatures,
} from './state-features.js';
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
}

/** A frontier sample: a URL reached by one link, with that link's state-action vector. */
interface Sample {
  x: Float32Array;
  url: string;
  host: string;
  domain: string;
  depth: number;
  parentUrl: string | undefined;
  /** The web-path state of the link (what its parent page passed on). */
  path: PathState;
  isSeed: boolean;
}

/** What a chosen action carries back to `observe`. */
interface ActionData {
  x: Float32Array;
  path: PathState;
  isSeed: boolean;
}

export class TresStrategy implements Strategy {
  readonly name: string;
  readonly needsAnchorScores = true;
  /** Every hyperparameter of this run. */
  readonly config: Readonly<TresConfig>;
  private readonly features: StateFeatures;
  private readonly domains = new DomainStats();
  private readonly frontier: Frontier<Sample>;
  /** The same object as `frontier` when it is a Tree-Frontier (experiences, re-routing). */
  private readonly tree: TreeFrontier<Sample> | undefined;
  private readonly agent: DdqnAgent;
  private readonly rng: Rng;
  private readonly pending = new PendingTransitions();
  /** Path states of replayed pages while resuming (cleared at the first live page). */
  private readonly replayPaths = new Map<string, PathState>();
  private steps = 0;
  private qEvaluations = 0;
  private lastQEvaluations = 0;

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
    if (options.variant === 'synchronous') {
      this.tree = undefined;
      this.frontier = new FullFrontier<Sample>();
    } else {
      this.tree = new TreeFrontier<Sample>(
        { ...config.tree, featureCount: this.features.size },
        { rng: this.rng },
      );
      this.frontier = this.tree;
    }
    this.agent = new DdqnAgent({ config: config.ddqn, rng: options.rng.fork('ddqn') });
  }

  seed(links: DiscoveredLink[]): void {
    for (const link of links) {
      const x = this.features.encodeSeed(link.url, link.domain, '', 0.5, this.domains);
      this.frontier.add({ ...this.sampleOf(link, undefined, SEED_LINK_STATE), x, isSeed: true });
    }
  }

  next(ctx: SelectionContext): Action | undefined {
    const candidates = this.frontier.draw(ctx);
    if (candidates.length === 0) return undefined;
    const chosen = this.choose(candidates, this.steps);
    this.frontier.take(chosen);
    this.completePending(chosen.x);
    const data: ActionData = { x: chosen.x, path: chosen.path, isSeed: chosen.isSeed };
    const action: Action = {
      url: chosen.url,
      host: chosen.host,
      domain: chosen.domain,
      depth: chosen.depth,
      data,
    };
    if (chosen.parentUrl !== undefined) action.parentUrl = chosen.parentUrl;
    return action;
  }

  observe(outcome: Outcome): void {
    const { action, reward } = outcome;
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
    const candidates = this.learnFrom(outcome, x, data?.path ?? SEED_LINK_STATE);
    this.pending.push(x, reward, candidates);
  }

  /**
   * Resuming a crawl: rebuild the frontier, the tree and the path states from the stored pages.
   * Parents come before children in fetch order, so a page's path state is its parent's; the
   * anchor text of the link is not stored, so replayed experiences have no anchor features.
   * The Q-network is not stored either: it learns again, after a new warm-up.
   */
  private observeReplay(outcome: Outcome): void {
    const { action } = outcome;
    const parentState = action.parentUrl === undefined ? undefined : this.replayPaths.get(action.parentUrl);
    const linkState = parentState ?? SEED_LINK_STATE;
    const x =
      parentState === undefined
        ? this.features.encodeFetchedSeed(outcome, this.domains)
        : this.features.encode(
            linkState,
            { url: action.url, domain: action.domain, anchorText: '', anchorProbability: 0 },
            this.domains,
          );
    this.learnFrom(outcome, x, linkState);
    this.replayPaths.set(action.url, childPathState(linkState, outcome.reward));
  }

  /** The frontier's side of a transition: experience, purge of the URL, new samples. Returns their vectors. */
  private learnFrom(outcome: Outcome, x: Float32Array, linkState: PathState): Float32Array[] {
    const { action, reward } = outcome;
    // Other samples of this URL (found from other parents) must never be chosen again.
    this.frontier.removeUrl(action.url);
    if (outcome.finalUrl !== action.url) this.frontier.removeUrl(outcome.finalUrl);
    this.domains.record(action.domain, reward);
    this.tree?.addExperience(x, reward);
    const childState = childPathState(linkState, reward);
    const candidates: Float32Array[] = [];
    for (const link of outcome.links) {
      const sample = this.sampleOf(link, action.url, childState);
      this.frontier.add(sample);
      candidates.push(sample.x);
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
      ...agentStats(this.agent),
    };
  }

  private sampleOf(link: DiscoveredLink, parentUrl: string | undefined, path: PathState): Sample {
    const x = this.features.encode(
      path,
      { ...link, anchorProbability: link.anchorProbability ?? 0 },
      this.domains,
    );
    return {
      x,
      url: link.url,
      host: link.host,
      domain: link.domain,
      depth: link.depth,
      parentUrl,
      path,
      isSeed: false,
    };
  }

  private choose(candidates: Sample[], step: number): Sample {
    if (this.config.variant === 'tree-random' || step < this.config.warmupSteps) {
      // Warm-up (and Tree-Random): a random leaf's representative.
      return candidates[this.rng.int(candidates.length)] as Sample;
    }
    for (const s of candidates) {
      if (this.features.refreshDomainFeatures(s.x, s.domain, this.domains)) this.tree?.reroute(s);
    }
    const n = candidates.length;
    const size = this.features.size;
    const xs = new Float32Array(n * size); // [n, features]
    for (let i = 0; i < n; i++) xs.set((candidates[i] as Sample).x, i * size);
    const q = this.agent.q(xs, n);
    this.qEvaluations += n;
    this.lastQEvaluations = n;
    let best = 0;
    for (let i = 1; i < n; i++) {
      const qi = q[i] as number;
      const qb = q[best] as number;
      // Ties broken by URL, never by draw order.
      if (qi > qb || (qi === qb && (candidates[i] as Sample).url < (candidates[best] as Sample).url))
        best = i;
    }
    return candidates[best] as Sample;
  }

  /** Adds the chosen action to the candidate sets of the waiting transitions and learns from them. */
  private completePending(chosenX: Float32Array): void {
    if (this.config.variant === 'tree-random')
      this.pending.clear(); // no Q-network to train
    else this.pending.complete(chosenX, this.agent, this.steps);
  }
}
