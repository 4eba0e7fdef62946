/**
 * `tres-async`: TRES's state-action features and Double DQN with the asynchronous frontier
 * update of Han et al. (the journal's TRES_Async baseline): each new outlink is scored once, when
 * it enters the frontier, with the Q-network of that moment; old scores are never updated; the
 * best-scored URL is fetched next (best-first over stale scores). Cheap per step, but the scores
 * of old samples drift away from what the agent has since learned.
 *
 * Samples are ids of an {@link IndexedPriorityFrontier} with their vectors in its table (no
 * object per sample); `parent` indexes the fetched pages with outlinks (URL and path state; -1 for seeds).
 *
 * Resume: the Double DQN and the Q each outlink was queued with (in observe order) come back from
 * the checkpoint; the replay queues the links with those Q values (not with the restored
 * network's: a resumed crawl of DocWeb hardware otherwise reached 77.6% after page
 * 1,500 where the uninterrupted one had 33.0%), and the last page the checkpoint reflects waits
 * for the next chosen action as it did in the crawl that stopped.
 */

import type { Rng } from '../../common/index.js';
import { ConfigError } from '../../common/index.js';
import { IndexedPriorityFrontier } from '../../frontier/index.js';
import type { KeywordSet } from '../../text/index.js';
import type { Action, DiscoveredLink, Outcome, SelectionContext } from '../../types/index.js';
import { ObservationLog } from '../observation-log.js';
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

/** What {@link TresAsyncStrategy.checkpoint} stores. */
export interface TresAsyncCheckpoint {
  format: number;
  agent: DdqnLearnedState;
  /** The Q each outlink was queued with, in observe order (format 2; see ObservationLog). */
  queuedQ?: Float64Array;
  /**
   * The vector of the last observed action, whose transition waits for the next one (format 2;
   * a replayed action carries no vector).
   */
  lastX?: Float32Array;
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
  private readonly queuedQ = new ObservationLog();
  /** The vector of the last observed action (see TresAsyncCheckpoint.lastX). */
  private lastX: Float32Array | undefined;
  /**
   * Path state of each replayed page, by URL, while a resume replays (a replayed action carries
   * no path: its parent's is here, parents come before children); emptied at the first live page.
   */
  private readonly replayPaths = new Map<string, PathState>();

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
      isUrlCounted: true,
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
    // Out of the frontier's figure now (its samples leave lazily), as a live crawl drew it.
    for (const url of new Set([action.url, outcome.finalUrl])) this.frontier.removeUrl(url);
    this.steps++;
    const data = action.data as AsyncData | undefined;
    const isLearned = outcome.isLearned === true;
    // A replayed action has no vector: the checkpoint's last one is the only one still needed.
    const x =
      isLearned && this.lastX !== undefined
        ? this.lastX
        : data === undefined || data.isSeed
          ? this.features.encodeFetchedSeed(outcome, this.domains)
          : data.x;
    if (!isLearned) this.lastX = x;
    const agentReward = withNewSiteBonus(reward, action.domain, this.domains, this.config.newDomainBonus);
    this.domains.record(action.domain, reward);
    let path = data?.path ?? SEED_LINK_STATE;
    if (outcome.isReplay) {
      if (action.parentUrl !== undefined) path = this.replayPaths.get(action.parentUrl) ?? path;
    } else this.replayPaths.clear();
    const childState = childPathState(path, reward);
    if (outcome.isReplay) this.replayPaths.set(action.url, childState);
    const n = outcome.links.length;
    // A page the restored checkpoint reflects: only the last one's transition was still waiting
    // for the next action when the checkpoint was taken (the others are in the replay buffer).
    if (isLearned) this.pending.clear();
    const isWaiting = !outcome.isReplay || isLearned;
    if (n === 0) {
      if (isWaiting) this.pending.push(x, agentReward, []);
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
    // Asynchronous update: score only the new outlinks, once (a replayed page the checkpoint
    // reflects: with the Q they were queued with then).
    let q: ArrayLike<number> | undefined = isLearned ? this.storedQ(n) : undefined;
    if (q === undefined) {
      q = this.agent.q(xs, n);
      this.qEvaluations += n;
      if (!isLearned) for (let i = 0; i < n; i++) this.queuedQ.add(q[i] as number);
    }
    const keys = q;
    const parent = this.parents.push({ url: action.url, path: childState }) - 1;
    const ids = outcome.links.map((link: DiscoveredLink, i) =>
      this.frontier.addWithKey(link, parent, -(keys[i] as number), xs.subarray(i * size, i * size + size)),
    );
    if (isWaiting) this.pending.pushIds(x, agentReward, ids);
  }

  /**
   * What `tres-async` has learned: the Double DQN (networks, Adam, counters, replay, sampling
   * stream) and the Q each outlink was queued with. The step counter and the frontier come back
   * by replaying the stored pages with those Q values.
   */
  checkpoint(): TresAsyncCheckpoint {
    return {
      format: 2,
      agent: this.agent.learnedState(),
      queuedQ: this.queuedQ.saved(),
      ...(this.lastX ? { lastX: this.lastX.slice() } : {}),
    };
  }

  /** Loads a {@link TresAsyncStrategy.checkpoint} (before `seed` and the replay). @throws ConfigError if it does not fit. */
  restore(checkpoint: unknown): void {
    const c = checkpoint as TresAsyncCheckpoint;
    if (c?.format !== 1 && c?.format !== 2)
      throw new ConfigError('not a tres-async checkpoint of format 1 or 2');
    this.agent.loadLearnedState(c.agent);
    // Format 1 has none: its replay scores the links with the restored network.
    if (c.queuedQ !== undefined) this.queuedQ.load(c.queuedQ);
    if (c.lastX !== undefined) this.lastX = Float32Array.from(c.lastX);
  }

  /** The Q values `n` outlinks of a replayed page were queued with; undefined if not stored. */
  private storedQ(n: number): Float64Array | undefined {
    const q = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const value = this.queuedQ.takeStored();
      if (value === undefined) return undefined;
      q[i] = value;
    }
    return q;
  }

  stats(): StrategyStats {
    return {
      'frontier/size': this.frontier.liveSize,
      'rl/q_evaluations': this.qEvaluations,
      ...agentStats(this.agent),
    };
  }
}
