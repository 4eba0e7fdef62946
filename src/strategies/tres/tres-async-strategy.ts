/**
 * `tres-async`: TRES's state-action features and Double DQN with the asynchronous frontier
 * update of Han et al. (the journal's TRES_Async baseline): each new outlink is scored once, when
 * it enters the frontier, with the Q-network of that moment; old scores are never updated; the
 * best-scored URL is fetched next (best-first over stale scores). Cheap per step, but the scores
 * of old samples drift away from what the agent has since learned.
 *
 * Samples are ids of an {@link IndexedPriorityFrontier} with their vectors in its table (issue
 * 13); `parent` indexes the fetched pages with outlinks (URL and path state; -1 for seeds).
 */

import type { Rng } from '../../common/index.js';
import { ConfigError } from '../../common/index.js';
import { IndexedPriorityFrontier } from '../../frontier/index.js';
import type { KeywordSet } from '../../text/index.js';
import type { Action, DiscoveredLink, Outcome, SelectionContext } from '../../types/index.js';
import type { Strategy, StrategyStats } from '../strategy.js';
import { DdqnAgent, type DdqnLearnedState } from './ddqn.js';
import { agentStats, PendingTransitions } from './pending-transitions.js';
import {
  childPathState,
  DomainStats,
  type PathState,
  SEED_LINK_STATE,
  StateFeatures,
  withNewSiteBonus,
} from './state-features.js';
import { resolveTresConfig, type TresConfig, type TresOverrides } from './tres-config.js';

export interface TresAsyncOptions extends Pick<TresOverrides, 'ddqn' | 'buckets' | 'newDomainBonus'> {
  keywords: KeywordSet;
  rng: Rng;
  /** Name to report. @default 'tres-async' */
  name?: string;
}

interface AsyncData {
  x: Float32Array;
  path: PathState;
  isSeed: boolean;
}

export class TresAsyncStrategy implements Strategy {
  readonly name: string;
  readonly needsAnchorScores = true;
  /**
   * Every hyperparameter of this run. Unused: the tree settings (no Tree-Frontier) and the
   * warm-up policy (each link is scored by Q when queued, from the first step on).
   */
  readonly config: Readonly<TresConfig>;
  private readonly features: StateFeatures;
  private readonly domains = new DomainStats();
  private readonly frontier: IndexedPriorityFrontier;
  private readonly agent: DdqnAgent;
  private readonly pending: PendingTransitions;
  /** Fetched pages with outlinks in the frontier, by the index their samples' `parent` holds. */
  private readonly parents: { url: string; path: PathState }[] = [];
  private steps = 0;
  private qEvaluations = 0;

  constructor(options: TresAsyncOptions) {
    this.config = resolveTresConfig('tres-async', options);
    this.name = options.name ?? 'tres-async';
    this.features = new StateFeatures({
      keywords: options.keywords,
      withDomainFeatures: this.config.withDomainFeatures,
      buckets: this.config.buckets,
    });
    this.agent = new DdqnAgent({ config: this.config.ddqn, rng: options.rng.fork('ddqn') });
    // Waiting transitions read their outlinks' vectors at the next decision: recycle ids after.
    this.frontier = new IndexedPriorityFrontier({
      featureCount: this.features.size,
      isRecycleDeferred: true,
    });
    this.pending = new PendingTransitions(this.frontier.table);
  }

  seed(links: DiscoveredLink[]): void {
    for (const link of links) {
      const x = this.features.encodeSeed(link.url, link.domain, '', 0.5, this.domains);
      // Seeds go first.
      const seed = { url: link.url, host: link.host, domain: link.domain, depth: 0 };
      this.frontier.addWithKey(seed, -1, Number.NEGATIVE_INFINITY, x);
    }
  }

  next(ctx: SelectionContext): Action | undefined {
    const [id] = this.frontier.draw(ctx);
    if (id === undefined) return undefined;
    const t = this.frontier.table;
    const p = t.parent(id);
    const parent = p >= 0 ? this.parents[p] : undefined;
    const data: AsyncData = {
      x: t.vector(id),
      path: parent?.path ?? SEED_LINK_STATE,
      isSeed: parent === undefined,
    };
    const action: Action = {
      url: t.url(id),
      host: t.host(id),
      domain: t.domain(id),
      depth: t.depth(id),
      data,
    };
    if (parent !== undefined) action.parentUrl = parent.url;
    this.frontier.take(id);
    this.pending.complete(data.x, this.agent, this.steps);
    // The waiting transitions have read their outlinks' vectors: removed ids may be reused now.
    t.recycle();
    return action;
  }

  observe(outcome: Outcome): void {
    const { action, reward } = outcome;
    this.steps++;
    const data = action.data as AsyncData | undefined;
    const x =
      data === undefined || data.isSeed ? this.features.encodeFetchedSeed(outcome, this.domains) : data.x;
    const agentReward = withNewSiteBonus(reward, action.domain, this.domains, this.config.newDomainBonus);
    this.domains.record(action.domain, reward);
    const childState = childPathState(data?.path ?? SEED_LINK_STATE, reward);
    const n = outcome.links.length;
    if (n === 0) {
      if (!outcome.isReplay) this.pending.push(x, agentReward, []);
      return;
    }
    const size = this.features.size;
    const xs = new Float32Array(n * size); // [links, features]
    const toEncode = { url: '', domain: '', anchorText: '', anchorProbability: 0 };
    outcome.links.forEach((link, i) => {
      toEncode.url = link.url;
      toEncode.domain = link.domain;
      toEncode.anchorText = link.anchorText;
      toEncode.anchorProbability = link.anchorProbability ?? 0;
      this.features.encodeInto(xs, i * size, childState, toEncode, this.domains);
    });
    // Asynchronous update: score only the new outlinks, once.
    const q = this.agent.q(xs, n);
    this.qEvaluations += n;
    const parent = this.parents.push({ url: action.url, path: childState }) - 1;
    const ids = outcome.links.map((link: DiscoveredLink, i) =>
      this.frontier.addWithKey(link, parent, -(q[i] as number), xs.subarray(i * size, i * size + size)),
    );
    if (!outcome.isReplay) this.pending.pushIds(x, agentReward, ids);
  }

  /**
   * What `tres-async` has learned: the Double DQN (networks, Adam, counters, replay, sampling
   * stream). The step counter, the frontier and its Q keys (scored by the restored network) come
   * back by replaying the stored pages.
   */
  checkpoint(): { format: number; agent: DdqnLearnedState } {
    return { format: 1, agent: this.agent.learnedState() };
  }

  /** Loads a {@link TresAsyncStrategy.checkpoint} (before `seed` and the replay). @throws ConfigError if it does not fit. */
  restore(checkpoint: unknown): void {
    const c = checkpoint as { format?: number; agent: DdqnLearnedState };
    if (c?.format !== 1) throw new ConfigError('not a tres-async checkpoint of format 1');
    this.agent.loadLearnedState(c.agent);
  }

  stats(): StrategyStats {
    return {
      'frontier/size': this.frontier.size,
      'rl/q_evaluations': this.qEvaluations,
      ...agentStats(this.agent),
    };
  }
}
