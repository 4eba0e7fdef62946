/**
 * `tres-async`: TRES's state-action features and Double DQN with the asynchronous frontier
 * update of Han et al. (the journal's TRES_Async baseline): each new outlink is scored once, when
 * it enters the frontier, with the Q-network of that moment; old scores are never updated; the
 * best-scored URL is fetched next (best-first over stale scores). Cheap per step, but the scores
 * of old samples drift away from what the agent has since learned.
 */
import type { Rng } from '../../common/rng.js';
import { type FrontierItem, PriorityFrontier } from '../../frontier/priority-frontier.js';
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

export interface TresAsyncOptions extends Pick<TresOverrides, 'ddqn' | 'buckets'> {
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
  /** Every hyperparameter of this run (the tree settings are unused: no Tree-Frontier). */
  readonly config: Readonly<TresConfig>;
  private readonly features: StateFeatures;
  private readonly domains = new DomainStats();
  private readonly frontier = new PriorityFrontier();
  private readonly agent: DdqnAgent;
  private readonly pending = new PendingTransitions();
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
  }

  seed(links: DiscoveredLink[]): void {
    for (const link of links) {
      const x = this.features.encodeSeed(link.url, link.domain, '', 0.5, this.domains);
      const data: AsyncData = { x, path: SEED_LINK_STATE, isSeed: true };
      // Seeds go first.
      this.frontier.add({
        url: link.url,
        host: link.host,
        domain: link.domain,
        depth: 0,
        key: Number.NEGATIVE_INFINITY,
        data,
      });
    }
  }

  next(ctx: SelectionContext): Action | undefined {
    const [item] = this.frontier.draw(ctx);
    if (!item) return undefined;
    this.frontier.take(item);
    const { key: _key, ...action } = item;
    const data = action.data as AsyncData;
    this.pending.complete(data.x, this.agent, this.steps);
    return action;
  }

  observe(outcome: Outcome): void {
    const { action, reward } = outcome;
    this.steps++;
    const data = action.data as AsyncData | undefined;
    const x =
      data === undefined || data.isSeed ? this.features.encodeFetchedSeed(outcome, this.domains) : data.x;
    this.domains.record(action.domain, reward);
    const childState = childPathState(data?.path ?? SEED_LINK_STATE, reward);
    const n = outcome.links.length;
    if (n === 0) {
      if (!outcome.isReplay) this.pending.push(x, reward, []);
      return;
    }
    const size = this.features.size;
    const xs = new Float32Array(n * size); // [links, features]
    const vectors = outcome.links.map((link, i) => {
      const v = this.features.encode(
        childState,
        { ...link, anchorProbability: link.anchorProbability ?? 0 },
        this.domains,
      );
      xs.set(v, i * size);
      return v;
    });
    // Asynchronous update: score only the new outlinks, once.
    const q = this.agent.q(xs, n);
    this.qEvaluations += n;
    outcome.links.forEach((link: DiscoveredLink, i) => {
      const item: FrontierItem = {
        url: link.url,
        host: link.host,
        domain: link.domain,
        depth: link.depth,
        parentUrl: action.url,
        key: -(q[i] as number),
        data: { x: vectors[i] as Float32Array, path: childState, isSeed: false } satisfies AsyncData,
      };
      this.frontier.add(item);
    });
    if (!outcome.isReplay) this.pending.push(x, reward, vectors);
  }

  stats(): StrategyStats {
    return {
      'frontier/size': this.frontier.size,
      'rl/q_evaluations': this.qEvaluations,
      ...agentStats(this.agent),
    };
  }
}
