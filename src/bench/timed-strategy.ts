/**
 * A strategy wrapper that times every decision: `next` (select among representatives, update the
 * tree, learn from the waiting transitions) plus `observe` (route the new outlinks, add the
 * experience, maybe split). Together they are one decision of the MDP, everything but the fetch.
 */
import type {
  Action,
  DiscoveredLink,
  Outcome,
  SelectionContext,
  Strategy,
  StrategyStats,
} from '../strategies/strategy.js';

/** One step's record. */
export interface DecisionRecord {
  step: number;
  /** Wall time of next() + observe() of this step, in milliseconds. */
  decisionMs: number;
  frontierSize: number;
  leaves: number;
  /** Q evaluations made by this step's next(). */
  qEvaluations: number;
}

export class TimedStrategy implements Strategy {
  readonly records: DecisionRecord[] = [];
  private pendingMs = 0;
  private lastQ = 0;

  constructor(readonly inner: Strategy) {}

  get name(): string {
    return this.inner.name;
  }

  get needsAnchorScores(): boolean | undefined {
    return this.inner.needsAnchorScores;
  }

  get needsLinkContext(): boolean | undefined {
    return this.inner.needsLinkContext;
  }

  seed(links: DiscoveredLink[]): void {
    this.inner.seed(links);
  }

  next(ctx: SelectionContext): Action | undefined {
    const q0 = this.inner.stats()['rl/q_evaluations'] ?? 0;
    const t = performance.now();
    const action = this.inner.next(ctx);
    this.pendingMs = performance.now() - t;
    this.lastQ = (this.inner.stats()['rl/q_evaluations'] ?? 0) - q0;
    return action;
  }

  observe(outcome: Outcome): void {
    const t = performance.now();
    this.inner.observe(outcome);
    const ms = performance.now() - t + this.pendingMs;
    this.pendingMs = 0;
    if (outcome.isReplay) return;
    const stats = this.inner.stats();
    this.records.push({
      step: this.records.length + 1,
      decisionMs: ms,
      frontierSize: stats['frontier/size'],
      leaves: stats['frontier/leaves'] ?? 1,
      qEvaluations: this.lastQ,
    });
  }

  stats(): StrategyStats {
    return this.inner.stats();
  }
}
